"""Two trainees: neither ever sees the other's data."""

import pytest

from tests.people import answer

pytestmark = pytest.mark.django_db


@pytest.fixture
def alices_history(trainee, rulebook):
    answer(trainee, rulebook["3b"], seed=4242, correct=False)
    return rulebook


def test_bob_sees_nothing_of_alices_on_his_dashboard(client, other_trainee, alices_history):
    client.force_login(other_trainee)
    response = client.get("/en/me/")
    assert response.context["total"] == 0
    assert response.context["due_count"] == 0
    assert "4242" not in response.content.decode()
    assert not response.context["history"].object_list


def test_bob_has_nothing_to_review_from_alices_schedule(client, other_trainee, alices_history):
    client.force_login(other_trainee)
    response = client.get("/en/review/")
    assert response.status_code == 200
    assert response.context["next_due"] is None


def test_bobs_csv_has_only_its_header(client, trainee, other_trainee, alices_history):
    client.force_login(other_trainee)
    body = b"".join(client.get(f"/en/me/history.csv?user={trainee.pk}").streaming_content)
    assert len(body.decode().strip().splitlines()) == 1  # the header alone


@pytest.mark.parametrize("path", ["/en/me/1/", "/en/me/history/1/", "/en/account/1/"])
def test_urls_with_someone_elses_id_do_not_exist(client, other_trainee, alices_history, path):
    client.force_login(other_trainee)
    assert client.get(path).status_code == 404
