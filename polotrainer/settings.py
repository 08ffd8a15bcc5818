"""Settings for polotrainer, driven by environment variables.

Defaults work on a fresh checkout: SQLite in the project folder, DEBUG only when asked for.
Production sets SECRET_KEY, ALLOWED_HOSTS and (optionally) DATABASE_URL, and picks one of two
profiles with DEPLOY_PROFILE: `internet` (the default: HTTPS behind a proxy) or `lan` (plain HTTP
on a club's private network). Every variable read here is in the README's configuration table.
"""

import os
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

# ModelForm[Model] and friends at run time, as the type checker reads them.
django_stubs_ext.monkeypatch()

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

# The two ways this app is deployed. `internet`: HTTPS ends at a reverse proxy, which passes
# X-Forwarded-Proto and X-Forwarded-For; cookies are Secure, HSTS is sent and plain HTTP is
# redirected. `lan`: plain HTTP on a private address (a clinic's projector and phones), where
# Secure cookies would never come back (no log-in) and HSTS would lock browsers out of the site.
# In development (DEBUG) neither applies: runserver speaks plain HTTP.
DEPLOY_PROFILE = os.environ.get("DEPLOY_PROFILE", "") or "internet"
if DEPLOY_PROFILE not in {"internet", "lan"}:
    raise ImproperlyConfigured(f"DEPLOY_PROFILE must be internet or lan, got {DEPLOY_PROFILE!r}")
HTTPS = DEPLOY_PROFILE == "internet" and not DEBUG

# Behind the internet profile's proxy the request says http; the proxy's header says https.
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if envbool("PROXY_SSL_HEADER", default=HTTPS) else None
)
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", default=HTTPS)
# A load balancer's health probe may speak plain HTTP to the app itself.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", default=True)
# How many reverse proxies stand between the clients and the app, each appending the address it
# received the request from to X-Forwarded-For. 0: the connection's own address is the client's.
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", 0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured(f"TRUSTED_PROXY_COUNT must be 0 or more, got {TRUSTED_PROXY_COUNT}")


def _origins(hosts: list[str], scheme: str) -> list[str]:
    """The origins a form may come from: each allowed host, in the profile's scheme."""
    return [
        f"{scheme}://*{h}" if h.startswith(".") else f"{scheme}://{h}" for h in hosts if h != "*"
    ]


# Forms are accepted from the allowed hosts in the profile's scheme; set CSRF_TRUSTED_ORIGINS
# only when the site is reached under other names (a proxy that rewrites Host, a second port).
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS") or _origins(
    ALLOWED_HOSTS, "https" if HTTPS else "http"
)
CSRF_FAILURE_VIEW = "polotrainer.views.csrf_failure"

INSTALLED_APPS = [
    # Staff look-up (polotrainer/lookup): Django's admin, under the language prefixes.
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "polotrainer",
    "polotrainer.throttle",
    "scenarios",
    "polotrainer.umpires",
    "polotrainer.practice",
    "polotrainer.offline",
    "polotrainer.courses",
    "polotrainer.certificates",
    "polotrainer.clinics",
    "polotrainer.drills",
    "polotrainer.authoring",
    "polotrainer.lookup",
    "polotrainer.notify",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "polotrainer.middleware.PermissionsPolicyMiddleware",
    "polotrainer.middleware.StaticFilesMiddleware",  # WhiteNoise's, in both modes
    "polotrainer.middleware.PrivateCacheMiddleware",
    # HTML compressed (static files come compressed from whitenoise); Django's middleware pads
    # each response with random bytes against BREACH.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "polotrainer.middleware.RejectNulMiddleware",
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
                "django.template.context_processors.csp",
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

# Under ASGI (polotrainer/asgi.py, serving.py): the threads of each worker process's pool that
# serve pages and answers, each keeping a database connection of its own (CONN_MAX_AGE); the
# other requests wait their turn.
ASGI_CONCURRENCY = envint("ASGI_CONCURRENCY", 16)
if ASGI_CONCURRENCY < 1:
    raise ImproperlyConfigured(f"ASGI_CONCURRENCY must be 1 or more, got {ASGI_CONCURRENCY}")

# Clinics' live streams (clinics/stream.py, clinics/live.py): each process's watcher of a session
# reads it every CLINIC_POLL_MS on SQLite (or with CLINIC_LISTEN off); on PostgreSQL it wakes on
# LISTEN/NOTIFY, reading anyway every CLINIC_LISTEN_CHECK_MS.
CLINIC_POLL_MS = envint("CLINIC_POLL_MS", 250)
CLINIC_LISTEN = envbool("CLINIC_LISTEN", default=True)
CLINIC_LISTEN_CHECK_MS = envint("CLINIC_LISTEN_CHECK_MS", 10_000)

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
# Where signing in lands (polotrainer/views.py start): an instructor's home, anyone's progress.
LOGIN_REDIRECT_URL = "start"
LOGOUT_REDIRECT_URL = "home"

# Password guessing (polotrainer/throttle, README "Throttling"): every password check, at log-in
# and on the forms that ask for the password again, goes through django-axes. Three limits:
# per username and address (AXES_FAILURE_LIMIT, then AXES_COOLOFF_MINUTES' pause); per username
# from every address it has not logged in from (LOGIN_USERNAME_LIMIT a day); per address across
# usernames (LOGIN_SPRAY_LIMIT distinct usernames an hour). The state is in the database, which
# every app process shares.
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = envint("AXES_COOLOFF_MINUTES", 15) / 60
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A refused attempt during a pause is not one more failure: guessing on does not lengthen it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_TEMPLATE = "umpires/locked_out.html"
AXES_LOCKOUT_CALLABLE = "polotrainer.throttle.guessing.lockout_response"
AXES_HANDLER = "polotrainer.throttle.guessing.GuessingHandler"
AXES_CLIENT_IP_CALLABLE = "polotrainer.throttle.addresses.client_ip"
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_VERBOSE = False
# Never store what was typed in a password field with a failed attempt.
AXES_SENSITIVE_PARAMETERS = [
    "password",
    "old_password",
    "new_password1",
    "new_password2",
    "password1",
    "password2",
    "csrfmiddlewaretoken",
]
LOGIN_USERNAME_LIMIT = envint("LOGIN_USERNAME_LIMIT", 20)
LOGIN_SPRAY_LIMIT = envint("LOGIN_SPRAY_LIMIT", 30)
# Sign-ups from one address in an hour: a room of 60 behind one router gets through.
SIGNUP_LIMIT = envint("SIGNUP_LIMIT", 100)
JOIN_GUESS_LIMIT = envint("JOIN_GUESS_LIMIT", 30)  # wrong join codes from one address an hour

# Mail (Django 6.1 MAILERS): the console in development; SMTP in production. The site sends mail
# only when EMAIL_HOST is set (or in development): without it, password reset says it is not
# available instead of promising a mail that never comes.
MAIL_ENABLED = bool(os.environ.get("EMAIL_HOST")) or DEBUG
MAILERS: dict[str, dict[str, Any]]
if DEBUG and not os.environ.get("EMAIL_HOST"):
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ.get("EMAIL_HOST", "localhost"),
                "port": envint("EMAIL_PORT", 587),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": envbool("EMAIL_USE_TLS", default=True),
            },
        }
    }
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "polotrainer <noreply@localhost>")
# The site's public address, which links in mail sent by `manage.py notify` start with (a page
# that sends mail uses its own request's address).
SITE_URL = os.environ.get("SITE_URL", "") or ("http://127.0.0.1:8000" if DEBUG else "")

# Languages: Italian first (the default when the browser prefers neither), English beside it.
LANGUAGE_CODE = "it"
LANGUAGES = [("it", _("Italian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "polotrainer" / "locale"]
# Dates and times as both languages write them, day first (polotrainer/formats/).
FORMAT_MODULE_PATH = ["polotrainer.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Rome")
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_MANIFEST = envbool("STATIC_MANIFEST", default=not DEBUG)
# Uploads (the photos beside instructors' situations): never served by WhiteNoise or a public
# URL, only by the access-checked view (polotrainer.authoring.views.photo). MEDIA_URL is not
# routed anywhere; it is set only because Django's file fields expect one.
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
MEDIA_URL = "media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed names in production; plain names in development and in tests
        # (STATIC_MANIFEST=0), which serve from the source folders without collectstatic.
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Plain names are served by WhiteNoise from the source folders too (a test's ASGI server).
WHITENOISE_USE_FINDERS = DEBUG or not STATIC_MANIFEST
# Found on each request instead of from a table of every static file made when the middleware
# starts: in development (files change), and in the tests, where every test client starts the
# middleware again (the table took ~60 ms each time: more than half of the URL fuzzing's time).
WHITENOISE_AUTOREFRESH = envbool("STATIC_AUTOREFRESH", default=DEBUG)

# Cookies: Secure in the internet profile; the language cookie carries the same flags as the
# session and CSRF cookies (Lax: a link from elsewhere still opens the page in your language).
SESSION_COOKIE_SECURE = envbool("SECURE_COOKIES", default=HTTPS)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SESSION_COOKIE_SAMESITE = CSRF_COOKIE_SAMESITE = LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy on every response: scripts, styles, images and fonts from this site
# only; no inline script or style anywhere (htmx's own indicator style is turned off in its
# config meta). Pico draws its form icons as data: SVGs.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}
# Powerful browser features this site never uses, refused to it and to anything it might embed.
PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), "
    "payment=(), usb=(), browsing-topics=()"
)

# Certificates (README "Certificates"): the install's Ed25519 private key, as the key itself
# (PEM or base64url) or a file holding it, never in the repository; the public address of the
# verify page that QR codes point at (default: this install's own); the issuer's name on them.
CERTIFICATE_SIGNING_KEY = os.environ.get("CERTIFICATE_SIGNING_KEY", "")
CERTIFICATE_SIGNING_KEY_FILE = os.environ.get("CERTIFICATE_SIGNING_KEY_FILE", "")
CERTIFICATE_VERIFY_URL = os.environ.get("CERTIFICATE_VERIFY_URL", "")
CERTIFICATE_ISSUER_NAME = os.environ.get("CERTIFICATE_ISSUER_NAME", "") or "polotrainer"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
