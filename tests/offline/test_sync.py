"""Packs and sync: a pack holds what grading needs; the outbox is graded again and recorded once."""

import json
import uuid
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from polotrainer.offline import packs, sync
from polotrainer.offline.models import Pack, SyncedEntry
from polotrainer.umpires import closedbook
from polotrainer.umpires.models import Attempt, DayActivity, ScenarioProgress
from polotrainer.umpires.progress import Person
from scenarios import quiz
from scenarios.models import Scenario
from scenarios.variants import EXAM_SEEDS

pytestmark = pytest.mark.django_db


def right_form(variant):
    """The form values of the right answer to every question, as the page would send them."""
    form = {}
    for key in variant["key"]:
        if key["type"] == "order":
            for option, place in zip(key["options"], key["right"], strict=True):
                form[f"{key['name']}-{option}"] = [place]
        elif key["type"] == "place":
            form[f"{key['name']}-along"] = [key["right"][0]]
            form[f"{key['name']}-across"] = [key["right"][1]]
        else:
            form[key["name"]] = list(key["right"])
    return form


def entry(variant, at_ms, form=None, **extra):
    return {
        "id": str(uuid.uuid4()),
        "token": variant["token"],
        "answers": right_form(variant) if form is None else form,
        "right": {k["id"]: k["right"] for k in variant["key"]},
        "at": at_ms,
        "lang": "en",
        **extra,
    }


def ms(when):
    return int(when.timestamp() * 1000)


@pytest.fixture
def pack(scenarios, trainee):
    made = timezone.now() - timedelta(hours=1)
    return packs.build(Person(user_id=trainee.pk), packs.PackScope("rule", "37"), now=made)


def test_a_pack_holds_every_live_scenario_of_the_rule_in_both_languages(pack, scenarios):
    row, body = pack
    expected = set(Scenario.objects.live().filter(rule_id=37).values_list("slug", flat=True))
    assert {v["slug"] for v in body["variants"]} == expected
    assert body["count"] == len(expected) == len(row.variants)
    for variant in body["variants"]:
        assert set(variant["lang"]) == {"it", "en"}
        assert variant["seed"] not in EXAM_SEEDS and variant["seed"] > 0
        for lang, shown in variant["lang"].items():
            assert "data-offline-quiz" in shown["question"]
            assert set(shown["items"]) == {k["id"] for k in variant["key"]}
            assert set(shown["verdict"]) == {str(n) for n in range(len(variant["key"]) + 1)}
            assert f"/{lang}/rules/section/" in shown["why"]


def test_the_pack_right_answer_is_the_engines(pack):
    _row, body = pack
    for variant in body["variants"]:
        scenario = Scenario.objects.get(slug=variant["slug"])
        posed = quiz.pose(scenario, variant["seed"], "en")
        for key, q in zip(variant["key"], posed.questions, strict=True):
            right = q.source.right_answer(posed.variant.ruling)
            assert key["right"] == list(quiz.form_values(posed, q, right))


def test_a_choice_has_a_fragment_per_option_saying_right_or_wrong(pack):
    _row, body = pack
    found = 0
    for variant in body["variants"]:
        for key in variant["key"]:
            if key["type"] != "choice":
                continue
            options = variant["lang"]["en"]["items"][key["id"]]["options"]
            assert set(options) == set(key["options"])
            for value, html in options.items():
                assert ('class="right"' in html) == (value == key["right"][0])
            found += 1
    assert found


def test_the_what_if_a_pack_holds_is_the_engines_for_each_value_it_offers(pack):
    """Each value the box offers (the one asked, then a few others) has the practice page's own
    result, ruled on the server: the same rows and reasons as the online what-if."""
    _row, body = pack
    boxes = 0
    for variant in body["variants"]:
        scenario = Scenario.objects.get(slug=variant["slug"])
        for lang, shown in variant["lang"].items():
            held = shown["whatif"]
            posed = quiz.pose(scenario, variant["seed"], lang)
            controls = {c.param.name: c for c in quiz.what_if_controls(posed)}
            if not held:
                assert all(not packs.what_if_values(c.param, c.value) for c in controls.values())
                continue
            boxes += 1
            assert set(held["results"]) <= set(controls)
            for name, results in held["results"].items():
                control = controls[name]
                offered = packs.what_if_values(control.param, control.value)
                assert list(results) == [str(v) for v in offered]
                assert 0 < len(offered) <= packs.WHATIF_VALUES
                assert f'data-param="{name}"' in held["box"]
                for v in [control.value, *offered]:  # each named as the online what-if names it
                    label = control.param.label_of(v, lang).replace("'", "&#x27;")
                    assert f'<option value="{v}"' in held["box"] and label in held["box"]
                for value, html in results.items():
                    with translation.override(lang):
                        try:
                            online = quiz.what_if(posed, name, value)
                        except quiz.VariantError:
                            assert str(quiz.WHAT_IF_REFUSED) in html
                            continue
                    for r in online.reasons:
                        assert f"/{lang}/rules/section/" in html and r.ref in html
                    for row in online.rows:
                        assert row.changed.replace("'", "&#x27;") in html
    assert boxes  # rule 37's situations vary their facts


def test_sync_records_right_answers_at_their_time_once(pack, trainee):
    _row, body = pack
    when = timezone.now() - timedelta(minutes=1)
    entries = [entry(v, ms(when)) for v in body["variants"]]
    outcomes = sync.sync(Person(user_id=trainee.pk), entries)
    assert all(o.recorded for o in outcomes)
    assert all(o.right == o.total for o in outcomes)
    attempts = Attempt.objects.filter(user=trainee)
    assert attempts.count() == sum(len(v["key"]) for v in body["variants"])
    assert all(a.correct for a in attempts)
    assert {abs((a.created_at - when).total_seconds()) < 0.01 for a in attempts} == {True}
    assert ScenarioProgress.objects.filter(user=trainee, card__isnull=False).count() == len(entries)
    assert DayActivity.objects.get(user=trainee).answers == attempts.count()
    again = sync.sync(Person(user_id=trainee.pk), entries)
    assert {o.reason for o in again} == {sync.Refusal.ALREADY_RECORDED}
    assert Attempt.objects.filter(user=trainee).count() == attempts.count()


def test_the_client_grading_is_not_trusted(pack, trainee):
    _row, body = pack
    variant = next(v for v in body["variants"] if v["key"][0]["type"] == "choice")
    key = variant["key"][0]
    wrong = next(o for o in key["options"] if o != key["right"][0])
    form = right_form(variant)
    form[key["name"]] = [wrong]
    sent = entry(variant, ms(timezone.now()), form=form, correct=True)
    (outcome,) = sync.sync(Person(user_id=trainee.pk), [sent])
    assert outcome.recorded and outcome.right < outcome.total
    assert not Attempt.objects.get(user=trainee, question=key["id"]).correct


def test_bad_entries_are_refused_one_by_one_and_the_rest_recorded(pack, trainee, other_trainee):
    _row, body = pack
    v = body["variants"]
    now = timezone.now()
    good = entry(v[0], ms(now))
    altered = entry(v[1], ms(now))
    first_key = v[1]["key"][0]["id"]
    altered["right"] = {**altered["right"], first_key: ["something else"]}
    forged = entry(v[2], ms(now), token=packs.sign(999999, 0, v[2]["slug"], 123, v[2]["version"]))
    unsigned = entry(v[2], ms(now), token=v[2]["token"] + "x")
    future = entry(v[0], ms(now + timedelta(hours=2)))
    before = entry(v[1], ms(now - timedelta(days=2)))
    garbage = {"id": "not-a-uuid"}
    not_an_answer = entry(v[0], ms(now), form={})
    outcomes = sync.sync(
        Person(user_id=trainee.pk),
        [good, altered, forged, unsigned, future, before, garbage, not_an_answer],
    )
    assert [o.reason for o in outcomes] == [
        "",
        "altered",
        "unknown_variant",
        "unknown_variant",
        "future",
        "before_pack",
        "malformed",
        "invalid_answer",
    ]
    assert outcomes[0].recorded
    assert SyncedEntry.objects.count() == 1
    # Someone else's pack is not theirs to sync.
    (theirs,) = sync.sync(Person(user_id=other_trainee.pk), [entry(v[1], ms(now))])
    assert theirs.reason == "not_yours"
    for code in sync.Refusal:
        assert str(sync.MESSAGES[code])


def test_a_pack_older_than_a_content_change_still_syncs(pack, trainee):
    _row, body = pack
    variant = body["variants"][0]
    scenario = Scenario.objects.get(slug=variant["slug"])
    scenario.data = {**scenario.data, "explanation": {"it": "Cambiata.", "en": "Changed."}}
    scenario.save()
    assert scenario.version != variant["version"]
    (outcome,) = sync.sync(Person(user_id=trainee.pk), [entry(variant, ms(timezone.now()))])
    assert outcome.recorded and outcome.right == outcome.total
    assert set(Attempt.objects.values_list("content_version", flat=True)) == {variant["version"]}


def test_late_answers_take_their_place_in_the_review_schedule(scenarios, trainee):
    person = Person(user_id=trainee.pk)
    scope = packs.PackScope("section", "37.6")
    _r1, first = packs.build(person, scope, now=timezone.now() - timedelta(days=3))
    _r2, second = packs.build(person, scope, now=timezone.now() - timedelta(days=3))
    old, new = first["variants"][0], second["variants"][0]
    late = timezone.now() - timedelta(days=2)
    early = timezone.now() - timedelta(days=1)
    # The later answer arrives first, the earlier one a day after: the card is the one of the
    # answers replayed in the order given, not in the order received.
    sync.sync(person, [entry(new, ms(early))])
    sync.sync(person, [entry(old, ms(late))])
    merged = ScenarioProgress.objects.get(user=trainee)
    ScenarioProgress.objects.all().delete()
    Attempt.objects.all().delete()
    SyncedEntry.objects.all().delete()
    sync.sync(person, [entry(old, ms(late)), entry(new, ms(early))])
    in_order = ScenarioProgress.objects.get(user=trainee)
    # (FSRS fuzzes the due date at random; everything else of the card must be the same.)
    assert {**merged.card, "due": None} == {**in_order.card, "due": None}
    assert merged.card["last_review"] == in_order.card["last_review"]
    assert merged.answers == 2 * len(old["key"])


def test_a_visitor_can_download_and_sync_and_the_account_adopts_it(client, scenarios, trainee):
    response = client.get(reverse("offline:pack") + "?section=37.6")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] >= 1 and body["size"] > 0
    csrf = client.get(reverse("offline:sync")).json()["csrf"]
    sent = client.post(
        reverse("offline:sync"),
        json.dumps({"entries": [entry(body["variants"][0], ms(timezone.now()))]}),
        content_type="application/json",
        headers={"X-CSRFToken": csrf},
    )
    assert sent.json()["recorded"] == 1
    assert Attempt.objects.filter(user=None).exclude(visitor="").exists()
    # A visitor's pack may be synced by the account they sign in with.
    (outcome,) = sync.sync(
        Person(user_id=trainee.pk), [entry(body["variants"][0], ms(timezone.now()))]
    )
    assert outcome.recorded


def test_no_pack_and_no_sync_while_a_closed_book_exam_holds_the_account(
    alice_client, scenarios, trainee
):
    pack_url = reverse("offline:pack") + "?rule=37"
    _row, body = packs.build(Person(user_id=trainee.pk), packs.PackScope("rule", "37"))
    closedbook.hold(
        trainee.pk,
        1,
        timezone.now() + timedelta(hours=1),
        titles={"it": "E", "en": "E"},
        time_zone="Europe/Rome",
    )
    refused = alice_client.get(pack_url)
    assert refused.status_code == 403 and refused.json()["error"] == "closed_book"
    state = alice_client.get(reverse("offline:sync")).json()
    assert state["held_until"] and state["signed_in"]
    kept = alice_client.post(
        reverse("offline:sync"),
        json.dumps({"entries": [entry(body["variants"][0], ms(timezone.now()))]}),
        content_type="application/json",
        headers={"X-CSRFToken": state["csrf"]},
    )
    assert kept.status_code == 423
    assert not Attempt.objects.exists()
    closedbook.release([1])
    assert alice_client.get(pack_url).status_code == 200


def test_a_bad_scope_and_a_bad_body_get_a_message(client, scenarios):
    bad = client.get(reverse("offline:pack"))
    assert bad.status_code == 400 and bad.json()["message"]
    csrf = client.get(reverse("offline:sync")).json()["csrf"]
    junk = client.post(
        reverse("offline:sync"),
        "nope",
        content_type="application/json",
        headers={"X-CSRFToken": csrf},
    )
    assert junk.status_code == 400 and junk.json()["error"] == "malformed"


def test_the_pack_row_keeps_the_variant_as_ruled(pack):
    row, body = pack
    row = Pack.objects.get(pk=row.pk)
    for kept, shown in zip(row.variants, body["variants"], strict=True):
        assert (kept["slug"], kept["seed"]) == (shown["slug"], shown["seed"])
        assert kept["ruling"]


def test_no_pack_from_a_closed_book_exams_opening_until_no_attempt_is_left(
    alice_client, scenarios, trainee
):
    """A pack stored before the attempt would carry the rulings into the exam room: packs stop
    when a closed-book exam of the trainee's cohort opens, and come back once the trainee has no
    attempt left, or the exam closes; an open-book exam, or another cohort's, stops nothing."""
    from polotrainer.courses.exams.models import ExamAttempt
    from tests.people import enrol, make_cohort, make_course, make_exam, person

    pack_url = reverse("offline:pack") + "?rule=37"
    teacher = person("ines", instructor=True)
    cohort = make_cohort(make_course(teacher))
    other = make_exam(make_cohort(make_course(teacher), name="Other"), [], closed_book=True)
    open_book = make_exam(cohort, [], closed_book=False)
    assert alice_client.get(pack_url).status_code == 200  # not a member: neither exam is hers
    enrol(cohort, trainee)
    assert alice_client.get(pack_url).status_code == 200  # a member, the exam open-book
    exam = make_exam(cohort, [], closed_book=True, attempts_allowed=1)
    refused = alice_client.get(pack_url)
    assert refused.status_code == 403 and refused.json()["error"] == "closed_book"
    with translation.override("en"):
        english = alice_client.get(reverse("offline:pack") + "?rule=37").json()["message"]
    with translation.override("it"):
        italian = alice_client.get(reverse("offline:pack") + "?rule=37").json()["message"]
    assert "open to you" in english and "aperto per te" in italian
    # Her only attempt done: nothing left to protect.
    ExamAttempt.objects.create(
        exam=exam,
        user=trainee,
        number=1,
        started_at=timezone.now() - timedelta(minutes=40),
        deadline=timezone.now() - timedelta(minutes=10),
        finished_at=timezone.now() - timedelta(minutes=10),
    )
    assert alice_client.get(pack_url).status_code == 200
    # Another closed-book exam, open: refused until it closes.
    later = make_exam(cohort, [], closed_book=True)
    assert alice_client.get(pack_url).status_code == 403
    later.closes_at = timezone.now() - timedelta(minutes=1)
    later.save(update_fields=["closes_at"])
    assert alice_client.get(pack_url).status_code == 200
    assert other.pk and open_book.pk
