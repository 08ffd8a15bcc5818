"""The dashboard: mastery, activity, streak, due reviews, history; a fixed number of queries."""

import pytest
from django.utils import timezone

from polotrainer.umpires.models import Attempt
from tests.people import answer, days_ago

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["it", "en"])
def test_dashboard_shows_every_part_in_the_pages_language(alice_client, trainee, rulebook, lang):
    answer(trainee, rulebook["3b"], correct=False, when=days_ago(1))
    html = alice_client.get(f"/{lang}/me/").content.decode()
    assert f'lang="{lang}"' in html
    assert "<progress" in html and "<svg" in html and "<title id=" in html and "<desc id=" in html
    assert f'href="/{lang}/practice/next/?section=3.b"' in html
    assert f'href="/{lang}/practice/next/?rule=21"' in html
    assert f'href="/{lang}/review/"' in html
    assert f'href="/{lang}/me/history.csv"' in html


def test_every_history_row_replays_that_exact_variant(alice_client, trainee, rulebook):
    answer(trainee, rulebook["3b"], seed=4242)
    answer(trainee, rulebook["21a"], seed=17)
    html = alice_client.get("/en/me/").content.decode()
    assert 'href="/en/practice/sub-three/4242/"' in html
    assert 'href="/en/practice/stop-one/17/"' in html


def test_mastery_is_weakest_first_with_its_definition(alice_client, trainee, rulebook):
    answer(trainee, rulebook["3b"], correct=True)
    response = alice_client.get("/en/me/")
    assert [m.ref for m in response.context["sections"]][-1] == "3.b"
    assert "last 5 answers" in response.content.decode()


def test_streak_and_totals(alice_client, trainee, rulebook):
    for n in (0, 1, 2, 4):
        answer(trainee, rulebook["3b"], correct=n != 1, when=days_ago(n))
    context = alice_client.get("/en/me/").context
    assert context["streak"] == 3
    assert (context["total"], context["total_right"]) == (4, 3)
    assert [c.span for c in context["charts"]] == [30, 90]


def test_due_count_is_shown(alice_client, trainee, rulebook):
    answer(trainee, rulebook["3b"], correct=False, when=days_ago(1))
    assert alice_client.get("/en/me/").context["due_count"] == 1


def _many(user, scenarios, n):
    now = timezone.now()
    Attempt.objects.bulk_create(
        Attempt(
            user=user,
            scenario=scenarios[i % len(scenarios)],
            seed=i,
            question="ruling",
            answer={"choice": "x"},
            correct=i % 3 != 0,
            time_taken_ms=1000 + i,
            nonce=f"bulk-{user.pk}-{i}",
            created_at=now,
        )
        for i in range(n)
    )


@pytest.mark.parametrize("n", [10, 300])
def test_dashboard_runs_at_most_ten_queries_whatever_the_history(
    alice_client, trainee, rulebook, django_assert_max_num_queries, n
):
    _many(trainee, list(rulebook.values()), n)
    with django_assert_max_num_queries(10):
        response = alice_client.get("/en/me/")
    assert response.status_code == 200


def test_history_is_paginated_without_javascript(alice_client, trainee, rulebook):
    _many(trainee, list(rulebook.values()), 30)
    first = alice_client.get("/en/me/")
    assert len(first.context["history"].object_list) == 25
    assert 'href="?page=2#history"' in first.content.decode()
    second = alice_client.get("/en/me/?page=2")
    assert len(second.context["history"].object_list) == 5
    assert "<html" in second.content.decode()


def test_history_page_under_htmx_is_only_the_history_fragment(alice_client, trainee, rulebook):
    _many(trainee, list(rulebook.values()), 30)
    response = alice_client.get(
        "/en/me/?page=2", headers={"HX-Request": "true", "HX-Target": "history"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="history"')
    assert "<html" not in html and "<svg" not in html
    assert 'data-hx-get="?page=1"' in html


def test_a_nonsense_page_number_shows_the_last_page(alice_client, trainee, rulebook):
    _many(trainee, list(rulebook.values()), 30)
    response = alice_client.get("/en/me/?page=999")
    assert response.context["history"].number == 2
    assert alice_client.get("/en/me/?page=abc").context["history"].number == 1


def test_an_empty_history_invites_to_practise(alice_client, rulebook):
    html = alice_client.get("/en/me/").content.decode()
    assert "No answers yet." in html
