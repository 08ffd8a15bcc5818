"""Start-up configuration: clear one-line errors, never a traceback."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DATABASE_URL", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_missing_secret_key_in_production_is_one_line_naming_the_variable():
    result = run_manage("check", DEBUG="0", ALLOWED_HOSTS="example.org")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_malformed_database_url_is_one_line_naming_the_variable():
    result = run_manage("check", DEBUG="1", DATABASE_URL="nosuchdb://what")
    assert result.returncode != 0
    assert "DATABASE_URL" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_bad_boolean_names_the_variable():
    result = run_manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG" in result.stderr
    assert "Traceback" not in result.stderr


def test_manage_py_without_any_configuration_runs_as_development():
    result = run_manage("check")
    assert result.returncode == 0, result.stderr


def test_the_wsgi_entry_point_never_falls_back_to_development():
    base = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    result = subprocess.run(
        [sys.executable, "-c", "import polotrainer.wsgi"],
        cwd=ROOT,
        env={**base, "ALLOWED_HOSTS": "example.org"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr and "Traceback" not in result.stderr


def test_development_fallback_only_with_debug():
    result = run_manage("check", DEBUG="1")
    assert result.returncode == 0, result.stderr


def test_debug_is_off_unless_asked(settings):
    assert settings.DEBUG is False


def test_sqlite_runs_in_wal_with_immediate_transactions(settings, db):
    from django.db import connection

    if connection.vendor != "sqlite":
        return
    options = settings.DATABASES["default"]["OPTIONS"]
    assert options["transaction_mode"] == "IMMEDIATE"
    assert options["timeout"] >= 5
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        mode = cursor.fetchone()[0]
    # The test database lives in memory, where SQLite reports "memory"; on disk it is WAL.
    assert mode in {"wal", "memory"}


def test_static_files_are_compressed_and_hashed_in_production():
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings;"
            " print(settings.STORAGES['staticfiles']['BACKEND'])",
        ],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k != "STATIC_MANIFEST"},
            "DJANGO_SETTINGS_MODULE": "polotrainer.settings",
            "DEBUG": "0",
            "SECRET_KEY": "x",
            "ALLOWED_HOSTS": "example.org",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.stdout.strip() == "whitenoise.storage.CompressedManifestStaticFilesStorage"
