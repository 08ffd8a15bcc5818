"""The editor names every fact and every choice in the instructor's language (fact_labels.toml,
vocabulary.toml), the engine's own name small after it, and sends the engine's values
unchanged."""

import re
import tomllib
from html import unescape
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from django.utils import translation

from polotrainer.authoring import editor
from polotrainer.authoring.models import Situation
from polotrainer.rules import KINDS
from scenarios.content import CONTENT_DIR
from scenarios.vocabulary import enum_label, fact_enum, fact_label, fact_labels

LANGS = ("it", "en")


def _leaves() -> list[tuple[str, str, dict]]:
    return [(kind, path, spec) for kind in KINDS for path, spec in editor.fact_leaves(kind)]


def _identifiers() -> set[str]:
    """Every name the engine gives a fact or a choice: paths, their parts, enum values."""
    found: set[str] = set()
    for _kind, path, spec in _leaves():
        found |= {path, *path.split(".")}
        found |= {str(c) for c in spec.get("choices", [])}
    return found


def _looks_like_an_identifier(text: str) -> bool:
    return text in _identifiers() or bool(re.fullmatch(r"[a-z0-9]+(?:[._][a-z0-9]+)+", text))


# --- the table ----------------------------------------------------------------------------------


def test_every_fact_of_every_kind_has_a_name_in_italian_and_english() -> None:
    missing = []
    for kind, path, _spec in _leaves():
        try:
            label = fact_label(kind, path)
        except KeyError:
            missing.append(f"{kind}: {path}")
            continue
        for lang in LANGS:
            if not label.get(lang, "").strip():
                missing.append(f"{kind}: {path} ({lang})")
    assert not missing, "fact_labels.toml does not name: " + ", ".join(missing)


def test_every_choice_of_every_enum_fact_has_a_name_in_italian_and_english() -> None:
    missing = []
    for kind, path, spec in _leaves():
        if "choices" not in spec:
            continue
        enum = fact_enum(kind, path)
        assert enum is not None, f"{kind}: {path} offers choices of no enum"
        for value in spec["choices"]:
            try:
                label = enum_label(enum, value)
            except KeyError:
                missing.append(f"{enum}.{value}")
                continue
            if not all(label.get(lang, "").strip() for lang in LANGS):
                missing.append(f"{enum}.{value}")
    assert not missing, "vocabulary.toml does not name: " + ", ".join(sorted(set(missing)))


def test_the_file_names_no_fact_the_engine_does_not_read() -> None:
    paths = {path for _kind, path, _spec in _leaves()}
    assert set(fact_labels()) == {"fact", "kind", "ruling", "player"}
    assert set(fact_labels()["fact"]) <= paths, set(fact_labels()["fact"]) - paths
    for kind, own in fact_labels()["kind"].items():
        assert kind in KINDS, kind
        assert set(own) <= {p for p, _s in editor.fact_leaves(kind)}, (kind, set(own))
    for entry in [
        *fact_labels()["fact"].values(),
        *(v for o in fact_labels()["kind"].values() for v in o.values()),
    ]:
        assert set(entry) == set(LANGS), entry


def _asked() -> set[str]:
    return {name for kind in KINDS for name, _spec in editor.askable(kind)}


def _player_keys() -> set[str]:
    return {
        key
        for _kind, _path, spec in _leaves()
        if spec["type"] == "players"
        for key in spec["fields"]
    }


def test_every_field_a_question_may_ask_has_a_name_and_no_other() -> None:
    named = fact_labels()["ruling"]
    assert set(named) == _asked(), set(named) ^ _asked()
    for name, label in named.items():
        assert set(label) == set(LANGS) and all(label[lang].strip() for lang in LANGS), name
        assert not _looks_like_an_identifier(label["it"]), name


def test_every_key_of_a_player_is_said_in_words_and_no_other() -> None:
    named = fact_labels()["player"]
    assert set(named) == _player_keys(), set(named) ^ _player_keys()
    for key, label in named.items():
        assert set(label) == set(LANGS) and all(label[lang].strip() for lang in LANGS), key


def test_a_point_reads_as_yards_along_and_across_the_field() -> None:
    assert fact_label("penalty_spot", "ball.x")["en"].startswith("Ball: yards up the field")
    assert fact_label("penalty_spot", "ball.y")["it"].startswith("Palla: yarde di traverso")


def test_one_kind_may_name_a_path_otherwise() -> None:
    """`unconscious` is a yes/no of an injured player in a stoppage, and ids in a substitution."""
    assert fact_label("stoppage", "unconscious") != fact_label("substitution", "unconscious")
    assert "(ids)" in fact_label("substitution", "unconscious")["en"]


# --- the page -----------------------------------------------------------------------------------


def _bundled() -> dict[str, dict]:
    """The first bundled scenario of each kind, as a copy makes a draft of it."""
    found: dict[str, dict] = {}
    for path in sorted((CONTENT_DIR / "scenarios").glob("*.toml")):
        with path.open("rb") as handle:
            for entry in tomllib.load(handle).get("scenario", []):
                found.setdefault(entry["kind"], {k: v for k, v in entry.items() if k != "slug"})
    return found


BUNDLED = _bundled()


def _edit_page(client, world, entry: dict, lang: str) -> tuple[Situation, str]:
    situation = Situation.objects.create(
        course=world.course_a, entry=entry, created_by=world.instructor_a
    )
    client.force_login(world.instructor_a)
    with translation.override(lang):
        url = reverse("authoring:edit", args=[situation.pk])
    page = client.get(url)
    assert page.status_code == 200
    return situation, page.content.decode()


def _tick_boxes(page: str, name: str) -> list[tuple[str, str, str]]:
    """(control, value, what it reads) of each tick-box whose name matches `name`."""
    pattern = (
        rf'<input type="checkbox" name="({name})" value="([^"]*)"[^>]*> (.*?)(?:<small|</label>)'
    )
    return [(n, v, unescape(t).strip()) for n, v, t in re.findall(pattern, page)]


def _fact_labels_on(page: str) -> dict[str, tuple[str, str]]:
    """name -> (what the label reads, the engine's name in small after it), for each fact."""
    found = {}
    labels = re.findall(r'<label for="(fact:[^"]+)">(.*?)</label>', page, re.S)
    legends = re.findall(r'<fieldset id="(fact:[^"]+)"[^>]*>\s*<legend>(.*?)</legend>', page, re.S)
    for name, inner in labels + legends:
        text, _small, engine = inner.partition('<small class="engine">')
        found[name] = (unescape(text).strip(), unescape(re.sub(r"<[^>]+>", "", engine)).strip())
    return found


def _fact_choices_on(page: str) -> list[tuple[str, str, str]]:
    """(control, value, what it reads) for every option and tick-box of a fact."""
    found = []
    for name, options in re.findall(r'<select id="(fact:[^"]+)"[^>]*>(.*?)</select>', page, re.S):
        for value, text in re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', options):
            found.append((name, value, unescape(text).partition(" · ")[0].strip()))
    return found + _tick_boxes(page, 'fact:[^"]+')


@pytest.mark.django_db
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_italian_form_names_no_fact_and_no_choice_by_its_engine_identifier(
    client, authoring, kind
):
    _situation, page = _edit_page(client, authoring, BUNDLED[kind], "it")
    labels = _fact_labels_on(page)
    assert set(labels) == {f"fact:{path}" for path, _spec in editor.fact_leaves(kind)}
    for name, (text, engine) in labels.items():
        assert text and not _looks_like_an_identifier(text), f"{name} reads {text!r}"
        assert engine == name.removeprefix("fact:")  # docs/engine.md's name, beside it
    for name, value, text in _fact_choices_on(page):
        assert text and not _looks_like_an_identifier(text), f"{name} {value} reads {text!r}"
    # The options a question offers are the ruling's values, named as the trainee reads them.
    options = _tick_boxes(page, r"q\d+-options")
    assert bool(options) == any("choices" in s for _n, s in editor.askable(kind))
    for name, value, text in options:
        assert text != value and not _looks_like_an_identifier(text), f"{name} {value}: {text!r}"


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_what_a_question_asks_reads_as_words_and_sends_the_rulings_field(client, authoring, lang):
    _situation, page = _edit_page(client, authoring, BUNDLED["penalty_spot"], lang)
    select = re.search(r'<select id="q0-ask"[^>]*>(.*?)</select>', page, re.S)
    assert select, "no select for the first question's field"
    options = dict(re.findall(r'<option value="([^"]*)"[^>]*>(.*?)</option>', select.group(1)))
    assert set(options) - {""} == {n for n, _s in editor.askable("penalty_spot")}
    spot = {
        "it": "Il punto della punizione (un punto del campo)",
        "en": "The spot of the penalty (a place on the field)",
    }[lang]
    assert unescape(options["spot"]) == f"{spot} · spot"  # the engine's name after the words
    for value, text in options.items():
        if value:
            words = unescape(text).partition(" · ")[0]
            assert words and not _looks_like_an_identifier(words), text


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_a_players_fact_says_each_key_in_the_page_language(client, authoring, lang):
    _situation, page = _edit_page(client, authoring, BUNDLED["substitution"], lang)
    words = {"it": "l&#x27;handicap in gol", "en": "the handicap in goals"}[lang]
    assert f"&quot;handicap&quot;: {words}" in page
    left_out = {"it": "(si può omettere)", "en": "(may be left out)"}[lang]
    assert "&quot;eligible&quot;: " in page and left_out in page
    assert "The players as the engine reads them (JSON)" not in page


@pytest.mark.django_db
def test_a_choice_reads_in_the_page_language_and_sends_the_engines_value(client, authoring):
    entry = BUNDLED["stoppage"]
    for lang, incident, lodged in (
        ("it", "L&#x27;episodio", "Palla incastrata · lodged_ball"),
        ("en", "The incident", "Lodged ball · lodged_ball"),
    ):
        _situation, page = _edit_page(client, authoring, entry, lang)
        assert (
            f'<label for="fact:incident">{incident} <small class="engine"><code>incident</code>'
            in page
        )
        assert f'<option value="lodged_ball">{lodged}</option>' in page
    _situation, page = _edit_page(client, authoring, BUNDLED["penalty_9"], "it")
    assert re.search(
        r'<input type="checkbox" name="fact:violations" value="red"[^>]*> Rossa '
        r'<small class="engine"><code>red</code></small>',
        page,
    )


# --- values unchanged ----------------------------------------------------------------------------


class _FormValues(HTMLParser):
    """What a browser sends for the editor's form as drawn: every named control's value."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.data: dict[str, list[str]] = {}
        self._in_form = False
        self._select: str | None = None
        self._select_values: list[str] = []
        self._selected: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "editor" in a.get("class", ""):
            self._in_form = True
        if not self._in_form or (not a.get("name") and tag != "option"):
            return
        if tag == "input" and a.get("type") == "checkbox":
            if "checked" in a:
                self.data.setdefault(a["name"], []).append(a.get("value") or "on")
        elif tag == "input":
            self.data.setdefault(a["name"], []).append(a.get("value", ""))
        elif tag == "select":
            self._select, self._select_values, self._selected = a["name"], [], None
        elif tag == "option" and self._select is not None:
            self._select_values.append(a["value"])
            if "selected" in a:
                self._selected = a["value"]
        elif tag == "textarea":
            self._textarea = a["name"]
            self.data.setdefault(a["name"], []).append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "select" and self._select is not None:
            chosen = self._selected if self._selected is not None else self._select_values[0]
            self.data.setdefault(self._select, []).append(chosen)
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self.data[self._textarea][-1] += data


@pytest.mark.django_db
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_drawn_form_sent_back_as_it_is_gives_the_same_situation(client, authoring, kind):
    """Labels change what a control reads, never what it sends: the Italian page's values,
    saved untouched, are the situation the form was drawn from."""
    entry = BUNDLED[kind]
    situation, page = _edit_page(client, authoring, entry, "it")
    parser = _FormValues()
    parser.feed(page)
    sent = {k: v for k, v in parser.data.items() if k != "csrfmiddlewaretoken"}
    assert any(k.startswith("fact:") for k in sent)
    response = client.post(
        reverse("authoring:edit", args=[situation.pk]), {**sent, "action": "save"}
    )
    assert response.status_code == 302
    situation.refresh_from_db()
    expected, errors = editor.from_data(kind, editor.to_data(entry))
    assert not errors
    assert situation.entry["facts"] == expected["facts"] == entry["facts"]
    # The question's tick-boxes are drawn in a sorted order (as before labels): compare sets.
    assert _options_as_sets(situation.entry) == _options_as_sets(expected)


def _options_as_sets(entry: dict) -> dict:
    questions = [{**q, "options": set(q.get("options", []))} for q in entry["question"]]
    return {**entry, "question": questions}
