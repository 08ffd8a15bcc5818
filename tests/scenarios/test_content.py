"""Content files: checks that stop a bad load, loads that lose nothing, variants that replay."""

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from scenarios import expressions
from scenarios.content import ContentError, read_content
from scenarios.loading import load
from scenarios.models import Scenario, Section
from scenarios.variants import VariantError, make_variant
from tests.scenarios.test_content_checks import GOOD


@pytest.fixture
def content_dir(content_root: Path) -> Path:
    (content_root / "scenarios" / "spots.toml").write_text(GOOD, encoding="utf-8")
    return content_root


def read(root: Path):
    return read_content(root, sample=range(10), complete=False)


def broken(root: Path, old: str, new: str) -> None:
    path = root / "scenarios" / "spots.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('situation.it = "Sei', 'situation.xx = "Sei', "situation.it"),
        ('cites = ["37.6"]', 'cites = ["37.6", "21.z"]', "cites"),
        ('ask = "spot"', 'ask = "colour"', "question spot.ask"),
        ("{crossing_abs|yarda|yarde}", "{distance|yarda|yarde}", "situation.it"),
        ('section = "37.6"', 'section = "37.99"', "section"),
        ("default = 30", "default = 300", "params.crossing_abs"),
        ('label = { it = "lato", ', "label = { ", "params.side.label.it"),
        ('"crossing_abs if', "\"__import__('os') if", "derived.crossing_y"),
        ("{crossing_abs|yarda|yarde}", "{crossing_abs|yarda|yarde", "situation.it"),
        ("{crossing_abs|yarda|yarde}", "{crossing_abs|yarda}", "situation.it"),
    ],
)
def test_a_bad_scenario_names_file_scenario_and_field(content_dir, old, new, field):
    broken(content_dir, old, new)
    with pytest.raises(ContentError) as excinfo:
        read(content_dir)
    assert excinfo.value.file.endswith("spots.toml")
    assert excinfo.value.entry == "scenario safety-spot"
    assert excinfo.value.field == field


def test_a_duplicated_slug_is_refused(content_dir):
    (content_dir / "scenarios" / "again.toml").write_text(GOOD, encoding="utf-8")
    with pytest.raises(ContentError) as excinfo:
        read(content_dir)
    assert excinfo.value.field == "slug"
    assert "duplicated" in str(excinfo.value)


def test_real_content_requires_every_worked_example_covered(content_dir):
    with pytest.raises(ContentError) as excinfo:
        read_content(content_dir, sample=range(2))
    assert excinfo.value.field == "case"
    assert "3.b.ex1" in str(excinfo.value)


@pytest.mark.django_db
def test_a_failed_load_leaves_the_database_exactly_as_it_was(content_dir):
    load(read(content_dir))
    before = list(Scenario.objects.values_list("slug", "data", "retired"))
    broken(content_dir, 'situation.en = "You', 'situation.fr = "You')
    with pytest.raises(CommandError) as excinfo:
        call_command("content", "load", "--dir", str(content_dir))
    assert "spots.toml" in str(excinfo.value) and "situation.en" in str(excinfo.value)
    assert list(Scenario.objects.values_list("slug", "data", "retired")) == before


@pytest.mark.django_db
def test_reloading_upserts_and_retires_instead_of_deleting(content_dir):
    load(read(content_dir))
    assert Section.objects.count() == 38
    scenario = Scenario.objects.get(slug="safety-spot")
    (content_dir / "scenarios" / "spots.toml").write_text(
        GOOD.replace('"safety-spot"', '"safety-spot-2"'), encoding="utf-8"
    )
    report = load(read(content_dir))
    assert (report.created, report.retired) == (1, 1)
    scenario.refresh_from_db()
    assert scenario.retired
    assert list(Scenario.objects.live().values_list("slug", flat=True)) == ["safety-spot-2"]


def test_seed_zero_is_the_rulebooks_own_numbers(content_dir):
    entry = read(content_dir).scenarios[0]
    variant = make_variant("safety-spot", entry, 0)
    assert variant.values["crossing_abs"] == 30
    assert variant.facts["crossing_y"] == 30
    assert variant.render(entry["situation"], "it").endswith(
        " 30 yarde a sinistra del centro della porta."
    )


def test_the_same_slug_and_seed_give_the_same_variant_forever(content_dir):
    entry = read(content_dir).scenarios[0]
    first = [make_variant("safety-spot", entry, seed).facts for seed in range(1, 30)]
    again = [make_variant("safety-spot", entry, seed).facts for seed in range(1, 30)]
    assert first == again
    assert len({f["crossing_y"] for f in first}) > 5


def test_a_seed_out_of_range_is_refused(content_dir):
    entry = read(content_dir).scenarios[0]
    with pytest.raises(VariantError):
        make_variant("safety-spot", entry, -1)


def test_variants_render_choice_labels_in_each_language(content_dir):
    entry = read(content_dir).scenarios[0]
    variant = next(
        v
        for v in (make_variant("safety-spot", entry, s) for s in range(1, 50))
        if v.values["side"] == "right"
    )
    assert "to the right" in variant.render(entry["situation"], "en")
    assert "a destra" in variant.render(entry["situation"], "it")


@pytest.mark.parametrize(
    "source", ["__import__('os')", "x.real", "[1, 2]", "lambda: 1", "open('f')", "x[0]"]
)
def test_expressions_refuse_anything_but_arithmetic(source):
    with pytest.raises(expressions.ExpressionError):
        expressions.evaluate(source, {"x": 1})


def test_expressions_compute_what_scenarios_need():
    values = {"a": 5, "b": 4, "side": "left"}
    assert expressions.evaluate("a + b <= 9 and side == 'left'", values) is True
    assert expressions.evaluate("max(a, b) - min(a, b) if a > b else 0", values) == 1
    assert expressions.evaluate("-abs(b - a)", values) == -1


def _reversed_keys(node):
    """The same data with every object's keys in reverse order (as jsonb may return them)."""
    if isinstance(node, dict):
        return {k: _reversed_keys(node[k]) for k in reversed(list(node))}
    if isinstance(node, list):
        return [_reversed_keys(item) for item in node]
    return node


def test_a_variant_does_not_depend_on_the_order_a_database_keeps_keys_in(content_dir):
    entry = read(content_dir).scenarios[0]
    entry["derived"] = {"far": "crossing_abs > 40", **entry["derived"]}  # reads nothing derived
    entry["derived"]["label"] = "crossing_y if far else 0"  # reads two derived values
    shuffled = _reversed_keys(entry)
    for seed in range(0, 30):
        assert make_variant("s", entry, seed).facts == make_variant("s", shuffled, seed).facts
        assert make_variant("s", entry, seed).values == make_variant("s", shuffled, seed).values


def test_derived_values_that_read_each_other_in_a_circle_are_refused(content_dir):
    entry = read(content_dir).scenarios[0]
    entry["derived"] = {"c": "d + 1", "d": "c + 1"}  # (b is a parameter)
    with pytest.raises(VariantError):
        make_variant("s", entry, 0)
