"""The dashboard as a validator and a reader see it: valid HTML, landmarks named once, records in
words (section numbers as printed, questions' prompts, variants' titles), counts in agreement.

html5lib builds the tree a browser builds (the WHATWG parsing algorithm, implied end tags and
all) and, in strict mode, fails on any parse error: a hand-made parser would have to redo those
rules to say what is inside a <figure>.
"""

import re
from datetime import timedelta

import html5lib
import pytest
from django.utils.translation import override

from scenarios.models import Scenario, Section
from tests.people import answer, days_ago

pytestmark = pytest.mark.django_db

# HTML's valid date, time, and global/local date-and-time strings (fractions of a second: 1-3
# digits; the offset with or without its colon).
_DATE = r"\d{4,}-\d{2}-\d{2}"
_TIME = r"\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?"
VALID_DATETIME = re.compile(rf"{_DATE}|{_TIME}|{_DATE}[T ]{_TIME}(Z|[+-]\d{{2}}:?\d{{2}})?")

# Elements that are landmarks without a role attribute; a <section> only once it has a name.
IMPLICIT_ROLES = {
    "main": "main",
    "nav": "navigation",
    "aside": "complementary",
    "section": "region",
}


def parse(html: str):
    """The document a browser builds from the page; any HTML parse error fails the test."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=False).parse(html)


def text_of(element) -> str:
    return re.sub(r"\s+", " ", "".join(element.itertext())).strip()


def accessible_name(element, by_id) -> str:
    if element.get("aria-labelledby"):
        return " ".join(text_of(by_id[i]) for i in element.get("aria-labelledby").split())
    return element.get("aria-label", "")


def landmarks(document) -> list[tuple[str, str]]:
    by_id = {e.get("id"): e for e in document.iter() if e.get("id")}
    found = []
    for element in document.iter():
        role = element.get("role") or IMPLICIT_ROLES.get(element.tag)
        name = accessible_name(element, by_id)
        if role in {"main", "navigation", "complementary"} or (role == "region" and name):
            found.append((role, name))
    return found


@pytest.fixture
def history(trainee, rulebook):
    """A fortnight of answers, to a section the rulebook does not number and to a situation
    whose title and question carry a variant's numbers."""
    rule = rulebook["3b"].rule
    summary = Section.objects.create(
        ref="3.summary", rule=rule, position=9, title_it="In sintesi", title_en="Summary"
    )
    numbered = Scenario.objects.create(
        slug="safety-out",
        rule=rule,
        section=summary,
        kind="penalty_spot",
        title_it="Safety a {y} yarde",
        title_en="Safety {y} yards out",
        source_file="tests",
        data={
            "kind": "penalty_spot",
            "facts": {"penalty": "6", "crossing_y": "{y}"},
            "params": {"y": {"type": "int", "min": 10, "max": 70, "step": 5, "default": 60}},
            "title": {"it": "Safety a {y} yarde", "en": "Safety {y} yards out"},
            "question": [
                {
                    "id": "spot",
                    "ask": "spot",
                    "prompt": {"it": "Dove si batte?", "en": "Where is it taken?"},
                }
            ],
        },
    )
    for n in range(12):
        # Timestamps as the database keeps them, to the microsecond.
        when = days_ago(n) + timedelta(microseconds=123456)
        answer(trainee, rulebook["3b"], correct=n % 3 != 0, when=when)
    answer(trainee, numbered, seed=5, correct=True, when=days_ago(0, hour=8), question="spot")
    return trainee


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_dashboard_is_valid_html(alice_client, history, lang):
    document = parse(alice_client.get(f"/{lang}/me/").content.decode())
    times = [t.get("datetime") for t in document.iter("time")]
    assert len(times) >= 13  # every history row, the charts' ranges and tables
    assert [t for t in times if not VALID_DATETIME.fullmatch(t)] == []
    for figure in document.iter("figure"):
        children = [child.tag for child in figure]
        captions = [i for i, tag in enumerate(children) if tag == "figcaption"]
        # A figure's caption is its first or its last child, and there is at most one.
        assert captions in ([], [0], [len(children) - 1]), children


@pytest.mark.parametrize("lang", ["it", "en"])
def test_each_landmark_of_the_dashboard_has_a_name_of_its_own(alice_client, history, lang):
    found = landmarks(parse(alice_client.get(f"/{lang}/me/").content.decode()))
    assert ("region", "History") in found or ("region", "Cronologia") in found
    assert len(found) == len(set(found)), found


@pytest.mark.parametrize(
    ("lang", "title", "prompt", "section"),
    [
        ("en", "Safety 20 yards out", "Where is it taken?", '<span class="ref">3</span> Summary'),
        ("it", "Safety a 20 yarde", "Dove si batte?", '<span class="ref">3</span> In sintesi'),
    ],
)
def test_the_history_reads_in_words(alice_client, history, lang, title, prompt, section):
    html = alice_client.get(f"/{lang}/me/").content.decode()
    assert f'href="/{lang}/practice/safety-out/5/">{title}</a>' in html
    assert f"<td>{prompt}</td>" in html
    assert section in html
    assert "3.summary</span>" not in html and "{y}" not in html


def test_a_question_no_longer_in_the_content_shows_its_id(alice_client, trainee, rulebook):
    answer(trainee, rulebook["3b"])  # the factory's data has no questions
    assert "<td>ruling</td>" in alice_client.get("/en/me/").content.decode()


@pytest.mark.parametrize(
    ("lang", "right", "words"),
    [
        ("it", 1, ["2", "risposte date", "1 giusta"]),
        ("it", 2, ["2", "risposte date", "2 giuste"]),
        ("en", 1, ["2", "answers given", "1 right"]),
    ],
)
def test_totals_agree_with_their_numbers(alice_client, trainee, rulebook, lang, right, words):
    for n in range(2):
        answer(trainee, rulebook["3b"], correct=n < right, when=days_ago(n))
    document = parse(alice_client.get(f"/{lang}/me/").content.decode())
    stats = [text_of(a) for a in document.iter("article")]
    assert any(all(w in s for w in words) for s in stats), stats


def test_chart_summaries_agree_with_their_numbers(alice_client, trainee, rulebook):
    answer(trainee, rulebook["3b"], correct=True, when=days_ago(0))
    with override("it"):
        html = alice_client.get("/it/me/").content.decode()
    assert "1 risposta (1 giusta) in 1 giorno." in html
    assert "1 risposta, 1 giusta." in html
