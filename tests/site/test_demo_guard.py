"""A database holding the demo's accounts is never served: the command needs DEBUG, and with
DEBUG off every way of starting the site refuses such a database."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core import checks
from django.core.management import CommandError, call_command

from polotrainer import demo
from tests.servers import migrated_sqlite

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


@pytest.mark.django_db
@pytest.mark.parametrize("args", [(), ("--reset",), ("--remove",)])
def test_the_command_refuses_without_debug(settings, args):
    settings.DEBUG = False
    User.objects.create_user("demo-anna", password=demo.PASSWORD)
    with pytest.raises(CommandError) as excinfo:
        call_command("demo", *args)
    assert "DEBUG is off" in str(excinfo.value)
    assert list(User.objects.values_list("username", flat=True)) == ["demo-anna"]


@pytest.mark.django_db
def test_the_system_check_is_an_error_on_a_demo_database_without_debug(settings):
    settings.DEBUG = False
    assert "demo.E001" not in ids(checks.run_checks(databases=["default"]))
    User.objects.create_user("demo-luca", password=demo.PASSWORD)
    found = [m for m in checks.run_checks(databases=["default"]) if m.id == "demo.E001"]
    assert len(found) == 1 and found[0].level == checks.ERROR
    assert "demo-luca" in found[0].msg and "--remove" in found[0].msg
    # A database check: `check` without a database (collectstatic, compilemessages) skips it.
    assert "demo.E001" not in ids(checks.run_checks())
    settings.DEBUG = True
    assert "demo.E001" not in ids(checks.run_checks(databases=["default"]))


@pytest.mark.django_db
def test_a_real_person_with_a_demo_username_does_not_stop_the_site(settings):
    settings.DEBUG = False
    User.objects.create_user("demo-anna", password="their own long passphrase")
    assert demo.holds_demo() == []
    assert demo.refusal() == ""


def ids(messages) -> set[str]:
    return {m.id for m in messages}


# --- the real entry points, as production and the club LAN start them --------------------------


def run(args: list[str], env: dict[str, str], timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def site_env(tmp_path) -> dict[str, str]:
    """A production environment (DEBUG off) on a fresh SQLite file of its own, migrated."""
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    env = base | {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}",
        "SECRET_KEY": "a-test-secret-key-that-is-long-enough-for-the-deploy-checks-0123456789",
        "ALLOWED_HOSTS": "127.0.0.1",
        "BIND": f"127.0.0.1:{free_port()}",
        "WEB_CONCURRENCY": "1",
        "STATIC_MANIFEST": "0",
    }
    migrated_sqlite(tmp_path / "site.sqlite3")  # as `manage.py migrate` makes it
    return env


def add_demo_account(env: dict[str, str]) -> None:
    made = run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.contrib.auth.models import User; from polotrainer import demo; "
            "User.objects.create_user('demo-marco', password=demo.PASSWORD)",
        ],
        env | {"DEBUG": "1"},
    )
    assert made.returncode == 0, made.stderr


GUNICORN = [str(BIN / "gunicorn"), "polotrainer.wsgi"]
UVICORN = [sys.executable, "scripts/serve.py"]  # as README's production section starts it


def serves(
    env: dict[str, str], seconds: float = 60, command: list[str] = GUNICORN
) -> tuple[bool, str]:
    """Start the server as the README does: (True, "") once /healthz answers, (False, its
    output) if it stops first."""
    proc = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                return False, proc.stdout.read() if proc.stdout else ""
            try:
                with urllib.request.urlopen(f"http://{env['BIND']}/healthz", timeout=2) as r:
                    if r.status == 200:
                        return True, ""
            except OSError:
                time.sleep(0.3)
        raise AssertionError(f"{command[-1]} neither served nor stopped")
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=20)


def test_production_and_club_lan_refuse_a_demo_database(site_env):
    add_demo_account(site_env)
    for profile in ("lan", "internet"):
        served, output = serves(site_env | {"DEPLOY_PROFILE": profile})
        assert not served, profile
        assert "demo's accounts (demo-marco)" in output, profile
    # uvicorn imports the app inside its event loop: the check must still run, and refuse.
    served, output = serves(site_env | {"DEPLOY_PROFILE": "lan"}, command=UVICORN)
    assert not served and "demo-marco" in output
    env = site_env | {"DEPLOY_PROFILE": "lan"}
    for entry in ("polotrainer.wsgi", "polotrainer.asgi"):  # any WSGI server; uvicorn
        started = run([sys.executable, "-c", f"import {entry}"], env)
        assert started.returncode != 0, entry
        assert "demo-marco" in started.stderr and "Traceback" not in started.stderr
    migrated = run([sys.executable, "manage.py", "migrate"], env)
    assert migrated.returncode != 0 and "demo.E001" in migrated.stderr


def test_the_same_site_starts_once_the_demo_is_removed(site_env):
    env = site_env | {"DEPLOY_PROFILE": "lan"}
    add_demo_account(env)
    removed = run([sys.executable, "manage.py", "demo", "--remove"], env | {"DEBUG": "1"})
    assert removed.returncode == 0, removed.stderr
    assert "(1 account)" in removed.stdout
    assert serves(env) == (True, "")
    assert serves(env, command=UVICORN) == (True, "")
