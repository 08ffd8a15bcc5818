"""The exam's title in both languages, as the instructor typed them (payload version 2).

A certificate issued before carried one title, the one of the language active when the exam
was passed: both halves of its page showed it, and both keep showing it.
"""

from django.db import migrations, models
from django.db.models import F


def one_title_for_both(apps, schema_editor):
    Certificate = apps.get_model("certificates", "Certificate")
    Certificate.objects.update(exam_title_en=F("exam_title_it"))


class Migration(migrations.Migration):
    dependencies = [("certificates", "0001_initial")]

    operations = [
        migrations.RenameField("certificate", "exam_title", "exam_title_it"),
        migrations.AddField(
            model_name="certificate",
            name="exam_title_en",
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.RunPython(one_title_for_both, migrations.RunPython.noop),
    ]
