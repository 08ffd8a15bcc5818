"""scenarios.texts keeps each text per stamp (a scenario's), for every scenario at once."""

import pytest

from scenarios import texts
from scenarios.models import GlossaryTerm

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty(monkeypatch):
    monkeypatch.setattr(texts, "_CACHE", {})
    monkeypatch.setattr(texts, "_SAME", {}, raising=False)


def test_the_glossary_of_every_scenario_is_kept_and_read_once_each(
    django_assert_num_queries,
):
    GlossaryTerm.objects.create(slug="bump", match_it=["scontro"], match_en=["bump"])
    stamps = [f"1700000000.{n:06d}" for n in range(600)]  # more scenarios than the content has
    with django_assert_num_queries(600):
        first = [texts.glossary_terms(stamp) for stamp in stamps]
    assert all(terms is first[0] for terms in first)  # one copy, however many stamps
    with django_assert_num_queries(0):
        assert texts.glossary_terms(stamps[0]) is first[0]


def test_a_changed_glossary_under_a_new_stamp_is_read_anew():
    GlossaryTerm.objects.create(slug="bump", match_it=["scontro"], match_en=["bump"])
    before = texts.glossary_terms("1")
    GlossaryTerm.objects.create(slug="foul", match_it=["fallo"], match_en=["foul"])
    after = texts.glossary_terms("2")
    assert [t.slug for t in before] == ["bump"]
    assert sorted(t.slug for t in after) == ["bump", "foul"]
    assert texts.glossary_terms("1") is before
