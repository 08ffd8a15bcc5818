"""Settings for polotrainer, driven by environment variables.

Defaults work on a fresh checkout: SQLite in the project folder, DEBUG only when asked for.
Production sets SECRET_KEY, ALLOWED_HOSTS and (optionally) DATABASE_URL.
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {value!r}")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    if value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {value!r}") from None


def envlist(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", default=False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: set SECRET_KEY in the environment (or DEBUG=1 for development)"
        )
    SECRET_KEY = "development-only-key-not-for-production"  # noqa: S105

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
if not ALLOWED_HOSTS and not DEBUG:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS is not set: list the site's host names, comma-separated"
    )
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS")
CSRF_FAILURE_VIEW = "polotrainer.views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "polotrainer",
    "scenarios",
    "polotrainer.umpires",
    "polotrainer.practice",
    "polotrainer.courses",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # HTML compressed (static files come compressed from whitenoise); Django's middleware pads
    # each response with random bytes against BREACH.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "polotrainer.urls"
WSGI_APPLICATION = "polotrainer.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: SQLite in the project folder unless DATABASE_URL says otherwise.
_sqlite_default = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
try:
    DATABASES = {
        "default": dj_database_url.parse(
            os.environ.get("DATABASE_URL") or _sqlite_default,
            conn_max_age=envint("CONN_MAX_AGE", 60),
            conn_health_checks=True,
        )
    }
except ValueError as exc:
    raise ImproperlyConfigured(f"DATABASE_URL is not a valid database URL: {exc}") from None

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers work while one writer writes; IMMEDIATE takes the write lock at the start
    # of a transaction, and the timeout makes concurrent answers wait instead of failing with
    # "database is locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "umpires:login"
LOGIN_REDIRECT_URL = "umpires:dashboard"
LOGOUT_REDIRECT_URL = "home"

# Failed logins: five tries per username and address, then an hour's wait.
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = 1
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "umpires/locked_out.html"

# Mail (Django 6.1 MAILERS): the console in development or when no EMAIL_HOST is set; SMTP
# configured by environment in production.
if os.environ.get("EMAIL_HOST") and not DEBUG:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["EMAIL_HOST"],
                "port": envint("EMAIL_PORT", 587),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": envbool("EMAIL_USE_TLS", default=True),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "polotrainer <noreply@localhost>")

# Languages: Italian first (the default when the browser prefers neither), English beside it.
LANGUAGE_CODE = "it"
LANGUAGES = [("it", _("Italian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "polotrainer" / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Rome")
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed names in production; plain names in development and in tests
        # (STATIC_MANIFEST=0), which serve from the source folders without collectstatic.
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if envbool("STATIC_MANIFEST", default=not DEBUG)
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# One set of cookie flags: the language cookie is set like the session cookie.
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
