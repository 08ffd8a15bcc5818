"""After a clinic: each signed-in participant's follow-up mail (once, in their language, with
their answers, the rulings and a practice link for what they missed); an anonymous phone gets
nothing; the practice link serves the missed situations in turn."""

from io import StringIO
from urllib.parse import urlencode, urlsplit

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client

from polotrainer.clinics.models import ClinicAnswer, ClinicSession
from polotrainer.notify.models import Kind, OptOut, Sent
from polotrainer.practice import sets
from polotrainer.umpires.models import Profile
from scenarios.models import Scenario
from tests.clinics.support import BOOL_NUMBER, PLACE, Phone, drive
from tests.people import person

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def mail_on(settings):
    settings.MAIL_ENABLED = True
    settings.SITE_URL = "https://trainer.example.org"
    settings.DEFAULT_FROM_EMAIL = "Polo Club <trainer@example.org>"


def notify() -> str:
    out = StringIO()
    call_command("notify", stdout=out)
    return out.getvalue()


def _played(clinic: ClinicSession):
    """Alice (Italian, signed in) gets round 1 right and round 2 wrong; Bruno (English, signed
    in) gets both right; a phone without an account plays too. Then the clinic ends."""
    alice, bruno = person("alice"), person("bruno")
    Profile.objects.update_or_create(user=alice, defaults={"language": "it"})
    Profile.objects.update_or_create(user=bruno, defaults={"language": "en"})
    phones = {
        "alice": Phone(clinic, "it", user=alice),
        "bruno": Phone(clinic, "en", user=bruno),
        "anon": Phone(clinic, "en"),
    }
    for nickname, phone in phones.items():
        phone.join(nickname.title())
    clinic = drive(clinic, "show")
    for phone in phones.values():
        phone.answer(right=True)
    assert ClinicAnswer.objects.filter(correct=True).values("participant").distinct().count() == 3
    clinic = drive(clinic, "reveal", "next")
    phones["alice"].answer(right=False)
    phones["bruno"].answer(right=True)
    phones["anon"].answer(right=False)
    drive(clinic, "reveal", "end")
    return alice, bruno


def test_the_end_mails_each_signed_in_participant_once_in_their_language(clinic):
    alice, bruno = _played(clinic)
    assert mail.outbox == []  # the end control sends nothing itself: the notify run does
    first = notify()
    assert "2 sent" in first and "clinic_followup 2" in first
    notify()  # the second run sends nothing twice
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bruno@example.org"]
    assert Sent.objects.filter(kind=Kind.CLINIC_FOLLOWUP, object_id=clinic.pk).count() == 2

    (to_alice,) = [m for m in mail.outbox if m.to == [alice.email]]
    assert to_alice.subject == "Dopo la clinic: Clinic A"
    assert "Round 1" not in to_alice.body and "Turno 1" in to_alice.body
    assert "La tua risposta:" in to_alice.body and "La risposta giusta:" in to_alice.body
    assert "Esercitati su ciò che hai sbagliato: 1 situazione" in to_alice.body
    html = to_alice.alternatives[0]
    assert html.mimetype == "text/html" and "Turno 2" in html.content
    stop = to_alice.extra_headers["List-Unsubscribe"]
    assert stop.startswith("<https://trainer.example.org/it/mail/stop/")
    assert to_alice.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # The practice link names exactly the situation she missed (round 2's).
    link = next(w for w in to_alice.body.split() if "/practice/set/" in w)
    path = urlsplit(link).path
    assert path.startswith("/it/practice/set/")
    token = path.rstrip("/").rsplit("/", 1)[1]
    missed = clinic.rounds.get(position=2).scenario_id
    assert sets.read(token) == [missed]

    (to_bruno,) = [m for m in mail.outbox if m.to == [bruno.email]]
    assert to_bruno.subject == "After the clinic: Clinic A"
    assert "Your answer:" in to_bruno.body and "Round 2" in to_bruno.body
    assert "/practice/set/" not in to_bruno.body
    assert "You answered every round right." in to_bruno.body


def test_an_anonymous_phone_and_a_stopped_kind_get_nothing(clinic):
    alice, bruno = _played(clinic)
    OptOut.objects.create(user=bruno, kind=Kind.CLINIC_FOLLOWUP)
    notify()
    assert [m.to for m in mail.outbox] == [[alice.email]]


def test_a_clinic_still_running_sends_nothing(clinic):
    alice = person("alice")
    phone = Phone(clinic, "en", user=alice)
    phone.join("Alice")
    drive(clinic, "show")
    phone.answer(right=False)
    notify()
    assert mail.outbox == []


def test_the_practice_link_serves_the_set_in_turn_then_says_done(clinic):
    ids = list(Scenario.objects.filter(slug__in=[PLACE, BOOL_NUMBER]).values_list("pk", "slug"))
    ordered = [pk for pk, _slug in sorted(ids, key=lambda p: p[1] != PLACE)]  # PLACE first
    slugs = dict(ids)
    token = sets.token(ordered)
    client = Client()
    first = client.get(f"/en/practice/set/{token}/")
    assert first.status_code == 302
    assert first["Location"].startswith(f"/en/practice/{slugs[ordered[0]]}/")
    assert urlencode({"then": f"/en/practice/set/{token}/2/"}) in first["Location"]
    second = client.get(f"/en/practice/set/{token}/2/")
    assert second["Location"].startswith(f"/en/practice/{slugs[ordered[1]]}/")
    # The question page keeps the set's next place, so its "next" follows the set.
    page = client.get(second["Location"])
    assert urlencode({"then": f"/en/practice/set/{token}/3/"}) in page.content.decode()
    done = client.get(f"/it/practice/set/{token}/3/")
    assert done.status_code == 200 and "Serie finita" in done.content.decode()


def test_a_changed_practice_link_is_a_404_in_the_persons_language(clinic):
    token = sets.token([clinic.rounds.first().scenario_id])
    response = Client().get(f"/it/practice/set/{token[:-1]}x/")
    assert response.status_code == 404
    assert "Questo link per esercitarsi non è valido" in response.content.decode()
