"""The two deploy profiles, Django's deploy checks, the documented variables, the catalogs."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from polotrainer import catalogs

ROOT = Path(__file__).resolve().parents[2]
KEY = "tests-only-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEFGHIJ"
LAN_WARNINGS = {"security.W004", "security.W008", "security.W012", "security.W016"}


def run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        # The browser tests' DJANGO_ALLOW_ASYNC_UNSAFE is theirs, not a deployment's (async.E001).
        if k
        not in {
            "DEBUG",
            "SECRET_KEY",
            "DEPLOY_PROFILE",
            "DATABASE_URL",
            "STATIC_MANIFEST",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
    }
    return subprocess.run(
        [sys.executable, *code.split()],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def deploy_codes(**env: str) -> set[str]:
    result = run("manage.py check --deploy", **env)
    return set(re.findall(r"\(([a-z_]+\.[EW]\d+)\)", result.stdout + result.stderr))


def test_internet_profile_passes_check_deploy_with_nothing_to_say():
    assert deploy_codes(SECRET_KEY=KEY, ALLOWED_HOSTS="trainer.example.org", DEBUG="0") == set()


def test_the_before_stop_hooks_invocation_is_the_internet_profile_and_clean():
    # DEBUG= SECURE_COOKIES=1 SECRET_KEY=... ALLOWED_HOSTS=example.org manage.py check --deploy
    codes = deploy_codes(DEBUG="", SECURE_COOKIES="1", SECRET_KEY=KEY, ALLOWED_HOSTS="example.org")
    assert codes == set()


def test_lan_profile_names_only_the_https_only_warnings():
    codes = deploy_codes(
        DEPLOY_PROFILE="lan", SECRET_KEY=KEY, ALLOWED_HOSTS="192.168.1.20", DEBUG="0"
    )
    assert codes == LAN_WARNINGS


def test_an_unknown_profile_is_one_line_naming_the_variable():
    result = run("manage.py check", DEPLOY_PROFILE="cloud", SECRET_KEY=KEY, ALLOWED_HOSTS="x")
    assert result.returncode != 0
    assert "DEPLOY_PROFILE" in result.stderr and "Traceback" not in result.stderr


def settings_of(*names: str, **env: str) -> list[str]:
    code = "-c import django; django.setup(); from django.conf import settings;" + "".join(
        f" print(repr(settings.{n}));" for n in names
    )
    result = subprocess.run(
        [sys.executable, "-c", code.removeprefix("-c ")],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k not in {"DEPLOY_PROFILE", "DEBUG"}},
            "DJANGO_SETTINGS_MODULE": "polotrainer.settings",
            "SECRET_KEY": KEY,
            **env,
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_internet_profile_trusts_the_proxy_and_sends_hsts_and_secure_cookies():
    values = settings_of(
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "LANGUAGE_COOKIE_SECURE",
        "CSRF_TRUSTED_ORIGINS",
        ALLOWED_HOSTS="trainer.example.org,.club.example",
        DEBUG="0",
    )
    assert values == [
        "('HTTP_X_FORWARDED_PROTO', 'https')",
        "True",
        "31536000",
        "True",
        "True",
        "True",
        "['https://trainer.example.org', 'https://*.club.example']",
    ]


def test_lan_profile_speaks_plain_http():
    values = settings_of(
        "SECURE_PROXY_SSL_HEADER",
        "SECURE_SSL_REDIRECT",
        "SECURE_HSTS_SECONDS",
        "SESSION_COOKIE_SECURE",
        "LANGUAGE_COOKIE_SECURE",
        "CSRF_TRUSTED_ORIGINS",
        ALLOWED_HOSTS="192.168.1.20",
        DEPLOY_PROFILE="lan",
        DEBUG="0",
    )
    assert values == ["None", "False", "0", "False", "False", "['http://192.168.1.20']"]


def test_without_email_host_production_sends_no_mail_and_uses_smtp_when_it_does():
    assert settings_of("MAIL_ENABLED", ALLOWED_HOSTS="x", DEBUG="0") == ["False"]
    with_mail = settings_of(
        "MAIL_ENABLED",
        "MAILERS['default']['OPTIONS']['host']",
        ALLOWED_HOSTS="x",
        DEBUG="0",
        EMAIL_HOST="smtp.example.org",
    )
    assert with_mail == ["True", "'smtp.example.org'"]


# --- every variable the code reads is documented ---------------------------------------------

READS = re.compile(
    r"""(?:env(?:bool|int|list)\(|os\.environ\.get\(|os\.environ\[)\s*["']([A-Z_]+)["']"""
)


def variables_read() -> set[str]:
    sources = [ROOT / "polotrainer" / "settings.py", ROOT / "gunicorn.conf.py"]
    found = {name for path in sources for name in READS.findall(path.read_text())}
    return found - {"DJANGO_SETTINGS_MODULE"}


def variables_documented() -> set[str]:
    readme = (ROOT / "README.md").read_text()
    table = readme.split("### Configuration (environment)", 1)[1].split("\n###", 1)[0]
    rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z_]+)`", row)}


def test_every_variable_the_code_reads_is_in_the_readmes_table():
    read = variables_read()
    assert {"CONN_MAX_AGE", "LOG_LEVEL", "TIME_ZONE", "CSRF_TRUSTED_ORIGINS"} <= read
    assert read - variables_documented() == set()
    assert variables_documented() - read == set()


# --- catalogs ----------------------------------------------------------------------------------


@pytest.fixture
def locale(tmp_path):
    folder = tmp_path / "it" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "django.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Log in"\nmsgstr "Accedi"\n'
    )
    return tmp_path


def test_compilemessages_builds_the_missing_catalogs_once(locale):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="compilemessages"):
        catalogs.require_compiled(locale)
    assert catalogs.compile_catalogs(locale) == [locale / "it" / "LC_MESSAGES" / "django.mo"]
    assert catalogs.compile_catalogs(locale) == []
    catalogs.require_compiled(locale)
    import gettext

    with (locale / "it" / "LC_MESSAGES" / "django.mo").open("rb") as mo:
        assert gettext.GNUTranslations(mo).gettext("Log in") == "Accedi"


def test_a_catalog_older_than_its_po_counts_as_not_compiled(locale):
    catalogs.compile_catalogs(locale)
    po = locale / "it" / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    os.utime(mo, (po.stat().st_mtime - 10, po.stat().st_mtime - 10))
    assert catalogs.stale(locale) == [po]


def test_manage_py_compilemessages_is_ours_and_needs_no_msgfmt():
    result = run("manage.py compilemessages", DEBUG="1", PATH="/nonexistent")
    assert result.returncode == 0, result.stderr
    assert "compiled" in result.stdout or "up to date" in result.stdout
