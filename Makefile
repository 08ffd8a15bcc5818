# polotrainer: `make run` serves the app on SQLite with the demo loaded; `make test` checks
# everything.
# Both create or update .venv first and are quick the second time.

PYTHON ?= $(shell for p in python3.14 python3.13 python3.12 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null \
	&& echo $$p && break; done)
VENV := .venv
PY := $(VENV)/bin/python
DEV := DEBUG=1

.PHONY: run lan test test-fast screenshots check lint messages makemessages content bench clean

$(PY):
	@test -n "$(PYTHON)" || { echo "polotrainer needs Python 3.12 or newer (python3.12 on PATH)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.run: requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	@touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $@ $(VENV)/.run

messages: $(VENV)/.run
	@$(PY) scripts/compile_messages.py

# `make run` keeps its demo in a database file of its own (demo.sqlite3, unless DATABASE_URL is
# set), so `make lan` and production, on db.sqlite3 or PostgreSQL, never meet a demo account.
RUN_DB = DATABASE_URL=$${DATABASE_URL:-sqlite:///$(CURDIR)/demo.sqlite3}

run: $(VENV)/.run messages
	$(DEV) $(RUN_DB) $(PY) manage.py migrate --noinput
	$(DEV) $(RUN_DB) $(PY) manage.py content load
	$(DEV) $(RUN_DB) $(PY) manage.py demo --address http://127.0.0.1:8000/
	@# The production server (scripts/serve.py), not runserver: the clinics' live event streams
	@# need ASGI. One process, restarted when a file changes.
	$(DEV) $(RUN_DB) BIND=127.0.0.1:8000 $(PY) scripts/serve.py --reload

# A clinic at a club: the LAN profile on this laptop's address (scripts/serve_lan.py, README).
lan: $(VENV)/.run
	$(PY) scripts/serve_lan.py

lint: $(VENV)/.dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(DEV) $(PY) -m mypy --strict polotrainer scenarios

# The suite runs in parallel workers (pytest-xdist), one per core: `make test WORKERS=0` runs it
# in one process. A worker takes whole files (--dist loadfile), so a module's browser, served
# site and bundled content are made once; each worker has its own test database (suffix _gwN).
# The files go in the suite's order, the longest first (tests/conftest.py SLOWEST_FIRST).
WORKERS ?= auto
XDIST = -n $(WORKERS) --dist loadfile --no-loadscope-reorder

# The engine's own tests must cover every line and branch of it (coverage.py, one process,
# ~20 s); the rest of the suite runs without coverage, which would make it 1.6x slower.
test: $(VENV)/.dev messages lint
	$(PY) -m pytest tests/rules -q --cov=polotrainer/rules --cov-branch --cov-report=
	$(PY) -m coverage report --include='polotrainer/rules/*' --show-missing --fail-under=100
	$(PY) -m pytest $(XDIST) --ignore=tests/rules --durations=15

# The edit loop: everything but the browser tests and the fuzzing (tests/site/test_fuzz*.py,
# 60% of the rest's time), no lint: ~4 minutes on 2 cores. `make test` runs them all.
test-fast: $(VENV)/.dev messages
	$(PY) -m pytest $(XDIST) --ignore=tests/browser --ignore-glob='tests/site/test_fuzz*.py' -q

# The browser tests with their screenshots (artifacts/screenshots/), to look at every page as
# its users see it; the suite itself does not take them (tests/browser/support.py SHOOTING).
screenshots: $(VENV)/.dev messages
	SCREENSHOTS=1 $(PY) -m pytest $(XDIST) tests/browser -q

check: test

# Refresh both catalogs from the code; English entries are filled with their msgid.
makemessages: $(VENV)/.dev
	$(DEV) $(PY) manage.py makemessages -l it -l en --ignore=.venv --ignore=staticfiles --no-obsolete
	$(PY) scripts/fill_english.py

content: $(VENV)/.run
	$(DEV) $(PY) manage.py content check

bench: $(VENV)/.dev
	$(PY) benchmarks/engine.py

clean:
	rm -rf $(VENV) staticfiles artifacts .coverage
