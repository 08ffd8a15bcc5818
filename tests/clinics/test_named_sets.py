"""Named sets: an ended clinic's situations saved under a name (the instructor's own), and a new
clinic made from one, with the same situations in the same order; bad names are refused with a
message in the instructor's language."""

import pytest
from django.test import Client

from polotrainer.clinics.models import ClinicSession, ClinicSet
from tests.clinics.support import BOOL_NUMBER, CHOICE_ORDER, PLACE, content_of, drive, make_clinic

pytestmark = pytest.mark.django_db


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _positions(session: ClinicSession) -> list[int]:
    return list(session.rounds.order_by("position").values_list("scenario_id", flat=True))


def test_an_ended_clinic_saved_as_a_set_makes_a_new_clinic_with_the_same_rounds(
    bundled_content, ines
):
    # The rounds come in rulebook order; the set keeps the clinic's order, whatever it is.
    ended = drive(make_clinic(ines, [PLACE, CHOICE_ORDER, BOOL_NUMBER]), "end")
    order = _positions(ended)
    assert len(order) == 3
    client = _as(ines)
    response = client.post(f"/en/clinics/{ended.pk}/save-set/", {"name": "  Tuesday  night "})
    assert response.status_code == 302
    saved = ClinicSet.objects.get(instructor=ines)
    assert saved.name == "Tuesday night"
    assert list(saved.items.values_list("scenario_id", flat=True)) == order
    page = client.get(response["Location"]).content.decode()
    assert "Saved as the set “Tuesday night”" in page

    form = client.get("/en/clinics/new/").content.decode()
    assert "Tuesday night" in form
    created = client.post(
        "/en/clinics/new/",
        {"title": "Again", "source": "named", "named_set": saved.pk, "rounds": 8},
    )
    assert created.status_code == 302
    again = ClinicSession.objects.exclude(pk=ended.pk).get()
    assert _positions(again) == order
    assert again.source == "Tuesday night" and again.phase == "lobby"


def test_bad_set_names_are_refused_in_the_instructors_language(bundled_content, ines):
    ended = drive(make_clinic(ines, [BOOL_NUMBER]), "end")
    client = _as(ines)
    empty = client.post(f"/it/clinics/{ended.pk}/save-set/", {"name": "   "})
    assert empty.status_code == 400
    assert "Dai un nome alla serie." in empty.content.decode()
    assert client.post(f"/en/clinics/{ended.pk}/save-set/", {"name": "Mine"}).status_code == 302
    twice = client.post(f"/it/clinics/{ended.pk}/save-set/", {"name": "MINE"})
    assert twice.status_code == 400
    assert "Hai già una serie con questo nome" in twice.content.decode()
    assert ClinicSet.objects.filter(instructor=ines).count() == 1


def test_a_running_clinic_cannot_be_saved_yet(bundled_content, ines):
    running = make_clinic(ines, [BOOL_NUMBER])
    client = _as(ines)
    response = client.post(f"/en/clinics/{running.pk}/save-set/", {"name": "Early"})
    assert response.status_code == 302
    assert "once it has ended" in client.get(response["Location"]).content.decode()
    assert not ClinicSet.objects.exists()


def test_the_same_name_is_free_for_another_instructor_and_sets_stay_their_owners(
    bundled_content, ines, ivan
):
    mine = drive(make_clinic(ines, [BOOL_NUMBER]), "end")
    his = drive(make_clinic(ivan, [PLACE]), "end")
    assert _as(ines).post(f"/en/clinics/{mine.pk}/save-set/", {"name": "Base"}).status_code == 302
    assert _as(ivan).post(f"/en/clinics/{his.pk}/save-set/", {"name": "Base"}).status_code == 302
    # Ivan cannot save Ines's clinic (404) nor start a clinic from her set.
    assert _as(ivan).post(f"/en/clinics/{mine.pk}/save-set/", {"name": "X"}).status_code == 404
    hers = ClinicSet.objects.get(instructor=ines)
    refused = _as(ivan).post(
        "/en/clinics/new/", {"title": "T", "source": "named", "named_set": hers.pk, "rounds": 5}
    )
    assert refused.status_code == 400
    assert ClinicSession.objects.filter(instructor=ivan).count() == 1
    assert "Base" in _as(ivan).get("/en/clinics/new/").content.decode()
    no_set = _as(ivan).post("/en/clinics/new/", {"title": "T", "source": "named", "rounds": 5})
    assert no_set.status_code == 400 and "Choose one of your sets." in no_set.content.decode()


def test_the_stage_the_stream_pushes_once_ended_offers_the_sets_name_as_the_page_does(
    bundled_content, ines
):
    """The projector swaps in the stage each change pushes: after "End the clinic" it is the
    pushed stage, not the page, that the instructor saves from."""
    ended = drive(make_clinic(ines, [PLACE]), "end")
    client = _as(ines)
    page = client.get(f"/it/clinics/{ended.pk}/").content.decode()
    pushed = content_of(client.get(f"/it/clinics/{ended.pk}/events/")).decode()
    for html in (page, pushed):
        assert "save-set" in html
        assert 'name="name"' in html and "Nome della serie" in html
