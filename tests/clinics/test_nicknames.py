"""Nicknames that look alike on the projector cannot both play: the second is refused as taken,
in the phone's language, and nothing is recorded. Existing keys are recomputed by migration."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from polotrainer.clinics import lookalikes, transfer
from polotrainer.clinics.models import ClinicSession, Participant
from tests.clinics.support import Phone, drive, text

CYRILLIC_A = "\u0410"  # looks like A
GREEK_A = "\u0391"
FULLWIDTH = "\uff21\uff4e\uff4e\uff41"  # "Anna" in full-width letters


@pytest.mark.django_db
@pytest.mark.parametrize(
    "look_alike",
    [
        f"{CYRILLIC_A}nna",
        f"{GREEK_A}nna",
        FULLWIDTH,
        "ANNA",
        f"{CYRILLIC_A}NN{CYRILLIC_A}",
        "\u0430nna",  # a small Cyrillic a
        "Anna\u200b",  # a zero-width space after it
    ],
)
def test_a_look_alike_of_a_nickname_in_the_room_is_refused_as_taken(clinic, look_alike):
    assert Phone(clinic).join("Anna").status_code == 302
    response = Phone(clinic).join(look_alike)
    assert response.status_code == 400
    assert "Someone in this clinic already has that nickname" in text(response.content.decode())
    assert list(Participant.objects.values_list("nickname", flat=True)) == ["Anna"]


@pytest.mark.django_db
def test_the_refusal_is_in_italian_on_an_italian_phone(clinic):
    Phone(clinic, lang="it").join(f"{CYRILLIC_A}nna")
    response = Phone(clinic, lang="it").join("Anna")
    assert response.status_code == 400
    assert "ha già quel soprannome" in text(response.content.decode())
    assert Participant.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second"),
    [("Ivan", "Lvan"), ("Anna", "Ánna"), ("Bob", "\u0432ob"), ("Marco", "Marco 2"), ("Li", "Lì")],
)
def test_names_that_look_different_both_play(clinic, first, second):
    assert Phone(clinic).join(first).status_code == 302
    assert Phone(clinic).join(second).status_code == 302


def test_the_key_is_unicodes_skeleton_for_the_scripts_of_a_phone_keyboard():
    assert lookalikes.key("\u0412\u043eb") == lookalikes.key("Bob")  # Cyrillic B, o
    assert lookalikes.key("\U0001d400nna") == lookalikes.key("anna")  # mathematical bold A
    assert lookalikes.key("\u0401va") == lookalikes.key("\u00cbva")  # Cyrillic and Latin E-umlaut
    assert lookalikes.key("Stra\u00dfe") == lookalikes.key("STRASSE")
    assert lookalikes.key("Ivan") != lookalikes.key("Lvan")


@pytest.mark.django_db(transaction=True)
def test_the_migration_recomputes_the_keys_and_keeps_earlier_look_alikes_both(django_user_model):
    executor = MigrationExecutor(connection)
    executor.migrate([("clinics", "0001_initial")])
    old = executor.loader.project_state([("clinics", "0001_initial")]).apps
    user = old.get_model("auth", "User").objects.create(username="ines")
    session = old.get_model("clinics", "ClinicSession").objects.create(
        instructor_id=user.pk, title="Before", pin="123456"
    )
    other = old.get_model("clinics", "ClinicSession").objects.create(
        instructor_id=user.pk, title="Elsewhere", pin="654321"
    )
    Before = old.get_model("clinics", "Participant")
    for where, name in [(session, "Anna"), (session, f"{CYRILLIC_A}nna"), (other, FULLWIDTH)]:
        Before.objects.create(
            session_id=where.pk, nickname=name, nickname_key=name.casefold(), secret="s"
        )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    keys = dict(Participant.objects.values_list("nickname", "nickname_key"))
    assert keys["Anna"] == "anna" and keys[FULLWIDTH] == "anna"
    assert keys[f"{CYRILLIC_A}nna"].startswith("anna\x01")  # both keep playing
    # A newcomer who looks like them is refused now.
    response = Phone(ClinicSession.objects.get(title="Before")).join("\uff41nna")
    assert response.status_code == 400


@pytest.mark.django_db
def test_a_file_from_an_install_that_let_look_alikes_both_play_imports_both(clinic, ines):
    Phone(clinic).join("Anna")
    data = transfer.export(drive(clinic, "end"), "laptop.local")
    twin = dict(data["participants"][0], id=data["participants"][0]["id"] + 1000)
    data["participants"].append(twin | {"nickname": f"{CYRILLIC_A}nna"})
    data["origin"] = "another-laptop"
    client = Client()
    client.force_login(ines)
    upload = SimpleUploadedFile("c.json", json.dumps(data).encode(), "application/json")
    assert client.post("/en/clinics/import/", {"file": upload}).status_code == 302
    imported = ClinicSession.objects.get(origin="another-laptop")
    assert imported.participants.count() == 2
