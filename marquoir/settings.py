"""Django settings for Marquoir.

Everything a deployment changes comes from the environment (see docs/deploy.md); the
defaults make `make run` work on a fresh checkout with SQLite and nothing else.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from .env import env, env_bool, env_int, env_list, kept_secret_key, secret_key_file

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("MARQUOIR_DEBUG", False)
# Signs cookies and derives every edit token and group key: SECRET_KEY, else the key `make run`
# and `make serve` made on their first start and keep (MARQUOIR_SECRET_KEY_FILE, .secret_key).
# Never a default: a key anyone can read signs tokens anyone can compute. The public
# DEVELOPMENT_SECRET_KEY (marquoir.env) reaches tests only, through tests/settings.py.
SECRET_KEY = env("SECRET_KEY") or kept_secret_key()
if not SECRET_KEY:
    raise ImproperlyConfigured(
        f"SECRET_KEY is not set and no key is kept in {secret_key_file()}: set SECRET_KEY (docs/deploy.md), "
        "or start with `make run` or `make serve`, which make one there and keep it."
    )
# Old keys, comma-separated, still accepted while a new SECRET_KEY rolls out (edit tokens too).
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS")
# MARQUOIR_EXTRA_HOSTS adds to them without restating the defaults: `make run` (scripts/run.py)
# puts this machine's address on the local network there, for the other phones at home.
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver") + env_list("MARQUOIR_EXTRA_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
# The address other devices open (http://192.168.1.23:8000, https://marquoir.example): the
# base of a table's watch and keep-score links and their QR codes. Unset, each link is
# built from the address of the request that shows it.
MARQUOIR_PUBLIC_URL = env("MARQUOIR_PUBLIC_URL").strip().rstrip("/")
# Our own 403 page when a form's CSRF token is refused, in the language of the address.
CSRF_FAILURE_VIEW = "marquoir.catalog.views.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "ninja",
    "marquoir.catalog",
    "marquoir.tables",
    "marquoir.groups",
    "marquoir.own_games",
    # The games, one line each: a game's app and nothing else registers it (marquoir.registry
    # finds each app's keeper.py, the game's one definition). docs/adding-a-game.md says more.
    "marquoir.keepers.pickomino",
    "marquoir.keepers.sheet",
    "marquoir.keepers.tarot",
    "marquoir.keepers.yahtzee",
    # Every game declared as data (marquoir/games/<key>/game.toml): one app keeps them all.
    "marquoir.keepers.declared",
]

MIDDLEWARE = [
    "marquoir.logs.AccessLogMiddleware",
    # Before anything that reads the Host or the form: a foreign Host (DNS rebinding) or an
    # oversized form gets a short 400 of ours, JSON on /api/, never a debug page.
    "marquoir.bad_requests.BadRequestMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "marquoir.security.ContentSecurityPolicyMiddleware",
    "marquoir.tables.api_errors.ApiErrorMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "marquoir.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Each game package keeps its own templates and drawings beside its engine.
        "DIRS": sorted((BASE_DIR / "marquoir" / "games").glob("*/templates")),
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "marquoir.context_processors.site",
            ],
        },
    },
]

WSGI_APPLICATION = "marquoir.wsgi.application"
ASGI_APPLICATION = "marquoir.asgi.application"

SQLITE_DATABASE = {
    "ENGINE": "django.db.backends.sqlite3",
    "NAME": env("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
    "OPTIONS": {
        # WAL lets readers go on while a turn is written; IMMEDIATE takes the write
        # lock at BEGIN so two writers queue instead of failing on upgrade.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 10,
    },
    # Requests run in a few long-lived threads (marquoir.asgi), each keeping its connection.
    "CONN_MAX_AGE": None,
    # Tests: a file of this process's own, not Django's in-memory database, which is
    # shared-cache between threads and fails a second writer at once ("database table is
    # locked") instead of letting it wait: tests/tables/test_concurrency.py races threads.
    "TEST": {
        "NAME": env("SQLITE_TEST_PATH", str(Path(tempfile.gettempdir()) / f"marquoir-test-{os.getpid()}.sqlite3"))
    },
}
# DATABASE_URL (postgres://user:pass@host:5432/name) selects PostgreSQL; SQLite otherwise.
# PostgreSQL gets a pool per worker process (psycopg_pool): requests hand their connection
# back when they end, and the live streams borrow one only for a moment.
DATABASES: dict[str, dict[str, Any]] = {"default": SQLITE_DATABASE}
if env("DATABASE_URL"):
    postgres: dict[str, Any] = dict(dj_database_url.parse(env("DATABASE_URL"), conn_max_age=0))
    postgres["OPTIONS"] = {
        **postgres.get("OPTIONS", {}),
        "pool": {"min_size": 2, "max_size": env_int("DATABASE_POOL_SIZE", 20), "timeout": 10},
    }
    DATABASES["default"] = postgres

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "marquoir" / "locale", BASE_DIR / "marquoir" / "games" / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"
# Each language's own order of dates (marquoir/formats: English day first, as French is).
FORMAT_MODULE_PATH = ["marquoir.formats"]

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "marquoir" / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG or not env_bool("MARQUOIR_COMPRESS_STATIC", False)
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
# In development whitenoise serves straight from the apps; in production from STATIC_ROOT,
# compressed (gzip and brotli when available) with far-future cache headers.
WHITENOISE_USE_FINDERS = DEBUG or not env_bool("MARQUOIR_COMPRESS_STATIC", False)

# Security: capability links carry the right to watch; cookies and headers are strict.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_COOKIE_HTTPONLY = False
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG and env_bool("MARQUOIR_HTTPS", False))
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("MARQUOIR_HTTPS", False)
SECURE_HSTS_SECONDS = 31536000 if env_bool("MARQUOIR_HTTPS", False) else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
# Asking browsers' preload lists for the domain is the operator's decision, hard to undo.
SECURE_HSTS_PRELOAD = env_bool("MARQUOIR_HSTS_PRELOAD", False)
# Django's deploy check warns when preload is off (security.W021): off is a choice here.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
# A load balancer's health check speaks plain HTTP and needs the answer, not a redirect.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
MARQUOIR_BEHIND_PROXY = env_bool("MARQUOIR_BEHIND_PROXY", False)
# How many proxies of ours a request crosses (each appends to X-Forwarded-For).
MARQUOIR_PROXY_HOPS = max(1, env_int("MARQUOIR_PROXY_HOPS", 1))
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if MARQUOIR_BEHIND_PROXY else None

# Threads per process running the synchronous requests (marquoir.asgi): beyond, they queue.
MARQUOIR_SYNC_THREADS = max(1, env_int("MARQUOIR_SYNC_THREADS", 8))

# Request bodies are read whole in the event loop before a thread is taken (marquoir.bodies):
# larger ones are refused there (413), so Django's own limit, stated here, is the one they
# meet. The group import's addresses take its file and the form around it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # Django's default
# A group's own export must import back: a group holds at most 5,000 plays, and 5,000 score
# sheets of 20 players export to 12.7 MB (marquoir.groups.exchange), so files up to 16 MiB.
GROUP_IMPORT_MAX_BYTES = 16 * 1024 * 1024
MARQUOIR_IMPORT_BODY_BYTES = GROUP_IMPORT_MAX_BYTES + 64 * 1024
# Every body is bounded before Django sees it, so an uploaded file stays in memory: none
# ever reaches the disk (a temporary file would, above FILE_UPLOAD_MAX_MEMORY_SIZE).
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]
FILE_UPLOAD_MAX_MEMORY_SIZE = MARQUOIR_IMPORT_BODY_BYTES
# A body must arrive within the grace, plus a second per MIN_BYTES_PER_SECOND it holds
# (408 otherwise): a real network's pace, however slow, never a byte a second.
MARQUOIR_BODY_GRACE_SECONDS = env_int("MARQUOIR_BODY_GRACE_SECONDS", 10)
MARQUOIR_BODY_MIN_BYTES_PER_SECOND = env_int("MARQUOIR_BODY_MIN_BYTES_PER_SECOND", 16 * 1024)
# The bytes of bodies one process holds at once, all requests together (503 beyond).
MARQUOIR_BODY_BUFFER_BYTES = env_int("MARQUOIR_BODY_BUFFER_BYTES", 128 * 1024 * 1024)

# Open live streams per process, per client address and in all (marquoir.tables.live); the
# process's cap also stays this many descriptors below its open-file limit (ulimit -n).
MARQUOIR_STREAMS_PER_ADDRESS = env_int("MARQUOIR_STREAMS_PER_ADDRESS", 200)
MARQUOIR_STREAMS_PER_PROCESS = env_int("MARQUOIR_STREAMS_PER_PROCESS", 10_000)
MARQUOIR_RESERVED_DESCRIPTORS = env_int("MARQUOIR_RESERVED_DESCRIPTORS", 256)

# How many matches each process keeps folded in memory (marquoir.tables.selectors.FoldCache).
MARQUOIR_FOLD_CACHE_SIZE = env_int("MARQUOIR_FOLD_CACHE_SIZE", 500)

# New matches per device (or per address, for a client with no device cookie) and window,
# and per address for all its devices together (a café's tables behind one address); 429
# beyond. Only matches actually created are counted.
MATCH_CREATION_LIMIT = env_int("MATCH_CREATION_LIMIT", 30)
MATCH_CREATION_ADDRESS_LIMIT = env_int("MATCH_CREATION_ADDRESS_LIMIT", 300)
MATCH_CREATION_WINDOW_SECONDS = env_int("MATCH_CREATION_WINDOW_SECONDS", 600)
# Actions (undos and retries included) per match and per address in each window, counted
# in each process's memory (ratelimit.allow_action; with N processes, up to N times as
# many): far above any real table (a turn takes seconds; docs/api.md), 429 beyond.
MATCH_ACTION_LIMIT = env_int("MATCH_ACTION_LIMIT", 30)
MATCH_ACTION_ADDRESS_LIMIT = env_int("MATCH_ACTION_ADDRESS_LIMIT", 200)
MATCH_ACTION_WINDOW_SECONDS = env_int("MATCH_ACTION_WINDOW_SECONDS", 10)
# Costly reads of a group (a history page, its stats, an export) per address and minute, and
# group imports tried (refused ones too) per address and window: counted in each process's
# memory (groups.services), far above what a table does, 429 beyond.
GROUP_READ_LIMIT = env_int("GROUP_READ_LIMIT", 120)
GROUP_IMPORT_LIMIT = env_int("GROUP_IMPORT_LIMIT", 5)
GROUP_IMPORT_WINDOW_SECONDS = env_int("GROUP_IMPORT_WINDOW_SECONDS", 600)
# An export is a file of up to megabytes, taken once in a while: its own, smaller budget
# per address and window (make bench-abuse: 20 clients reading the largest export).
GROUP_EXPORT_LIMIT = env_int("GROUP_EXPORT_LIMIT", 20)
GROUP_EXPORT_WINDOW_SECONDS = env_int("GROUP_EXPORT_WINDOW_SECONDS", 600)

# LOG_FORMAT=json writes one JSON object per line (production); "text" is for people.
LOG_FORMAT = env("LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "marquoir.logs.JsonFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    # Match and group ids are capabilities: the access log shows a tag of each (marquoir.logs).
    "filters": {"capabilities": {"()": "marquoir.logs.HideCapabilities"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {
        # The access log is ours (no query strings, no headers); Django's would repeat it.
        "django.request": {"level": "ERROR", "filters": ["capabilities"]},
        "marquoir.api": {"filters": ["capabilities"]},
        "marquoir.access": {
            "level": env("ACCESS_LOG_LEVEL", "INFO" if LOG_FORMAT == "json" else "WARNING"),
            "filters": ["capabilities"],
        },
    },
}
