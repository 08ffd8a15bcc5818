"""Nickname keys compare by look (clinics.lookalikes), no longer by case alone: the column
widens (NFKC can lengthen a nickname) and every existing key is computed again. Two players
of one session whose nicknames now share a key both stay: the later one's key is kept apart.
"""

from django.db import migrations, models
from django.db.models import Value
from django.db.models.functions import Cast, Concat

from polotrainer.clinics.lookalikes import kept_apart, key

#: A prefix no key holds (nicknames have no control characters), so the first pass, which
#: frees every key, can never collide with a key not yet rewritten.
_FREED = "\x02"


def _rewrite(apps, schema_editor, make_key, length):
    Participant = apps.get_model("clinics", "Participant")
    Participant.objects.update(
        nickname_key=Concat(Value(_FREED), Cast("pk", output_field=models.CharField()))
    )
    rows = Participant.objects.order_by("session_id", "joined_at", "pk")
    taken = set()
    changed = []
    for pk, session_id, nickname in list(rows.values_list("pk", "session_id", "nickname")):
        new = make_key(nickname)[:length]
        if (session_id, new) in taken:
            new = kept_apart(new[: length - 12], pk)
        taken.add((session_id, new))
        changed.append(Participant(pk=pk, nickname_key=new))
    Participant.objects.bulk_update(changed, ["nickname_key"], batch_size=500)


def forwards(apps, schema_editor):
    _rewrite(apps, schema_editor, key, 100)


def backwards(apps, schema_editor):
    _rewrite(apps, schema_editor, str.casefold, 24)


class Migration(migrations.Migration):
    dependencies = [
        ("clinics", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="participant",
            name="nickname_key",
            field=models.CharField(max_length=100),
        ),
        migrations.RunPython(forwards, backwards, elidable=True),
    ]
