"""The scenario tests' own fixture: a content folder to write scenarios into. The small rulebook
of one scenario per question kind is tests/content.py (fixtures `rulebook`, `scenarios`)."""

import shutil
from pathlib import Path

import pytest

from scenarios.content import CONTENT_DIR


@pytest.fixture
def content_root(tmp_path: Path) -> Path:
    """A content folder with the bundled rules and glossary and no scenario yet."""
    root = tmp_path / "content"
    (root / "scenarios").mkdir(parents=True)
    shutil.copytree(CONTENT_DIR / "rules", root / "rules")
    shutil.copy(CONTENT_DIR / "glossary.toml", root / "glossary.toml")
    return root
