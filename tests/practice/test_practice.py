"""The practice quiz: every question kind, htmx and no-JS, bad input, integrity, speed."""

import re
import time
from unittest import mock

import pytest
from django.core import signing
from django.test import Client
from django.urls import reverse

from polotrainer.practice import tokens
from polotrainer.umpires.models import Attempt
from scenarios.diagram import field_of
from scenarios.questions import build_questions
from scenarios.spots import FieldSpot
from scenarios.variants import MAX_SEED, make_variant
from tests.content import SPOT, make_scenario

HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "feedback"}
pytestmark = pytest.mark.django_db


def q_url(slug, seed, lang="en"):
    return f"/{lang}/practice/{slug}/{seed}/"


def token_of(response) -> str:
    return re.search(r'name="token" value="([^"]+)"', response.content.decode()).group(1)


def right_form(scenario, seed) -> dict:
    """The form values that answer every question of the variant right (as a trainee would)."""
    variant = make_variant(scenario.slug, scenario.data, seed)
    form = {}
    for q in build_questions(scenario.kind, scenario.data, variant.facts):
        right = q.right_answer(variant.ruling)
        if q.type == "place":
            along, across = FieldSpot.from_engine(right, field_of(variant.facts)).form_values()
            form[f"q-{q.id}-along"], form[f"q-{q.id}-across"] = along, across
        elif q.type == "bool":
            form[f"q-{q.id}"] = "true" if right else "false"
        elif q.type in {"multi", "players"}:
            form[f"q-{q.id}"] = list(right)
        else:
            form[f"q-{q.id}"] = str(right)
    return form


def wrong_form(scenario, seed) -> dict:
    variant = make_variant(scenario.slug, scenario.data, seed)
    form = {}
    for q in build_questions(scenario.kind, scenario.data, variant.facts):
        right = q.right_answer(variant.ruling)
        if q.type == "place":
            form[f"q-{q.id}-along"] = "150"
            form[f"q-{q.id}-across"] = "0"
        elif q.type == "bool":
            form[f"q-{q.id}"] = "false" if right else "true"
        elif q.type in {"multi", "players"}:
            form[f"q-{q.id}"] = [o.value for o in q.options if o.value not in right][:1]
        elif q.type == "number":
            form[f"q-{q.id}"] = str(right + 7)
        else:
            form[f"q-{q.id}"] = next(o.value for o in q.options if o.value != right)
    return form


def answer(client, slug, seed, form, htmx=False, lang="en", token=None):
    if token is None:
        token = token_of(client.get(q_url(slug, seed, lang)))
    extra = HX if htmx else {}
    return client.post(q_url(slug, seed, lang) + "answer/", {**form, "token": token}, **extra)


SLUGS = ["t-safety-spot", "t-p4-positions", "t-p3-interference", "t-horn-seconds"]


# --- start and next -------------------------------------------------------------------------


def test_start_goes_straight_to_a_question_keeping_the_filter(client, scenarios):
    response = client.get("/en/practice/?section=37.6")
    assert response.status_code == 302
    assert response.url == "/en/practice/next/?section=37.6"
    response = client.get(response.url)
    assert response.status_code == 302
    assert re.match(r"^/en/practice/t-safety-spot/\d+/\?section=37\.6$", response.url)


def test_next_keeps_a_rule_filter_and_review_mode(client, scenarios):
    response = client.get("/it/practice/next/?rule=21&mode=review")
    assert re.match(r"^/it/practice/t-horn-seconds/\d+/\?rule=21&mode=review$", response.url)
    page = client.get(response.url).content.decode()
    assert "/it/practice/next/?rule=21&amp;mode=review" not in page  # only after answering
    assert 'action="/it/practice/t-horn-seconds/' in page and "?rule=21&amp;mode=review" in page


def test_next_never_picks_a_retired_scenario(client, scenarios):
    for scenario in scenarios.values():
        if scenario.slug != "t-horn-seconds":
            scenario.retired = True
            scenario.save(update_fields=["retired"])
    for _ in range(10):
        assert "/t-horn-seconds/" in client.get("/en/practice/next/").url


def test_next_prefers_what_the_visitor_has_not_answered(client, scenarios):
    response = answer(client, "t-p3-interference", 5, right_form(scenarios["t-p3-interference"], 5))
    assert response.status_code == 200
    picked = {client.get("/en/practice/next/?rule=37").url.split("/")[3] for _ in range(12)}
    assert "t-p3-interference" not in picked


def test_next_with_nothing_to_practise_says_so(client, scenarios):
    response = client.get("/en/practice/next/?section=99.z")
    assert response.status_code == 200
    assert b"nothing to practise" in response.content


# --- the question page ----------------------------------------------------------------------


def test_question_shows_its_reference_and_a_replay_link(client, scenarios):
    page = client.get(q_url("t-horn-seconds", 1234)).content.decode()
    assert "t-horn-seconds · 1234" in page
    assert 'href="/en/practice/t-horn-seconds/1234/"' in page


def test_retired_scenario_still_replays_with_a_note(client, rulebook):
    make_scenario(SPOT, retired=True)
    response = client.get(q_url("t-safety-spot", 3))
    assert response.status_code == 200
    assert b"retired" in response.content


@pytest.mark.parametrize(
    "url", ["/en/practice/no-such/1/", f"/en/practice/t-safety-spot/{MAX_SEED + 1}/"]
)
def test_unknown_scenario_or_seed_is_a_translated_404(client, scenarios, url):
    assert client.get(url).status_code == 404
    assert client.get(url.replace("/en/", "/it/")).status_code == 404
    assert "Pagina non trovata" in client.get(url.replace("/en/", "/it/")).content.decode()


@pytest.mark.parametrize("seed", [0, 1, 77, 123456])
def test_place_question_never_shows_the_spot(client, scenarios, seed):
    variant = make_variant("t-safety-spot", SPOT, seed)
    spot = variant.ruling["spot"]
    page = client.get(q_url("t-safety-spot", seed)).content.decode()
    svg = page[page.index('<svg class="field') : page.index("</svg>")]
    along, across = FieldSpot.from_engine(spot, field_of(variant.facts)).form_values()
    # Neither in the field's own frame nor in the ball's yards (the marker's group).
    for x, y in ((f"{spot['x']:g}", f"{-spot['y']:g}"), (along, across)):
        assert f"{x} {y}" not in svg and f"{x},{y}" not in svg
    assert f'value="{along}"' not in page
    assert "goal_awarded" not in page and "taken_as" not in page


def test_field_is_drawn_to_scale_with_players_and_lines(client, scenarios):
    page = client.get(q_url("t-p4-positions", 0)).content.decode()
    assert 'class="grass" x="-150" y="-80" width="300" height="160"' in page
    for x in ("-120", "-110", "-90", "120", "110", "90"):
        assert f'x1="{x}"' in page
    assert 'class="player blue" transform="translate(-100 -20)"' in page
    assert 'class="player red" transform="translate(-80 0)"' in page
    assert "Fouling team&#x27;s goal" in page or "Fouling team's goal" in page


def test_field_numbers_are_not_localized_in_italian(client, scenarios):
    page = client.get(q_url("t-safety-spot", 0, "it")).content.decode()
    svg = page[page.index('<svg class="field') : page.index("</svg>")]
    assert ',0"' not in svg


# --- answering, each kind, htmx and not -----------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "nojs"])
@pytest.mark.parametrize("slug", SLUGS)
def test_right_answers_are_right_and_recorded(client, scenarios, slug, htmx):
    scenario = scenarios[slug]
    response = answer(client, slug, 42, right_form(scenario, 42), htmx=htmx)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Right!" in body
    assert 'id="feedback-heading" tabindex="-1"' in body
    assert ("<html" in body) is not htmx
    questions = len(scenario.data["question"])
    assert Attempt.objects.filter(scenario=scenario, correct=True, seed=42).count() == questions
    assert "/en/practice/next/" in body
    assert 'href="/en/rules/section/' in body


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "nojs"])
@pytest.mark.parametrize("slug", SLUGS)
def test_wrong_answers_are_wrong_and_show_the_right_one(client, scenarios, slug, htmx):
    scenario = scenarios[slug]
    response = answer(client, slug, 9, wrong_form(scenario, 9), htmx=htmx)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Not quite." in body or "right</h2>" in body.replace("\n", "").replace("  ", "")
    assert "The right answer:" in body
    assert Attempt.objects.filter(scenario=scenario, correct=False).count() >= 1


def test_place_feedback_draws_both_spots_with_a_legend(client, scenarios):
    body = answer(
        client,
        "t-safety-spot",
        0,
        {"q-spot-along": "60", "q-spot-across": "-40", "q-goal": "false"},
    ).content.decode()
    assert "Not quite." in body or "1 of 2 right" in body
    assert 'class="right-mark" transform="translate(-90 -40)"' in body
    assert 'class="mine-mark" transform="translate(-90 40)"' in body
    assert "Your spot" in body and "The right spot" in body


def test_a_point_within_the_tolerance_counts(client, scenarios):
    body = answer(
        client,
        "t-safety-spot",
        0,
        {"q-spot-along": "61", "q-spot-across": "41,5", "q-goal": "false"},
    ).content.decode()
    assert "Right!" in body


def test_feedback_is_in_the_page_language(client, scenarios):
    body = answer(
        client,
        "t-p3-interference",
        0,
        right_form(scenarios["t-p3-interference"], 0),
        lang="it",
        htmx=True,
    ).content.decode()
    assert "Testo italiano di 37.3." in body
    assert "English text of 37.3." in body  # the original, one click away
    assert '<details lang="en">' in body


@pytest.mark.parametrize(
    ("lang", "here", "there"),
    [
        (
            "it",
            "In questa situazione: attraversa la linea alla sirena",
            "Renderebbe giusta la tua risposta: lo scopo è battere prima",
        ),
        (
            "en",
            "In this situation: crosses the line at the horn",
            "Would make your answer right: it is taken before the horn",
        ),
    ],
)
def test_why_not_gives_each_value_a_sentence_of_its_own(client, rulebook, lang, here, there):
    """A value is any phrase of the content: glued after "invece di" it read "invece di lo
    scopo..." and "invece di attraversa...". Each now follows a colon of its own."""
    from tests.scenarios.test_quiz import HORN_CHOICE

    timing = HORN_CHOICE["params"]["timing"]
    labels = {
        "before_horn": {"it": "lo scopo è battere prima", "en": "it is taken before the horn"},
        "at_or_slightly_after_horn": {
            "it": "attraversa la linea alla sirena",
            "en": "crosses the line at the horn",
        },
    }
    params = {**HORN_CHOICE["params"], "timing": {**timing, "labels": labels}}
    make_scenario({**HORN_CHOICE, "slug": "t-horn-why", "params": params})
    body = answer(client, "t-horn-why", 0, {"q-when": "at_once"}, lang=lang, htmx=True)
    text = body.content.decode()
    assert here in text and there in text
    assert "invece di" not in text and "instead of" not in text


def test_whatif_shows_the_ruling_for_a_changed_fact(client, scenarios):
    body = answer(
        client, "t-safety-spot", 0, right_form(scenarios["t-safety-spot"], 0), htmx=True
    ).content.decode()
    proof = re.search(r'name="proof" value="([^"]+)"', body).group(1)
    url = reverse("practice:whatif", args=["t-safety-spot", 0])
    for extra in ({}, HX):
        response = client.get(url, {"proof": proof, "param": "side", "value": "right"}, **extra)
        assert response.status_code == 200
        text = response.content.decode()
        assert (
            "60 yards from the fouling team&#x27;s goal line, 40 yards left of the centre" in text
        )
        assert (
            "60 yards from the fouling team&#x27;s goal line, 40 yards right of the centre" in text
        )


def test_whatif_needs_an_answer_first(client, scenarios):
    url = reverse("practice:whatif", args=["t-safety-spot", 0])
    response = client.get(url, {"proof": "x", "param": "side", "value": "right"})
    assert response.status_code == 400
    assert b"+40" not in response.content


# --- bad input ------------------------------------------------------------------------------

BAD = [
    ("t-horn-seconds", {"q-seconds": "five"}, "Please enter a number"),
    ("t-horn-seconds", {}, "Please answer this question"),
    ("t-p3-interference", {"q-outcome": "forfeit"}, "not one of this question"),
    ("t-p3-interference", {}, "Please answer this question"),
    ("t-p4-positions", {"q-who": ["B1", "R9"], "q-req": []}, "not in this situation"),
    ("t-p4-positions", {"q-who": ["B1"], "q-req": ["fly"]}, "not one of this question"),
    (
        "t-safety-spot",
        {"q-spot-along": "400", "q-spot-across": "0", "q-goal": "false"},
        "off the field",
    ),
    (
        "t-safety-spot",
        {"q-spot-along": "10", "q-spot-across": "-81", "q-goal": "false"},
        "off the field",
    ),
    (
        "t-safety-spot",
        {"q-spot-along": "ten", "q-spot-across": "0", "q-goal": "false"},
        "Please enter a number",
    ),
    ("t-safety-spot", {"q-spot-along": "10", "q-goal": "maybe"}, "Please answer"),
]


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "nojs"])
@pytest.mark.parametrize(("slug", "form", "message"), BAD)
def test_bad_answers_are_400_with_a_message_and_record_nothing(
    client, scenarios, slug, form, message, htmx
):
    response = answer(client, slug, 3, form, htmx=htmx)
    assert response.status_code == 400
    body = response.content.decode()
    assert message in body
    assert Attempt.objects.count() == 0
    if htmx:
        assert response["HX-Retarget"] == "#quiz"
        assert body.lstrip().startswith("<form")


def test_bad_answer_keeps_the_other_answers(client, scenarios):
    form = {"q-spot-along": "60", "q-spot-across": "40", "q-goal": "maybe"}
    body = answer(client, "t-safety-spot", 0, form).content.decode()
    assert 'name="q-spot-along" value="60"' in body
    # The marker stays where the trainee put it: 60 yards up from the goal line at x = -150.
    assert 'data-measured transform="translate(-150 0) scale(1 -1)"' in body
    assert 'data-marker transform="translate(60 40)"' in body


def test_bad_answer_message_in_italian(client, scenarios):
    from django.utils import translation

    with translation.override("it"):
        from scenarios.quiz import ANSWER_MESSAGES, AnswerCode

        expected = str(ANSWER_MESSAGES[AnswerCode.NOT_A_NUMBER])
    body = answer(client, "t-horn-seconds", 3, {"q-seconds": "cinque"}, lang="it").content.decode()
    assert expected.replace("'", "&#x27;") in body


# --- integrity ------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "nojs"])
def test_double_submit_records_once(client, scenarios, htmx):
    form = right_form(scenarios["t-safety-spot"], 8)
    token = token_of(client.get(q_url("t-safety-spot", 8)))
    first = answer(client, "t-safety-spot", 8, form, htmx=htmx, token=token)
    second = answer(client, "t-safety-spot", 8, form, htmx=htmx, token=token)
    assert first.status_code == second.status_code == 200
    assert Attempt.objects.count() == 2  # two questions, once each
    assert b"already answered" in second.content


def test_token_for_another_variant_is_refused(client, scenarios):
    token = token_of(client.get(q_url("t-safety-spot", 8)))
    form = right_form(scenarios["t-safety-spot"], 9)
    response = answer(client, "t-safety-spot", 9, form, token=token)
    assert response.status_code == 400
    assert b"does not belong" in response.content
    assert Attempt.objects.count() == 0


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "nojs"])
def test_tampered_token_is_refused(client, scenarios, htmx):
    token = token_of(client.get(q_url("t-horn-seconds", 8)))
    forged = signing.dumps(
        {"s": "t-horn-seconds", "e": 8, "q": ["seconds"], "m": "practice", "t": 0, "n": "x"},
        salt="other",
    )
    for bad in (token[:-2] + "xx", forged, "", "garbage"):
        response = answer(client, "t-horn-seconds", 8, {"q-seconds": "5"}, htmx=htmx, token=bad)
        assert response.status_code == 400
    assert Attempt.objects.count() == 0


def test_token_with_other_questions_is_refused(client, scenarios):
    token = tokens.issue("t-horn-seconds", 8, ["other"], "practice")
    response = answer(client, "t-horn-seconds", 8, {"q-seconds": "5"}, token=token)
    assert response.status_code == 400
    assert Attempt.objects.count() == 0


def test_expired_token_is_refused_with_a_fresh_question(client, scenarios):
    token = token_of(client.get(q_url("t-horn-seconds", 8)))
    later = time.time() + tokens.MAX_AGE + 60
    with mock.patch("time.time", return_value=later):
        response = answer(client, "t-horn-seconds", 8, {"q-seconds": "5"}, token=token)
    assert response.status_code == 400
    assert b"too long ago" in response.content
    assert Attempt.objects.count() == 0


def test_time_taken_and_mode_come_from_the_token(client, scenarios):
    token = tokens.issue("t-horn-seconds", 8, ["seconds"], "review")
    data = signing.loads(token, salt=tokens.SALT)
    data["t"] -= 4000
    token = signing.dumps(data, salt=tokens.SALT, compress=True)
    answer(client, "t-horn-seconds", 8, {"q-seconds": "5"}, token=token)
    attempt = Attempt.objects.get()
    assert attempt.mode == "review"
    assert 4000 <= attempt.time_taken_ms < 60_000
    assert len(attempt.nonce) == 32


def test_review_mode_follows_the_schedule_for_a_signed_in_trainee(alice_client, scenarios):
    response = alice_client.get("/en/practice/next/?mode=review")
    assert response.status_code == 302
    assert response.url == "/en/review/"


def test_signed_in_trainee_answers_are_theirs(alice_client, trainee, scenarios):
    answer(alice_client, "t-horn-seconds", 8, {"q-seconds": "5"})
    assert Attempt.objects.get().user == trainee


# --- speed ----------------------------------------------------------------------------------


def _history(scenario, n, **who):
    Attempt.objects.bulk_create(
        Attempt(
            scenario=scenario,
            seed=i,
            question="seconds",
            answer=5,
            correct=True,
            nonce=f"h{i}",
            **who,
        )
        for i in range(n)
    )


# Counted as in production (autocommit): inside the test's wrapping transaction every atomic()
# would add two SAVEPOINT statements that a real request does not run.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("history", [0, 200])
def test_question_and_answer_take_few_queries(
    client, scenarios, django_assert_max_num_queries, history
):
    client.get(q_url("t-horn-seconds", 1))  # a visitor with a session
    visitor = client.session.get("visitor") or ""
    _history(scenarios["t-horn-seconds"], history, visitor=visitor)
    with django_assert_max_num_queries(8):
        response = client.get(q_url("t-horn-seconds", 1))
    token = token_of(response)
    with django_assert_max_num_queries(8):
        response = answer(client, "t-horn-seconds", 1, {"q-seconds": "5"}, token=token, htmx=True)
    assert response.status_code == 200


TRANSACTION_CONTROL = re.compile(r"^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b")


def data_queries(context) -> list[str]:
    """The statements that read or write data (BEGIN/COMMIT around each atomic() left out)."""
    return [q["sql"] for q in context.captured_queries if not TRANSACTION_CONTROL.match(q["sql"])]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("history", [0, 200])
def test_signed_in_answer_takes_few_queries(alice_client, trainee, scenarios, history):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _history(scenarios["t-horn-seconds"], history, user=trainee)
    with CaptureQueriesContext(connection) as page:
        response = alice_client.get(q_url("t-horn-seconds", 1))
    assert len(page) <= 8
    token = token_of(response)
    # The review schedule (umpires.review.rate) adds its own read and write per answer, and
    # SQLite logs BEGIN IMMEDIATE/COMMIT around each atomic(): count what touches data. One
    # read is whether an exam holds the account closed-book (umpires.closedbook).
    with CaptureQueriesContext(connection) as check:
        answer(alice_client, "t-horn-seconds", 1, {"q-seconds": "5"}, token=token)
    assert len(data_queries(check)) <= 9, data_queries(check)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("history", [0, 200])
def test_a_signed_in_answer_to_several_questions_takes_a_fixed_number_of_queries(
    alice_client, trainee, scenarios, history
):
    from polotrainer.umpires.models import Attempt, ScenarioProgress

    _history(scenarios["t-p4-positions"], history, user=trainee)
    response = alice_client.get(q_url("t-p4-positions", 1))
    token = token_of(response)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as check:
        response = answer(
            alice_client, "t-p4-positions", 1, {"q-who": ["B1"], "q-req": []}, token=token
        )
    assert response.status_code == 200
    # SQLite logs BEGIN IMMEDIATE/COMMIT as statements (PostgreSQL does not): count data.
    # One read is whether an exam holds the account closed-book (umpires.closedbook).
    assert len(data_queries(check)) <= 9, data_queries(check)
    assert Attempt.objects.filter(user=trainee, question__in=["who", "req"]).count() == 2
    assert ScenarioProgress.objects.filter(user=trainee).count() == 1


# --- glossary links ----------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "word"), [("it", "Arbitro"), ("en", "umpire")])
def test_glossary_terms_are_linked_in_the_situation_of_a_question(client, scenarios, lang, word):
    from scenarios.models import GlossaryTerm

    GlossaryTerm.objects.create(
        slug="umpire",
        term_it="Arbitro",
        term_en="Umpire",
        definition_it="Chi dirige la partita.",
        definition_en="Who officiates the game.",
        match_it=["Arbitro"],
        match_en=["umpire"],
    )
    scenario = scenarios["t-p4-positions"]
    scenario.save()  # a new updated_at: the cached glossary forms are read again
    html = client.get(q_url("t-p4-positions", 0, lang)).content.decode()
    assert f'href="/{lang}/glossary/#term-umpire"' in html
    assert f">{word}</a>" in html


def test_pages_go_out_compressed_to_browsers_that_accept_it(client, scenarios):
    import gzip

    response = client.get(q_url("t-safety-spot", 3), HTTP_ACCEPT_ENCODING="gzip, br")
    assert response["Content-Encoding"] == "gzip"
    assert b"t-safety-spot" in gzip.decompress(response.content)
    plain = client.get(q_url("t-safety-spot", 3))
    assert not plain.has_header("Content-Encoding")


def test_an_order_question_is_answered_by_numbering_the_steps(client, rulebook):
    from tests.content import ORDER

    scenario = make_scenario(ORDER)
    page = client.get(q_url(scenario.slug, 0)).content.decode()
    assert page.count('name="q-steps-') == 8 and "Give each step its place" in page
    right = make_variant(scenario.slug, scenario.data, 0).ruling["procedure"]
    form = {f"q-steps-{step}": str(n) for n, step in enumerate(right, start=1)}
    response = answer(client, scenario.slug, 0, form)
    assert response.status_code == 200
    assert Attempt.objects.get().correct
    form[f"q-steps-{right[0]}"] = "2"
    refused = answer(client, scenario.slug, 0, form)
    assert refused.status_code == 400
    assert b"Give each step a different place" in refused.content


def test_then_sends_next_question_back_to_a_local_path_only(client, scenarios):
    local = client.get(q_url("t-horn-seconds", 2) + "?then=/en/courses/a/7/next/")
    token = token_of(local)
    page = client.post(
        q_url("t-horn-seconds", 2) + "answer/?then=/en/courses/a/7/next/",
        {"q-seconds": "5", "token": token},
    ).content.decode()
    assert 'href="/en/courses/a/7/next/" role="button" id="next-question"' in page
    # A NUL anywhere in a request is refused for the whole site (polotrainer.middleware).
    assert client.get(q_url("t-horn-seconds", 2), {"then": "/en/\x00"}).status_code == 400
    for bad in ("https://evil.example/x", "//evil.example/x", "javascript:x"):
        page = client.get(q_url("t-horn-seconds", 2), {"then": bad}).content.decode()
        action = re.search(r'<form id="quiz"[^>]*action="([^"]+)"', page).group(1)
        assert "then" not in action


def test_the_answered_address_shows_the_feedback_again_to_the_same_person_only(client, scenarios):
    form = wrong_form(scenarios["t-safety-spot"], 9)
    response = answer(client, "t-safety-spot", 9, form, htmx=True)
    again = response["HX-Push-Url"]
    assert again.startswith("/en/practice/t-safety-spot/9/?answered=")
    assert 'id="lang-next" hx-swap-oob="true"' in response.content.decode()
    page = client.get(again).content.decode()
    assert "Not quite." in page and "The right answer:" in page
    assert '<fieldset class="questions" disabled>' in page
    assert f'value="{form["q-spot-along"]}"' in page  # the answer given, in its form
    italian = client.get(again.replace("/en/", "/it/")).content.decode()
    assert "Non proprio." in italian
    stranger = Client().get(again).content.decode()
    assert "Not quite." not in stranger and 'name="token"' in stranger
    tampered = client.get(again[:-3] + "abc").content.decode()
    assert "Not quite." not in tampered


def test_without_javascript_the_switcher_after_answering_keeps_the_feedback(client, scenarios):
    body = answer(client, "t-horn-seconds", 4, {"q-seconds": "5"}).content.decode()
    lang_next = re.search(r'name="next" value="([^"]+)" id="lang-next"', body).group(1)
    assert "answered=" in lang_next
    switched = client.post(
        "/i18n/setlang/", {"language": "it", "next": lang_next.replace("&amp;", "&")}
    )
    page = client.get(switched.url).content.decode()
    assert 'lang="it"' in page and 'id="feedback-heading"' in page


def test_a_get_of_the_answer_address_goes_back_to_the_question(client, scenarios):
    response = client.get(q_url("t-horn-seconds", 4) + "answer/?rule=21")
    assert response.status_code == 302
    assert response.url == "/en/practice/t-horn-seconds/4/?rule=21"


def test_review_mode_says_it_is_review_and_where_the_round_is(alice_client, scenarios):
    answer(alice_client, "t-horn-seconds", 4, {"q-seconds": "999"})  # wrong: due again today
    page = alice_client.get(q_url("t-horn-seconds", 5) + "?mode=review").content.decode()
    assert "Today's review: 1 of 1" in page
    italian = alice_client.get(q_url("t-horn-seconds", 6, "it") + "?mode=review").content
    assert "Ripasso di oggi: 1 di 1" in italian.decode()


def test_the_feedback_fragment_draws_only_the_feedback_field(client, scenarios):
    """The htmx answer swaps in the feedback: the question's field is not drawn for it (the
    page already shows it), only the close-up of the spots; the whole page still draws both."""
    from scenarios import diagram

    slug = "t-safety-spot"
    token = token_of(client.get(q_url(slug, 3)))
    form = right_form(scenarios[slug], 3)
    with mock.patch.object(diagram, "render", wraps=diagram.render) as drawn:
        response = answer(client, slug, 3, form, htmx=True, token=token)
    assert response.status_code == 200 and "feedback-field" in response.content.decode()
    assert [c.kwargs.get("uid") for c in drawn.call_args_list] == ["feedback-field"]
    token = token_of(client.get(q_url(slug, 4)))
    with mock.patch.object(diagram, "render", wraps=diagram.render) as drawn:
        response = answer(client, slug, 4, right_form(scenarios[slug], 4), token=token)
    assert sorted(str(c.kwargs.get("uid")) for c in drawn.call_args_list) == [
        "None",
        "feedback-field",
    ]
    assert 'data-field-tools="field"' in response.content.decode()
