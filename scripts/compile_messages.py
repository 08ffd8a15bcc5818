"""Compile the translation catalogs without Django settings or GNU gettext (`make messages`).

The same as `manage.py compilemessages` (polotrainer/catalogs.py), for when no configuration
is at hand. Only catalogs newer than their .mo are compiled, so a second run costs nothing.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from polotrainer.catalogs import compile_catalogs  # noqa: E402

for mo in compile_catalogs():
    print(f"compiled {mo.relative_to(ROOT)}")
