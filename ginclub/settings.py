"""ginclub settings: one module, driven by the environment.

Environment variables:
    DJANGO_SECRET_KEY     required whenever debug is off
    DJANGO_DEBUG          "1"/"true" turns debug on (local development only)
    DJANGO_ALLOWED_HOSTS  comma-separated host names (default: localhost names)
    DJANGO_CSRF_TRUSTED_ORIGINS  comma-separated origins, e.g. https://club.example.org
    DATABASE_URL          e.g. postgres://user@host:5432/ginclub; default: SQLite file
    SQLITE_PATH           where the default SQLite file lives (default: <repo>/db.sqlite3)
    SQLITE_TEST_PATH      the test suite's SQLite file (default: <repo>/.test-db.sqlite3), so two
                          checkouts' or sessions' test runs never share one
    DJANGO_SECURE_SSL_REDIRECT  "0" when TLS ends in front of a proxy that already redirects
    DJANGO_CONN_MAX_AGE   seconds a worker keeps its database connection for reuse
                          (default 60; 0 opens one per request), PostgreSQL and SQLite
    DJANGO_TASKS_BACKEND  where background jobs run (default: the database queue, which
                          `manage.py run_worker` works off; the test suite runs them at once)
    JOBS_PROGRESS_DIR     SQLite without REDIS_URL: where running jobs write their progress
                          (default: beside the database file, <SQLITE_PATH>-progress)
    REDIS_URL             e.g. redis://10.0.0.5:6379/0: the cache every app server's workers
                          share (standings, dashboard rows, jobs' progress); unset: files
                          on this machine (DJANGO_SHARED_CACHE_DIR, JOBS_PROGRESS_DIR)
    DJANGO_CACHE_KEY_PREFIX  what this deployment's keys in Redis start with (default: a
                          digest of the database's address), so deployments may share one
    DJANGO_SHARED_CACHE_DIR  the directory the app server's workers share on this machine:
                          the shared cache without REDIS_URL, the sessions' files on
                          SQLite (sessions/), and always the login check slots (default:
                          <SQLITE_PATH>-cache)
    DJANGO_LEDGER_DIR     the ledger's key files and signed checkpoint, kept out of the
                          database and its backups (default: <SQLITE_PATH>-ledger)
    DJANGO_LEDGER_KEYS    the ledger's MAC keys, "id:hexsecret,..." (the first hashes new
                          rows); unset: a key file in DJANGO_LEDGER_DIR, made on first use
    DJANGO_LEDGER_CHECKPOINT_EVERY  the worker checkpoints the chain heads every this many
                          ledger rows (default 200), and on every round close
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG")
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. Set it (a long random string) or, for local "
            "development only, set DJANGO_DEBUG=1."
        )
    SECRET_KEY = "insecure-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "csp",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # A forgotten deploy step (collectstatic, migrate): a 503 naming it, not a 500.
    "ginclub.readiness.ReadinessMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "ginclub.sessions.AuthenticationMiddleware",  # Django's, the user read with the session
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    # Last, so it sees a view's refusal first: the one place refusals become pages.
    "ginclub.middleware.RefusalMiddleware",
]
CSRF_FAILURE_VIEW = "ginclub.middleware.csrf_failure"

# Content-Security-Policy (django-csp): everything from this site only, nothing inline.
# Scripts are static files (no inline <script>, no on...= handlers, htmx without eval);
# the QR codes are inline SVG. The API docs page adds inline styles for Swagger UI alone
# (ginclub.urls).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "ginclub.urls"
WSGI_APPLICATION = "ginclub.wsgi.application"
ASGI_APPLICATION = "ginclub.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite is the embedded default. Several phones write at once, so: WAL (readers never
# block the writer), IMMEDIATE transactions (take the write lock at BEGIN instead of
# failing on upgrade), a busy timeout to queue writers, full fsync, and foreign keys.
SQLITE_PATH = Path(os.environ.get("SQLITE_PATH", BASE_DIR / "db.sqlite3"))
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": (
        "PRAGMA journal_mode=WAL;"
        "PRAGMA synchronous=FULL;"
        "PRAGMA busy_timeout=20000;"
        "PRAGMA foreign_keys=ON;"
    ),
}

# Persistent connections: each worker keeps its own for DJANGO_CONN_MAX_AGE seconds (0
# closes it after every request). On SQLite too: opening one costs a file open, the four
# pragmas and Django's SQL functions, a tenth of a busy hall's server time when it was
# done for every poll (benchmarks/bench_hall.py); a kept connection also keeps its page
# cache while nobody writes. Between requests it holds no transaction, so it blocks
# neither writers nor WAL checkpoints.
CONN_MAX_AGE = int(os.environ.get("DJANGO_CONN_MAX_AGE", "60"))

if os.environ.get("DATABASE_URL"):
    # Checked before reuse, so a database restart costs no failed request.
    DATABASES = {
        "default": dj_database_url.config(conn_max_age=CONN_MAX_AGE, conn_health_checks=True)
    }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": SQLITE_PATH,
            "OPTIONS": SQLITE_OPTIONS,
            "CONN_MAX_AGE": CONN_MAX_AGE,
            # Threaded tests need a real file: the shared in-memory database serialises
            # nothing the way production does.
            "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH", BASE_DIR / ".test-db.sqlite3")},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The ledger's secrets and checkpoint live outside the database (docs/audit.md): an
# attacker who can only change the database can neither re-hash a chain nor hide a
# deleted tail. ginclub.ledger_keys says where each comes from.
LEDGER_DIR = Path(
    os.environ.get("DJANGO_LEDGER_DIR", str(SQLITE_PATH.with_name(SQLITE_PATH.name + "-ledger")))
)
LEDGER_KEYS = os.environ.get("DJANGO_LEDGER_KEYS", "")
LEDGER_CHECKPOINT_EVERY = int(os.environ.get("DJANGO_LEDGER_CHECKPOINT_EVERY", "200") or 200)

# Background jobs (tournaments.services.jobs: archive imports, rules changes) are
# django-tasks tasks. The database backend (django-tasks-db) queues them in this database,
# SQLite or PostgreSQL alike, and `manage.py run_worker` runs them (`make run` starts one
# beside the web server; production runs one or more next to gunicorn). The test suite
# sets the immediate backend, which runs a job when the request that asked for it commits.
TASKS = {
    "default": {
        "BACKEND": os.environ.get("DJANGO_TASKS_BACKEND", "django_tasks_db.DatabaseBackend")
    }
}
# While a job's one transaction is open nothing it writes is visible, and on SQLite no
# other connection may write at all (one writer): a running job's progress goes to the
# "jobs" cache instead (tournaments.services.jobs), files beside the SQLite database, or
# Redis with REDIS_URL. On PostgreSQL it is written to the job's row on a connection of
# its own.

# The directory this machine's workers share: the shared cache's files without Redis, and
# always the login check slots' lock files (ginclub.login_limits: per machine, as CPU is).
SHARED_CACHE_DIR = Path(
    os.environ.get(
        "DJANGO_SHARED_CACHE_DIR", str(SQLITE_PATH.with_name(SQLITE_PATH.name + "-cache"))
    )
)
REDIS_URL = os.environ.get("REDIS_URL", "")
# This deployment's keys in a Redis that others may share: named, or a digest of where its
# database is (the app servers of one deployment share it, another's is elsewhere).
CACHE_KEY_PREFIX = os.environ.get("DJANGO_CACHE_KEY_PREFIX") or (
    "ginclub-"
    + hashlib.sha256(
        repr(
            tuple(
                str(DATABASES["default"].get(part) or "")
                for part in ("ENGINE", "HOST", "PORT", "NAME")
            )
        ).encode()
    ).hexdigest()[:12]
)


def redis_cache(alias: str, timeout: int, **options) -> dict:
    """A cache shared by every app server's workers (ginclub.redis_cache), its keys under
    this deployment's prefix and the cache's alias. A Redis that does not answer within a
    second is a miss, not a stuck worker."""
    return {
        "BACKEND": "ginclub.redis_cache.SharedRedisCache",
        "LOCATION": REDIS_URL,
        "TIMEOUT": timeout,
        "KEY_PREFIX": f"{CACHE_KEY_PREFIX}:{alias}",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        **options,
    }


CACHES = {
    # Per process: players' records, ladders and their refresh guards, each under a
    # version of what it follows from, so no worker ever reads another's stale copy. Room
    # for many (Django's default of 300 entries would cull a busy club's).
    "default": {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "OPTIONS": {"MAX_ENTRIES": 10_000},
    },
    # Shared by the workers of one app server (files in SHARED_CACHE_DIR), or with
    # REDIS_URL by those of every app server: what is dear to compute, the standings
    # lines and their rendered table and each organiser's dashboard rows of the last poll,
    # is made by the first worker that needs it and read by the others, instead of once
    # per worker. Keys are digests of what the entry follows from (or of the viewer), in
    # this deploy (ginclub.http.shared_cache_key).
    "shared": (
        redis_cache("shared", 60 * 60, KEY_FUNCTION="ginclub.http.shared_cache_key")
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(SHARED_CACHE_DIR),
            "TIMEOUT": 60 * 60,
            "KEY_FUNCTION": "ginclub.http.shared_cache_key",
            "OPTIONS": {"MAX_ENTRIES": 5_000},
        }
    ),
    "jobs": (
        redis_cache("jobs", 24 * 60 * 60)
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": os.environ.get(
                "JOBS_PROGRESS_DIR", str(SQLITE_PATH.with_name(SQLITE_PATH.name + "-progress"))
            ),
            "TIMEOUT": 24 * 60 * 60,
        }
    ),
}

# Sessions: Django's database sessions on a table whose rows carry their user, so a
# request reads its session and its user in one statement (ginclub.sessions). On SQLite,
# Django's cached_db in front of that table, a cache of files on this machine
# (SHARED_CACHE_DIR/sessions), so a request reads its session from a file instead of
# asking the database (issue 26). Sound because SQLite means one machine: every worker
# shares those files, and a logout or a flush deletes the session's file as it deletes
# its row. On PostgreSQL sessions stay in the database alone: its app servers may be
# several, a file cache is one machine's, and Redis answers a failure as a miss
# (ginclub.redis_cache), so a logout during a blip would leave the session alive there.
SESSION_ENGINE = "ginclub.sessions"
if not os.environ.get("DATABASE_URL"):
    SESSION_ENGINE = "ginclub.sessions.cached"
    SESSION_CACHE_ALIAS = "sessions"
    CACHES["sessions"] = {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(SHARED_CACHE_DIR / "sessions"),
        "TIMEOUT": None,  # cached_db keeps each session as long as it lasts
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Django's hashers, the first (which hashes new passwords) Django's own PBKDF2 computed
# at the lowest CPU priority, so a flood of login checks does not slow the phones' polls
# (ginclub.hashers).
PASSWORD_HASHERS = [
    "ginclub.hashers.LowPriorityPBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.BCryptSHA256PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "ginclub.sessions.ModelBackend",  # Django's, the user read with the session
]

# English by default; Italian for the clubs whose tradition the tournament format comes
# from. The language is the one chosen with the switch on every page (a cookie), else the
# browser's Accept-Language (django.middleware.locale.LocaleMiddleware). docs/glossary-it.md
# holds the Italian words the catalogue uses.
LANGUAGE_CODE = "en-gb"
LANGUAGES = [("en-gb", "English"), ("it", "Italiano")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates as each language writes them (Italian months in lower case): ginclub/formats.
FORMAT_MODULE_PATH = ["ginclub.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Like the session's: sent over HTTPS only, and no script reads it.
LANGUAGE_COOKIE_SECURE = not DEBUG
LANGUAGE_COOKIE_HTTPONLY = True
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/London")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# Tests and `manage.py runserver` with debug off serve straight from the finders.
WHITENOISE_USE_FINDERS = True
WHITENOISE_MANIFEST_STRICT = False

# The largest body a request carries: a tournament archive sent to the API as JSON (the
# import page takes archive files up to the same 20 MB). API bodies over it are a 413.
DATA_UPLOAD_MAX_MEMORY_SIZE = 20 * 1024 * 1024

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Security: everything on whenever debug is off.
SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = not DEBUG and env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = 0 if DEBUG else 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "ginclub.authentication.CsrfSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "ginclub.api_errors.exception_handler",
    # An unknown ?format= is a 400 naming the parameter, not a 404.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "ginclub.inputs.StrictFormatNegotiation",
    # Bounded: a body over DATA_UPLOAD_MAX_MEMORY_SIZE is a 413, JSON nested too deep a 400.
    "DEFAULT_PARSER_CLASSES": [
        "ginclub.inputs.BoundedJSONParser",
        "ginclub.inputs.BoundedFormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}

SPECTACULAR_SETTINGS = {
    "TITLE": "ginclub API",
    "DESCRIPTION": "Record gin rummy hands, matches and tournaments.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Served from our own static files: the venue may have no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    # <id:...> in an address (ginclub.inputs.IdConverter): an id from 1 to 2**31 - 1.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1},
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "ginclub.api_errors.document_unsupported_media_type",
    ],
    # Stable names for the enums clients generate (module-level constants only).
    "ENUM_NAME_OVERRIDES": {
        "SeatEnum": "scoring.models.Seat.choices",
        "MatchStateEnum": "scoring.serializers.MATCH_STATES",
        "GameStateEnum": "scoring.serializers.GAME_STATES",
        "HandStateEnum": "scoring.serializers.HAND_STATES",
        "HandOutcomeEnum": "scoring.serializers.HAND_OUTCOMES",
        "OutcomeEnum": "scoring.serializers.ENTERED_OUTCOMES",
        "RoundStateEnum": "tournaments.serializers.ROUND_STATES",
        "TableStateEnum": "tournaments.serializers.TABLE_STATES",
        "JobKindEnum": "tournaments.serializers.JOB_KINDS",
        "JobStateEnum": "tournaments.serializers.JOB_STATES",
        "PenaltyKindEnum": "scoring.serializers.PENALTY_KINDS",
        "InfractionEnum": "scoring.serializers.INFRACTIONS",
    },
}

# django-axes guards the login form. Table PINs are throttled by the scoring app itself
# (scoring.services.players: per phone, per player, and generously per address).
# How many reverse proxies of ours stand in front of the app servers (0: none). Behind
# them the client's address is read from X-Forwarded-For (ginclub.permissions.client_ip),
# for django-axes and the PIN limits alike; without it every client would share the
# proxy's address.
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0") or 0)
AXES_CLIENT_IP_CALLABLE = "ginclub.permissions.client_ip"
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours
# Locked: a username from one address, together. A stranger guessing an organiser's
# password locks only themselves out; the organiser logs in from their own phone. And
# forty players on the venue's one address are not locked by one mistyped password.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# A browser that logged in before (a signed cookie) is not locked by axes' lock, which a
# stranger on the venue's address can trip; ginclub.login_limits bounds it instead.
AXES_WHITELIST_CALLABLE = "ginclub.login_limits.axes_whitelist"
# Its lock answered as a refusal (429 `login_locked`, translated, with Retry-After).
AXES_LOCKOUT_CALLABLE = "ginclub.login_limits.axes_lockout"
# How many password checks (PBKDF2, tenths of a second of CPU each) run at once on one
# app server, and how long a login waits for one before it is told the server is busy:
# a flood of logins then takes one of gunicorn's workers, not all of them
# (ginclub.login_limits). No wait by default: a sync worker waiting for a slot is a
# worker the phones' polls cannot have (benchmarks/bench_login_flood.py: a 0.25 s wait
# put the poll's median at seconds during a 100-login flood; none kept it at 0.2 s).
LOGIN_CHECK_SLOTS = int(os.environ.get("DJANGO_LOGIN_CHECK_SLOTS", "1") or 1)
LOGIN_SLOT_WAIT = float(os.environ.get("DJANGO_LOGIN_SLOT_WAIT", "0") or 0)
SILENCED_SYSTEM_CHECKS: list[str] = []
if not DEBUG and not SECURE_SSL_REDIRECT:
    # security.W008 asks Django to redirect HTTP to HTTPS. DJANGO_SECURE_SSL_REDIRECT=0
    # says the TLS proxy in front already does (docs/operations.md, Settings), so it is
    # silenced in that mode only; HSTS and secure cookies stay on.
    SILENCED_SYSTEM_CHECKS.append("security.W008")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}
