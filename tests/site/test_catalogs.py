"""The Italian and English catalogs are complete: no untranslated or fuzzy entry."""

import shutil
import subprocess
from pathlib import Path

import polib
import pytest

LOCALE = Path(__file__).resolve().parents[2] / "polotrainer" / "locale"


@pytest.mark.parametrize("lang", ["it", "en"])
def test_catalog_is_complete(lang):
    catalog = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))
    assert len(catalog) > 20
    assert not [e.msgid for e in catalog.untranslated_entries()]
    assert not [e.msgid for e in catalog.fuzzy_entries()]
    assert catalog.metadata["Language"] == lang


@pytest.mark.parametrize("lang", ["it", "en"])
def test_placeholders_survive_translation(lang):
    catalog = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))
    for entry in catalog.translated_entries():
        translations = [entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values()
        wanted = sorted(_placeholders(entry.msgid_plural or entry.msgid))
        for text in translations:
            assert sorted(_placeholders(text)) == wanted, (entry.msgid, text)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="gettext's msgfmt is not installed")
@pytest.mark.parametrize("lang", ["it", "en"])
def test_catalog_compiles_cleanly(lang, tmp_path):
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    result = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", str(tmp_path / "x.mo"), str(po)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "untranslated" not in result.stderr and "fuzzy" not in result.stderr


def _placeholders(text: str) -> list[str]:
    import re

    return re.findall(r"%\([a-z_]+\)[sd]", text)


def test_no_translated_string_hides_inside_an_f_string():
    """xgettext does not read f-strings: a gettext() call inside one never reaches the catalog."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    names = {"gettext", "pgettext", "ngettext", "npgettext", "_", "gettext_lazy"}
    hidden = []
    for base in ("polotrainer", "scenarios"):
        for path in (root / base).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if not isinstance(node, ast.JoinedStr):
                    continue
                for inner in ast.walk(node):
                    if (
                        isinstance(inner, ast.Call)
                        and isinstance(inner.func, ast.Name)
                        and inner.func.id in names
                    ):
                        hidden.append(f"{path.relative_to(root)}:{inner.lineno}")
    assert hidden == []
