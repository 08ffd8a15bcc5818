"""Shared upward: an authored situation exports as a content-file entry that `content load`
takes and rules the same way on every sampled seed; staff promote one to the whole site, the
same scenario row, so the answers already given to it stay; nobody else may do either."""

import copy
import tomllib

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.html import strip_tags

from polotrainer.authoring import publishing
from polotrainer.authoring.models import Situation, Version
from polotrainer.umpires.models import Attempt, ScenarioProgress
from scenarios import audience, quiz
from scenarios.content import CONTENT_DIR, SAMPLE_SEEDS, read_content
from scenarios.loading import load
from scenarios.models import Scenario
from tests.authoring.conftest import draft, good_entry
from tests.content import bundled

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def draft_of(slug: str) -> dict:
    """A real scenario of scenarios/content, as a draft (without its slug)."""
    return {k: v for k, v in bundled(slug).items() if k not in {"slug", "case"}}


def published(w, entry=None) -> Version:
    return publishing.publish(draft(w, entry), w.instructor_a)


def export_url(situation) -> str:
    return reverse("authoring:export", args=[situation.pk])


def promote_url(situation) -> str:
    return reverse("authoring:promote", args=[situation.pk])


def rulings(scenario: Scenario) -> list:
    """What the quiz core poses on each sampled seed (its values and facts) and the engine
    rules, and the situation as the trainee reads it in both languages."""
    found = []
    for seed in SAMPLE_SEEDS:
        posed = {lang: quiz.pose(scenario, seed, lang) for lang in ("it", "en")}
        variant = posed["en"].variant
        texts = {lang: strip_tags(p.situation) for lang, p in posed.items()}
        found.append((seed, dict(variant.values), dict(variant.facts), dict(variant.ruling), texts))
    return found


def answered(w, scenario: Scenario) -> Attempt:
    ScenarioProgress.objects.create(
        user=w.trainee_a, scenario=scenario, card={"state": 2}, due=scenario.updated_at
    )
    return Attempt.objects.create(
        user=w.trainee_a,
        scenario=scenario,
        seed=0,
        question="spot",
        answer=[0, 0],
        right_answer=[0, 0],
        correct=True,
        content_version=scenario.version,
        nonce="answered-before",
    )


def write_export(tmp_path, text: str) -> None:
    """Beside the rules (the rulebook fixture links them into tmp_path), as a reviewer would."""
    folder = tmp_path / "scenarios"
    folder.mkdir(exist_ok=True)
    (folder / "shared.toml").write_text(text, "utf-8")


# --- export ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "source", ["good", "p2-thirty-yard-line-spot", "contrast-horse-played-again"]
)
def test_an_export_loads_into_a_fresh_database_and_rules_the_same_on_40_seeds(
    client, authoring, tmp_path, source
):
    w = authoring
    version = published(w, good_entry() if source == "good" else draft_of(source))
    authored = version.scenario
    client.force_login(w.instructor_a)
    response = client.get(export_url(version.situation))
    assert response["Content-Type"] == "application/toml; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{authored.slug}.toml"'
    text = response.content.decode()
    assert text.startswith("# Written in the browser by the course")
    write_export(tmp_path, text)
    content = read_content(tmp_path, complete=False)
    assert content.problems == []
    [entry] = content.scenarios
    assert {k: v for k, v in entry.items() if k != "source_file"} == authored.data
    expected = rulings(authored)
    # A fresh database: nothing of the course's scenario is left, only the file's entry.
    Version.objects.all().delete()
    authored.delete()
    report = load(content)
    assert report.created == 1
    loaded = Scenario.objects.get(slug=authored.slug)
    assert not loaded.authored and loaded.source_file.endswith("scenarios/shared.toml")
    assert loaded.data == authored.data and loaded.version == authored.version
    assert rulings(loaded) == expected
    assert len(expected) == len(SAMPLE_SEEDS) == 40


def test_manage_py_content_load_takes_it_beside_the_bundled_files(client, authoring, tmp_path):
    """What a reviewer does: the export added to scenarios/content/scenarios/, then
    `manage.py content load` of the whole folder (one seed each: the 40 are the test above)."""
    import shutil
    from io import StringIO

    from django.core.management import call_command

    w = authoring
    version = published(w)
    authored = version.scenario
    client.force_login(w.instructor_a)
    text = client.get(export_url(version.situation)).content.decode()
    root = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, root)
    (root / "scenarios" / "shared.toml").write_text(text, "utf-8")
    expected = rulings(authored)
    Version.objects.all().delete()
    authored.delete()
    out = StringIO()
    call_command("content", "load", "--dir", str(root), "--seeds", "1", stdout=out)
    assert "loaded:" in out.getvalue()
    loaded = Scenario.objects.get(slug=authored.slug)
    assert loaded.source_file.endswith("scenarios/shared.toml") and not loaded.authored
    assert rulings(loaded) == expected


def test_a_draft_never_published_exports_under_its_first_versions_slug(client, authoring, tmp_path):
    w = authoring
    situation = draft(w)
    client.force_login(w.instructor_a)
    response = client.get(export_url(situation))
    text = response.content.decode()
    assert "a draft, never published" in text
    write_export(tmp_path, text)
    [entry] = read_content(tmp_path, complete=False).scenarios
    assert entry["slug"] == publishing.slug_for(situation, 1)
    assert entry["title"] == situation.entry["title"]


@pytest.mark.parametrize("role", ["instructor_b", "trainee_a", "trainee_b"])
def test_an_export_of_another_courses_situation_is_404(client, authoring, role):
    w = authoring
    version = published(w)
    client.force_login(getattr(w, role))
    response = client.get(export_url(version.situation))
    assert response.status_code == 404
    assert "Safety" not in response.content.decode()


def test_staff_export_any_courses_situation(client, authoring):
    w = authoring
    version = published(w)
    client.force_login(w.staff)
    text = client.get(export_url(version.situation)).content.decode()
    assert tomllib.loads(text)["scenario"] == [version.scenario.data]


@pytest.mark.parametrize(("lang", "label"), [("en", "Export (TOML)"), ("it", "Esporta (TOML)")])
def test_the_situations_page_links_to_its_export_in_both_languages(client, authoring, lang, label):
    w = authoring
    situation = draft(w)
    client.force_login(w.instructor_a)
    with translation.override(lang):
        page = client.get(reverse("authoring:edit", args=[situation.pk])).content.decode()
        assert f'<a href="{export_url(situation)}" download>{label}</a>' in page


# --- promote --------------------------------------------------------------------------------------


def test_staff_promote_it_and_everyone_meets_it_with_its_answers_kept(client, authoring, tmp_path):
    w = authoring
    version = published(w)
    scenario = version.scenario
    attempt = answered(w, scenario)
    assert not audience.sees(w.trainee_b.pk, scenario)
    client.force_login(w.staff)
    confirm = client.get(promote_url(version.situation)).content.decode()
    assert "Promote to the whole site?" in confirm and "Promote it</button>" in confirm
    assert Scenario.objects.get(pk=scenario.pk).authored  # asking changes nothing
    response = client.post(promote_url(version.situation))
    assert response["Location"] == reverse("authoring:every")
    [message] = get_messages(response.wsgi_request)
    assert "is site content now" in str(message)
    scenario.refresh_from_db()
    # The same row: its answer, its review card and its slug are where they were.
    assert (scenario.authored, scenario.retired, scenario.promoted) == (False, False, True)
    assert Attempt.objects.get(pk=attempt.pk).scenario_id == scenario.pk
    assert ScenarioProgress.objects.get(user=w.trainee_a).scenario_id == scenario.pk
    assert scenario in Scenario.objects.live()
    assert audience.sees(w.trainee_b.pk, scenario) and audience.sees(None, scenario)
    # A trainee of another course, and a visitor, practise it now like any bundled one.
    bob = Client()
    bob.force_login(w.trainee_b)
    question = reverse("practice:question", args=[scenario.slug, 3])
    assert bob.get(question).status_code == 200
    # `content load` without it in the files keeps it (it is in no file yet)...
    assert load(read_content(tmp_path, complete=False)).retired >= 1  # the bundled test one
    scenario.refresh_from_db()
    assert not scenario.retired
    # ...and with its export in the files, updates the same row: bundled, in a file now.
    client.force_login(w.instructor_a)
    write_export(tmp_path, client.get(export_url(version.situation)).content.decode())
    report = load(read_content(tmp_path, complete=False))
    assert (report.created, report.updated) == (0, 1)
    scenario.refresh_from_db()
    assert scenario.source_file.endswith("scenarios/shared.toml")
    assert not scenario.retired and not scenario.promoted
    assert Attempt.objects.get(pk=attempt.pk).scenario_id == scenario.pk
    # Bundled from a file now, it is still no longer the course's to publish.
    assert publishing.is_promoted(version.situation)
    with pytest.raises(publishing.ShareError):
        publishing.publish(version.situation, w.instructor_a)


def test_the_course_copy_of_a_promoted_situation_is_retired(client, authoring):
    w = authoring
    version = published(w)
    publishing.promote(version.situation)
    situation = Situation.objects.get(pk=version.situation_id)
    situation.entry["title"]["en"] = "Edited after promotion"
    situation.save()
    with pytest.raises(publishing.ShareError) as refused:
        publishing.publish(situation, w.instructor_a)
    assert refused.value.code == publishing.ShareCode.PROMOTED
    client.force_login(w.instructor_a)
    edit = reverse("authoring:edit", args=[situation.pk])
    page = client.get(edit).content.decode()
    assert "was promoted to the whole site" in page
    assert 'value="publish"' not in page
    from tests.authoring.conftest import form_of

    response = client.post(edit, {**form_of(situation.entry), "action": "publish"})
    assert response.status_code == 302
    [message] = get_messages(response.wsgi_request)
    assert "no longer published from here" in str(message)
    assert Version.objects.filter(situation=situation).count() == 1
    version.scenario.refresh_from_db()
    assert version.scenario.title_en != "Edited after promotion"
    assert not version.scenario.retired


@pytest.mark.parametrize("role", ["instructor_a", "instructor_b", "trainee_a", "trainee_b"])
def test_only_staff_promote(client, authoring, role):
    w = authoring
    version = published(w)
    client.force_login(getattr(w, role))
    assert client.get(promote_url(version.situation)).status_code == 404
    assert client.post(promote_url(version.situation)).status_code == 404
    assert client.get(reverse("authoring:every")).status_code == 404
    version.scenario.refresh_from_db()
    assert version.scenario.authored and not version.scenario.promoted


def test_a_promotion_without_its_csrf_token_is_refused(authoring):
    w = authoring
    version = published(w)
    staff = Client(enforce_csrf_checks=True)
    staff.force_login(w.staff)
    assert staff.post(promote_url(version.situation)).status_code == 403
    version.scenario.refresh_from_db()
    assert version.scenario.authored


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Publish it to the course first"), ("it", "Pubblicala prima nel corso")],
)
def test_an_unpublished_situation_cannot_be_promoted(client, authoring, lang, words):
    w = authoring
    situation = draft(w)
    client.force_login(w.staff)
    with translation.override(lang):
        confirm = client.get(promote_url(situation)).content.decode()
        assert words in confirm and "csrfmiddlewaretoken" not in confirm.split("<main")[-1]
        response = client.post(promote_url(situation))
        [message] = get_messages(response.wsgi_request)
        assert words in str(message)
    assert not Scenario.objects.filter(authored=False, source_file__startswith="promoted").exists()


def test_promoting_twice_says_so_and_changes_nothing(client, authoring):
    w = authoring
    version = published(w)
    publishing.promote(version.situation)
    version.scenario.refresh_from_db()
    before = (version.scenario.source_file, version.scenario.updated_at)
    client.force_login(w.staff)
    response = client.post(promote_url(version.situation))
    [message] = get_messages(response.wsgi_request)
    assert "It was promoted to the whole site" in str(message)
    version.scenario.refresh_from_db()
    assert (version.scenario.source_file, version.scenario.updated_at) == before


def test_staff_list_every_courses_situation_with_export_and_promote(client, authoring):
    w = authoring
    mine = published(w)
    entry = copy.deepcopy(good_entry())
    entry["title"] = {"it": "Di Ivan", "en": "Ivan's own"}
    theirs = Situation.objects.create(course=w.course_b, entry=entry)
    client.force_login(w.staff)
    page = client.get(reverse("authoring:every")).content.decode()
    assert "Ivan&#x27;s own" in page or "Ivan's own" in page
    assert export_url(theirs) in page and export_url(mine.situation) in page
    assert promote_url(mine.situation) in page
    assert promote_url(theirs) not in page  # never published: nothing to promote
    home = client.get(reverse("courses:mine")).content.decode()
    assert reverse("authoring:every") in home
