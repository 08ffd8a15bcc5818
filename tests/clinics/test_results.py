"""Results: the CSV per participant and question, and the export file another install imports."""

import csv
import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from polotrainer.clinics.models import ClinicAnswer, ClinicSession, Participant
from polotrainer.umpires.models import Attempt, Mode
from tests.clinics.support import Phone, content_of, drive
from tests.people import person

pytestmark = pytest.mark.django_db


def _played(clinic, alice):
    anna, signed_in = Phone(clinic), Phone(clinic, user=alice)
    anna.join("Anna")
    signed_in.join("Alice")
    session = drive(clinic, "show")
    anna.answer(right=True)
    signed_in.answer(right=False)
    return drive(session, "reveal", "end")


def _as(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_csv_has_a_line_per_participant_and_question_in_words(clinic, ines, alice):
    _played(clinic, alice)
    body = content_of(_as(ines).get(f"/en/clinics/{clinic.pk}/results.csv")).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body)))
    questions = ClinicAnswer.objects.filter(participant__nickname="Anna").count()
    assert len(rows) == 2 * questions
    anna = [r for r in rows if r["Nickname"] == "Anna"]
    assert all(r["Result"] == "right" for r in anna)
    assert {r["Result"] for r in rows if r["Nickname"] == "Alice"} == {"wrong"}
    assert anna[0]["The right answer"] and anna[0]["slug"] == "r21-injured-player"
    assert anna[0]["Total score"] == str(questions)


def test_export_then_import_on_another_install_counts_there(clinic, ines, alice):
    _played(clinic, alice)
    exported = content_of(_as(ines).get(f"/en/clinics/{clinic.pk}/export.json"))
    data = json.loads(exported)
    assert {p["nickname"] for p in data["participants"]} == {"Anna", "Alice"}
    assert len(data["answers"]) == ClinicAnswer.objects.count()
    # "Another install": its own instructor; Alice has an account there too (same username and
    # e-mail). Her laptop-clinic answers are not yet in its history.
    Attempt.objects.all().delete()
    federation = person("fed", instructor=True)
    upload = SimpleUploadedFile("clinic.json", exported, content_type="application/json")
    response = _as(federation).post("/en/clinics/import/", {"file": upload})
    assert response.status_code == 302
    imported = ClinicSession.objects.get(instructor=federation)
    assert imported.phase == "ended" and imported.title == "Clinic A"
    assert Participant.objects.filter(session=imported).count() == 2
    assert ClinicAnswer.objects.filter(round__session=imported).count() == len(data["answers"])
    history = Attempt.objects.filter(user=alice)
    alice_id = next(p["id"] for p in data["participants"] if p["nickname"] == "Alice")
    assert history.count() == sum(1 for a in data["answers"] if a["participant"] == alice_id) > 0
    assert set(history.values_list("mode", flat=True)) == {Mode.CLINIC}
    assert not history.filter(correct=True).exists()
    # The same file again: refused, nothing doubled.
    again = SimpleUploadedFile("clinic.json", exported, content_type="application/json")
    response = _as(federation).post("/en/clinics/import/", {"file": again})
    assert response.status_code == 400
    assert "already been imported" in response.content.decode()
    assert ClinicSession.objects.filter(instructor=federation).count() == 1


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"not json at all", "it is not JSON"),
        (b'{"format": "something else"}', "not a clinic results file from polotrainer"),
        (b'{"format": "polotrainer-clinic", "format_version": 1}', "damaged or incomplete"),
    ],
)
def test_a_bad_file_is_refused_with_nothing_imported(ines, payload, message):
    upload = SimpleUploadedFile("x.json", payload, content_type="application/json")
    response = _as(ines).post("/en/clinics/import/", {"file": upload})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not ClinicSession.objects.exists()


def test_a_file_with_situations_this_site_lacks_is_refused(clinic, ines, alice):
    _played(clinic, alice)
    data = json.loads(content_of(_as(ines).get(f"/en/clinics/{clinic.pk}/export.json")))
    data["rounds"][0]["scenario"] = "no-such-situation"
    data["origin"] = "elsewhere/1"
    upload = SimpleUploadedFile(
        "x.json", json.dumps(data).encode(), content_type="application/json"
    )
    response = _as(ines).post("/en/clinics/import/", {"file": upload})
    assert response.status_code == 400
    assert "no-such-situation" in response.content.decode()
    assert ClinicSession.objects.count() == 1


def test_the_wifi_code_is_drawn_and_stored_nowhere(clinic, ines):
    response = _as(ines).post(
        f"/en/clinics/{clinic.pk}/wifi/",
        {"ssid": "ClubNet", "password": "s3cret-pass"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="wifi",
    )
    page = response.content.decode()
    assert response.status_code == 200 and "<svg" in page and "ClubNet" in page
    assert "s3cret-pass" not in page  # only inside the code's modules
    assert "no-store" in response["Cache-Control"]
    clinic.refresh_from_db()
    assert "s3cret" not in json.dumps(list(ClinicSession.objects.values()), default=str)
