"""An instructor writes a situation, checks it, previews it, publishes it to her cohorts; her
trainee practises it; a trainee of another course never meets it anywhere."""

import copy
import re
from html import escape

import pytest
from django.urls import reverse
from django.utils import translation

from polotrainer.authoring import checking, publishing
from polotrainer.authoring.models import Situation, Version
from polotrainer.umpires.models import Attempt, ScenarioProgress
from scenarios import audience
from scenarios.content import ContentError, read_content
from scenarios.loading import load
from scenarios.models import Scenario
from tests.authoring.conftest import draft, form_of, good_entry
from tests.content import bundled

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    """Messages and URLs in English, whatever an earlier test left active."""
    with translation.override("en"):
        yield


def edit_url(situation):
    return reverse("authoring:edit", args=[situation.pk])


def errors_of(page) -> str:
    """The text of every error list on the page, joined."""
    return " ".join(re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', page, re.S))


def field_errors(page: str, name: str) -> str:
    found = re.search(
        rf'<ul class="errorlist" id="{re.escape(name)}-errors">(.*?)</ul>', page, re.S
    )
    return found.group(1) if found else ""


# --- write ---------------------------------------------------------------------------------------


def test_a_copy_of_a_bundled_scenario_opens_in_a_form_of_the_engines_facts(client, authoring):
    client.force_login(authoring.instructor_a)
    response = client.post(
        reverse("authoring:new", args=[authoring.course_a.pk]), {"copy": "t-safety-spot"}
    )
    situation = Situation.objects.get()
    assert response["Location"] == edit_url(situation)
    assert situation.course == authoring.course_a
    assert situation.entry["facts"] == authoring.bundled.data["facts"]
    page = client.get(edit_url(situation)).content.decode()
    # The penalty is a choice of the engine's values, the field's width a number, the crossing
    # varies with a derived value, as the file says.
    penalty = re.search(r'<select id="fact:penalty" name="fact:penalty">(.*?)</select>', page, re.S)
    assert penalty is not None
    assert re.findall(r'value="([^"]*)"', penalty.group(1)) == [
        "",
        "1",
        "2",
        "3",
        "4",
        "5a",
        "5b",
        "6",
    ]
    assert '<option value="6" selected>' in penalty.group(1)
    assert re.search(r'id="fact:field.width" name="fact:field.width" type="number"', page)
    assert 'name="vary:crossing_y" type="text" value="crossing_y"' in page
    assert 'name="fact:foul_spot.x" type="number"' in page


def test_saving_keeps_what_was_typed(client, authoring):
    situation = draft(authoring)
    client.force_login(authoring.instructor_a)
    post = form_of(situation.entry, title_it="La Safety di domenica", action="save")
    response = client.post(edit_url(situation), post)
    assert response.status_code == 302
    situation.refresh_from_db()
    assert situation.entry["title"] == {
        "it": "La Safety di domenica",
        "en": "Safety: where it is taken",
    }
    assert situation.entry["facts"] == good_entry()["facts"]
    assert situation.entry["params"] == good_entry()["params"]


def test_what_cannot_be_read_is_named_and_nothing_is_saved(client, authoring):
    situation = draft(authoring)
    before = copy.deepcopy(situation.entry)
    client.force_login(authoring.instructor_a)
    post = form_of(situation.entry, **{"fact:field.width": "wide", "vary:crossing_y": "nowhere"})
    post["action"] = "publish"
    page = client.post(edit_url(situation), post)
    assert page.status_code == 400
    text = page.content.decode()
    assert "Enter a number" in field_errors(text, "fact:field.width")
    assert "“nowhere” is not a parameter" in field_errors(text, "fact:crossing_y")
    assert 'value="wide"' in text  # what was typed is shown again
    situation.refresh_from_db()
    assert situation.entry == before
    assert not Version.objects.exists()


# --- check -------------------------------------------------------------------------------------


def test_a_fair_situation_passes_every_check_on_40_seeds(authoring):
    report = checking.check(good_entry(), "own-1-v1")
    assert report.passed, dict(report.errors)
    assert report.seeds == 40
    assert report.counts["facts"][0] == 40
    assert report.counts["leak"][0] == 1


def _failing(entry, name):
    report = checking.check(entry, "own-1-v1")
    assert not report.passed
    return " ".join(report.errors.get(name, [])), report


def test_facts_the_engine_refuses_are_named_by_its_error_code(authoring):
    entry = good_entry()
    entry["facts"]["field"]["width"] = -5  # the engine: OutOfRange
    message, _report = _failing(entry, "fact:field.width")
    assert "Out of the range the engine allows" in message


def test_a_text_missing_a_language(authoring):
    entry = good_entry()
    entry["title"]["en"] = ""
    message, _report = _failing(entry, "title_en")
    assert "Write this text in Italian and in English" in message


def test_a_placeholder_that_is_not_a_varying_fact(authoring):
    entry = good_entry()
    entry["situation"]["it"] += " {vento}"
    message, _report = _failing(entry, "situation_it")
    assert "{vento} is not a varying fact" in message


def test_a_placeholder_in_a_fixed_text(authoring):
    entry = good_entry()
    entry["title"]["en"] = "Safety to the {side}"
    message, _report = _failing(entry, "title_en")
    assert "A placeholder is left" in message


def test_options_without_the_right_answer(authoring):
    entry = good_entry()
    entry["question"].append(
        {
            "id": "taken",
            "ask": "taken_as",
            "prompt": {"it": "Quale?", "en": "Which?"},
            "options": ["1", "2"],
        }
    )
    message, _report = _failing(entry, "q2-options")
    assert "must offer the engine's answer" in message
    assert "['6'] is not offered" in message


def test_the_two_languages_carry_different_numbers(authoring):
    entry = good_entry()
    entry["situation"]["en"] += " It is the 3rd period."
    report = checking.check(entry, "own-1-v1")
    assert any("different numbers" in m for ms in report.errors.values() for m in ms)


def test_a_number_and_its_noun_disagree(authoring):
    entry = good_entry()
    entry["situation"]["en"] = entry["situation"]["en"].replace(
        "{crossing_abs|yard|yards}", "{crossing_abs} yard"
    )
    message, _report = _failing(entry, "situation_en")
    assert "A number and its noun disagree" in message


def test_a_word_spelled_unlike_the_content(authoring):
    entry = good_entry()
    entry["explanation"] = {"it": "Nessun time-out.", "en": "No time-out."}
    message, _report = _failing(entry, "explanation_en")
    assert "spelled unlike" in message


def test_the_diagram_marks_the_answer(authoring):
    entry = good_entry()
    # Seed 0 crosses 60 yards to the left: the Safety is taken 60 yards out, level with it.
    entry["facts"]["ball"] = {"x": -90, "y": 41}
    entry["params"]["crossing_abs"]["default"] = 40
    message, _report = _failing(entry, "fact:ball.x")
    assert "diagram draws a mark on the right spot" in message


def _bundled(slug: str) -> dict:
    """A bundled scenario's entry as a copy makes a draft of it."""
    return {k: v for k, v in bundled(slug).items() if k != "slug"}


def test_an_order_question_with_nothing_to_order(authoring):
    """A horse or a player falls: the engine rules a stop and a restart, no procedure to put in
    order. A question asking for the steps is refused at its "what it asks"."""
    entry = _bundled("contrast-player-falls-or-horse-falls")
    entry["question"].append(
        {
            "id": "steps",
            "ask": "procedure",
            "prompt": {"it": "Metti in ordine i passi.", "en": "Put the steps in order."},
        }
    )
    where = f"q{len(entry['question']) - 1}-ask"
    message, _report = _failing(entry, where)
    assert "An order question needs two or more steps" in message
    assert "nothing to order" in message  # the check's own detail, with the seed
    good = _bundled("contrast-player-falls-or-horse-falls")
    assert checking.check(good, "own-1-v1").passed


def test_messages_are_in_the_instructors_language(client, authoring):
    situation = draft(authoring)
    client.force_login(authoring.instructor_a)
    post = form_of(situation.entry, title_en="", action="check")
    page = client.post(reverse("authoring:edit", args=[situation.pk]).replace("/en/", "/it/"), post)
    text = page.content.decode()
    assert "Scrivi questo testo in italiano e in inglese" in field_errors(text, "title_en")
    assert not Version.objects.exists()


# --- preview -----------------------------------------------------------------------------------


def test_the_preview_shows_variants_in_both_languages_with_diagram_and_feedback(client, authoring):
    situation = draft(authoring)
    client.force_login(authoring.instructor_a)
    page = client.get(reverse("authoring:preview", args=[situation.pk])).content.decode()
    assert page.count('<article class="preview-variant"') == 6
    assert 'lang="it"' in page and 'lang="en"' in page
    assert "60 yards to the left" in page and "60 yarde a sinistra" in page  # seed 0
    assert page.count("<svg") >= 6
    assert "Right answer:" in page
    assert '<ol class="reasons"><li>' in page
    assert not Scenario.objects.filter(authored=True).exists()  # nothing stored


# --- publish, practise, absence ------------------------------------------------------------------


def _publish(client, world, situation):
    client.force_login(world.instructor_a)
    response = client.post(edit_url(situation), {**form_of(situation.entry), "action": "publish"})
    assert response.status_code == 302, errors_of(response.content.decode())
    client.logout()
    return Version.objects.filter(situation=situation).order_by("-number").first()


def test_a_failing_draft_is_not_published(client, authoring):
    entry = good_entry()
    entry["situation"]["en"] += " {vento}"
    situation = draft(authoring, entry)
    client.force_login(authoring.instructor_a)
    page = client.post(edit_url(situation), {**form_of(entry), "action": "publish"})
    assert "nothing was published" in page.content.decode()
    assert not Version.objects.exists()
    assert not Scenario.objects.filter(authored=True).exists()


def test_published_the_cohort_practises_it_and_nobody_else_meets_it(client, authoring):
    w = authoring
    version = _publish(client, w, draft(w))
    scenario = version.scenario
    assert scenario.authored and scenario.slug == f"own-{version.situation_id}-v1"
    question = reverse("practice:question", args=[scenario.slug, 3])
    # Alice, of course A's cohort, practises it and it enters her review.
    client.force_login(w.trainee_a)
    page = client.get(question)
    assert page.status_code == 200
    assert "Safety: where it is taken" in page.content.decode()
    assert scenario.pk in Scenario.objects.live_for(w.trainee_a.pk).values_list("pk", flat=True)
    seen = set()
    for _ in range(30):
        location = client.get(reverse("practice:next") + "?section=37.6")["Location"]
        seen.add(location.split("/")[3])
    assert scenario.slug in seen
    answer = client.post(
        reverse("practice:answer", args=[scenario.slug, 3]),
        {
            "token": re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1),
            "q-spot-along": "60",
            "q-spot-across": "0",
            "q-goal": "false",
        },
    )
    assert answer.status_code == 200
    assert Attempt.objects.filter(user=w.trainee_a, scenario=scenario).count() == 2
    assert ScenarioProgress.objects.get(user=w.trainee_a, scenario=scenario).due is not None
    # Bob, of course B, and Ivan, its instructor, never meet it.
    for outsider in (w.trainee_b, w.instructor_b):
        client.force_login(outsider)
        assert client.get(question).status_code == 404
        assert (
            client.post(reverse("practice:answer", args=[scenario.slug, 3]), {}).status_code == 404
        )
        assert client.get(reverse("practice:whatif", args=[scenario.slug, 3])).status_code == 404
        assert scenario.pk not in Scenario.objects.live_for(outsider.pk).values_list(
            "pk", flat=True
        )
        for _ in range(20):
            location = client.get(reverse("practice:next") + "?section=37.6")["Location"]
            assert scenario.slug not in location
        assert (
            "Safety: where it is taken"
            not in client.get(
                reverse("authoring:situations", args=[w.course_a.pk])
            ).content.decode()
        )
    client.logout()
    assert client.get(question).status_code == 404  # a visitor
    # Listings that never ask for whom show only the bundled scenarios.
    assert scenario not in Scenario.objects.live()
    assert not audience.sees(None, scenario)


def test_an_edit_after_answers_makes_a_new_version_and_answers_keep_theirs(client, authoring):
    w = authoring
    situation = draft(w)
    first = _publish(client, w, situation)
    # Before anyone answered, publishing an edit updates version 1 in place.
    situation.entry["title"]["en"] = "Sunday's Safety"
    situation.save()
    assert _publish(client, w, situation).pk == first.pk
    first.scenario.refresh_from_db()
    assert first.scenario.title_en == "Sunday's Safety"
    Attempt.objects.create(
        user=w.trainee_a,
        scenario=first.scenario,
        seed=0,
        question="goal",
        answer=False,
        right_answer=False,
        correct=True,
        content_version=first.scenario.version,
        nonce="n1",
    )
    card = {"state": 2, "stability": 3.5}
    due = first.scenario.updated_at
    ScenarioProgress.objects.create(user=w.trainee_a, scenario=first.scenario, card=card, due=due)
    situation.entry["title"]["en"] = "Sunday's Safety, again"
    situation.save()
    second = _publish(client, w, situation)
    carried = ScenarioProgress.objects.get(user=w.trainee_a, scenario=second.scenario)
    assert (carried.card, carried.due, carried.answers) == (card, due, 0)
    assert second.number == 2 and second.scenario.slug.endswith("-v2")
    first.scenario.refresh_from_db()
    assert first.scenario.retired and first.scenario.title_en == "Sunday's Safety"
    attempt = Attempt.objects.get(nonce="n1")
    assert attempt.scenario == first.scenario and attempt.content_version == first.scenario.version
    assert list(Scenario.objects.live_for(w.trainee_a.pk).filter(authored=True)) == [
        second.scenario
    ]


def test_content_load_never_overwrites_or_retires_an_authored_scenario(client, authoring, tmp_path):
    w = authoring
    version = _publish(client, w, draft(w))
    # tmp_path holds the rules only (the rulebook fixture): the files hold no scenario.
    report = load(read_content(tmp_path, complete=False))
    version.scenario.refresh_from_db()
    assert not version.scenario.retired
    assert report.retired >= 1  # the bundled test scenario left the files: retired, as before
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    entry = {**good_entry(), "slug": version.scenario.slug}
    (scenarios / "x.toml").write_text(_toml(entry))
    with pytest.raises(ContentError, match="wrote a scenario with this slug"):
        load(read_content(tmp_path, complete=False, sample=range(1)))
    version.scenario.refresh_from_db()
    assert version.scenario.data["title"] == good_entry()["title"]


def _toml(entry) -> str:
    import json

    def value(v):
        return json.dumps(v, ensure_ascii=False)

    def table(d):
        return "{ " + ", ".join(f"{k} = {inline(v)}" for k, v in d.items()) + " }"

    def inline(v):
        if isinstance(v, dict):
            return table(v)
        if isinstance(v, list):
            return "[" + ", ".join(inline(i) for i in v) + "]"
        return "true" if v is True else "false" if v is False else value(v)

    lines = ["[[scenario]]"]
    for k, v in entry.items():
        if k != "question":
            lines.append(f"{k} = {inline(v)}")
    for q in entry["question"]:
        lines.append("[[scenario.question]]")
        lines += [f"{k} = {inline(v)}" for k, v in q.items()]
    return "\n".join(lines) + "\n"


def test_publishing_needs_the_check_too(authoring):
    entry = good_entry()
    entry["title"]["en"] = ""
    situation = draft(authoring, entry)
    with pytest.raises(publishing.NotPublished):
        publishing.publish(situation, authoring.instructor_a)


def test_an_answer_that_depends_on_an_unstated_fact(authoring):
    """A Penalty 2's spot depends on the fouled team's choice, left to the engine's default."""
    entry = good_entry()
    entry["facts"] = {"penalty": "2", "foul_spot": {"x": -50, "y": "{crossing_y}"}}
    entry["question"] = entry["question"][:1]
    message, _report = _failing(entry, "fact:p2_choice")
    assert "depends on this fact, which is left to the engine's default" in message


def test_a_wording_that_predicts_the_answer(authoring):
    """A choice parameter no fact reads, tied to the side the ball crossed: the word gives the
    spot away."""
    entry = good_entry()
    entry["params"]["crossing_abs"] |= {"min": 60, "max": 60, "default": 60}
    entry["params"]["wind"] = {
        "type": "choice",
        "values": ["left", "right"],
        "default": "left",
        "label": {"it": "vento", "en": "wind"},
        "labels": {
            "left": {"it": "da sinistra", "en": "from the left"},
            "right": {"it": "da destra", "en": "from the right"},
        },
    }
    entry["constraints"] = ["wind == side"]
    entry["situation"] = {
        k: v + " Vento {wind}." if k == "it" else v + " Wind {wind}."
        for k, v in entry["situation"].items()
    }
    message, _report = _failing(entry, "q0-id")
    assert "predicts the answer" in message


def test_her_assignment_picker_offers_it_and_only_her_cohort_is_asked_it(client, authoring):
    from datetime import timedelta

    from django.utils import timezone

    from polotrainer.courses.models import Assignment, Membership

    w = authoring
    scenario = _publish(client, w, draft(w)).scenario
    box = f'name="scenarios" value="{scenario.pk}"'
    client.force_login(w.instructor_a)
    page = client.get(reverse("courses:assignment_new", args=[w.cohort_a.pk])).content.decode()
    assert box in page
    due = (timezone.localdate() + timedelta(days=3)).isoformat()
    response = client.post(
        reverse("courses:assignment_new", args=[w.cohort_a.pk]),
        {"scope": "scenarios", "scenarios": [scenario.pk], "questions": 2, "due_on": due},
    )
    assert response.status_code == 302
    assignment = Assignment.objects.get(cohort=w.cohort_a, scope="scenarios")
    assert list(assignment.scenarios.all()) == [scenario]
    client.force_login(w.instructor_b)
    page = client.get(reverse("courses:assignment_new", args=[w.cohort_b.pk])).content.decode()
    assert box not in page
    client.force_login(w.trainee_a)
    location = client.get(reverse("courses:assignment_next", args=[assignment.pk]))["Location"]
    assert f"/practice/{scenario.slug}/" in location
    # Were Bob ever put in the assignment's way, he would not be asked it.
    from polotrainer.courses import assignments

    bob = Membership(cohort=w.cohort_a, user=w.trainee_b, joined_at=timezone.now())
    assert assignments.next_scenario(assignment, bob) is None


def _exam_form(chosen: list[int]) -> dict:
    return {
        "title_it": "Esame del circolo",
        "title_en": "Club exam",
        "pass_preset": "95",
        "time_limit_minutes": "20",
        "opens_at": "2030-03-01T09:00",
        "closes_at": "2030-03-01T18:00",
        "attempts_allowed": "2",
        "cooldown_hours": "0",
        "review_after_submit": "1",
        "review_after_close": "2",
        "chosen": [str(pk) for pk in chosen],
        "chosen_count": str(len(chosen)),
    }


def test_her_exam_blueprint_takes_it_frozen_per_attempt_and_no_other_course_can(
    client, authoring, time_machine
):
    from polotrainer.courses.exams.models import Exam, ExamAttempt

    w = authoring
    scenario = _publish(client, w, draft(w)).scenario
    box = f'name="chosen" value="{scenario.pk}"'  # its tick-box among the chosen situations
    client.force_login(w.instructor_b)
    url_b = reverse("courses:exam_new", args=[w.cohort_b.pk])
    assert box not in client.get(url_b).content.decode()
    refused = client.post(url_b, _exam_form([scenario.pk]))
    assert refused.status_code == 400 and not Exam.objects.exists()
    client.force_login(w.instructor_a)
    url = reverse("courses:exam_new", args=[w.cohort_a.pk])
    assert box in client.get(url).content.decode()
    response = client.post(url, _exam_form([scenario.pk]))
    assert response.status_code == 302, response.context["form"].errors
    exam = Exam.objects.get(cohort=w.cohort_a)
    assert exam.blueprint[0]["scenarios"] == [scenario.pk]
    time_machine.move_to("2030-03-01T10:00+01:00", tick=False)
    client.force_login(w.trainee_a)
    assert client.post(reverse("courses:exam_start", args=[exam.pk])).status_code == 302
    slot = ExamAttempt.objects.get(exam=exam).slots.get()
    assert slot.scenario_id == scenario.pk
    frozen = (slot.facts, slot.ruling)
    # A new version published after the attempt began leaves the slot as it was drawn.
    situation = Situation.objects.get(versions__scenario=scenario)
    situation.entry["facts"]["field"]["width"] = 150
    situation.save(update_fields=["entry"])
    _publish(client, w, situation)
    slot.refresh_from_db()
    assert (slot.facts, slot.ruling) == frozen
    client.force_login(w.trainee_a)
    page = client.get(reverse("courses:exam_attempt", args=[slot.attempt_id]), follow=True)
    assert page.status_code == 200
    prompt = situation.entry["question"][0]["prompt"]["en"]
    assert escape(prompt) in page.content.decode()  # her question, posed in the exam


def test_her_clinic_runs_it_as_a_round_and_another_instructor_cannot(client, authoring):
    from polotrainer.clinics.models import ClinicSession, Round

    w = authoring
    scenario = _publish(client, w, draft(w)).scenario
    box = f'name="scenarios" value="{scenario.pk}"'
    data = {"title": "Clinica", "source": "scenarios", "scenarios": [scenario.pk], "rounds": 3}
    client.force_login(w.instructor_b)
    assert box not in client.get(reverse("clinics:new")).content.decode()
    assert client.post(reverse("clinics:new"), data).status_code == 400
    assert not ClinicSession.objects.exists()
    client.force_login(w.instructor_a)
    assert box in client.get(reverse("clinics:new")).content.decode()
    response = client.post(reverse("clinics:new"), data)
    assert response.status_code == 302
    session = ClinicSession.objects.get(instructor=w.instructor_a)
    assert list(Round.objects.filter(session=session).values_list("scenario_id", flat=True)) == [
        scenario.pk
    ]


def test_the_home_pages_count_and_the_review_count_it_for_its_audience_only(client, authoring):
    from django.utils import timezone

    from polotrainer.umpires import review

    w = authoring
    scenario = _publish(client, w, draft(w)).scenario

    def rule_37_count(user):
        client.force_login(user)
        page = client.get(reverse("home")).content.decode()
        found = re.search(r"\?rule=37\">[^<]*</a>\s*<small>(\d+) situation", page)
        return int(found.group(1)) if found else None

    bundled = Scenario.objects.live().filter(rule_id=37).count()
    assert rule_37_count(w.trainee_b) == bundled
    assert rule_37_count(w.trainee_a) == bundled + 1
    # A review card of it (were Bob ever to have one) is never due for him.
    for user in (w.trainee_a, w.trainee_b):
        ScenarioProgress.objects.create(user=user, scenario=scenario, due=timezone.now())
    assert review.due_count(w.trainee_a) == 1
    assert review.due_count(w.trainee_b) == 0
    assert review.next_review(w.trainee_b).slug is None


@pytest.mark.parametrize(
    "breaking",
    [
        lambda e: e["situation"].update(en=e["situation"]["en"] + " {vento}"),
        lambda e: e["facts"].update(penalty="77"),
        lambda e: e.update(derived={"crossing_y": "crossing_abs +"}),
        lambda e: e.update(section="99.z"),
        lambda e: e.pop("title"),
    ],
    ids=["placeholder", "engine", "expression", "section", "no-title"],
)
def test_the_preview_of_a_broken_draft_says_so(client, authoring, breaking):
    entry = good_entry()
    breaking(entry)
    situation = draft(authoring, entry)
    client.force_login(authoring.instructor_a)
    page = client.get(reverse("authoring:preview", args=[situation.pk]))
    assert page.status_code == 200
    assert "cannot be shown yet" in page.content.decode()


def test_every_content_check_has_a_sentence_for_the_instructor():
    """A check added to `content check` (the drills' scene check came this way) is told in
    words next to its field, never a KeyError."""
    from scenarios import content

    assert set(content.CHECKS) <= set(checking.CHECK_SENTENCES)
