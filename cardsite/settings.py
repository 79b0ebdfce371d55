"""Settings of the card site: one file, every deployment choice read from the environment.

The embedded defaults (no variable set) give a development site on SQLite in the project
folder. A production site sets DEBUG=false, and must then give SECRET_KEY and ALLOWED_HOSTS,
or the site refuses to start.
"""

import importlib.util
import json
import os
import re
import secrets
import tempfile
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

# Lets the admin and other generic classes be subscripted at run time, as the type hints do.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """A boolean variable; anything but a clear yes/no is a configuration error."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true/false, 1/0, yes/no).")


def env_str(name: str, default: str | None = None) -> str | None:
    raw = os.environ.get(name)
    return raw if raw not in (None, "") else default


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_path(name: str, default: Path) -> Path:
    raw = os.environ.get(name)
    return Path(raw).expanduser().resolve() if raw else default


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    try:
        return int(raw)
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from exc


def env_limit(name: str, default: int) -> int:
    """A limit of the site: a whole number, at least 1."""
    value = env_int(name, default)
    if value < 1:
        raise ImproperlyConfigured(f"{name}={value} must be at least 1.")
    return value


def _development_secret_key() -> str:
    # Kept in an ignored file so sessions survive restarts; never used when DEBUG is off.
    key_file = BASE_DIR / ".dev-secret-key"
    if key_file.exists():
        return key_file.read_text().strip()
    key = secrets.token_urlsafe(50)
    key_file.write_text(key)
    return key


DEBUG = env_bool("DEBUG", True)

_secret_key = env_str("SECRET_KEY")
if _secret_key is None:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    _secret_key = _development_secret_key()
SECRET_KEY: str = _secret_key

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off.")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    # CORS headers for the API's reads (the policy: cardsite/cors.py).
    "corsheaders",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "validator",
    "accounts",
    "catalog",
    "prints",
    "authoring",
    "packs",
    # Players' proposals for the official sets, and the curators' review of them.
    "contributions",
    # The whole public catalog as downloadable files (GET /api/bulk-data/).
    "bulk",
    # Games at a rules-enforcing table, played through the API (issue 21).
    "play",
    # The table of the database task backend (TASKS_BACKEND=database); harmless otherwise.
    "django_tasks_db",
    # The top layer: the site's operations (serve, loadtest, backup, restore) as commands.
    "cardsite",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Before anything that may answer: a CORS preflight is answered here.
    "corsheaders.middleware.CorsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # ETag, Last-Modified and 304 for the API's reads; outside the next one, so that an
    # answer made private there is still private when this one adds `no-cache`.
    "cardsite.middleware.ApiRevalidation",
    # An answer to a signed-in user is `Cache-Control: private` unless it says otherwise.
    "cardsite.middleware.PrivateWhenSignedIn",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

if not DEBUG:
    # Static files straight from the web process, compressed and cached for good by their
    # hashed names: no separate file server to run or keep in step with a deploy. (While
    # debugging, runserver serves them from the apps' folders, with no collect step.)
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")

ROOT_URLCONF = "cardsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
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

WSGI_APPLICATION = "cardsite.wsgi.application"
ASGI_APPLICATION = "cardsite.asgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}") or "",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0),
    )
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads write (the web server's, background tasks): WAL lets readers go on while
    # one writes, IMMEDIATE takes the write lock at the start of a transaction (no deadlock on
    # upgrade), and a writer waits up to `timeout` seconds for another instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
    # Tests get a file too: an in-memory database shared between threads locks whole tables
    # and fails at once where a file would wait.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"cardsite-test-{os.getpid()}.sqlite3")
    }

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A page of search is a few milliseconds of work: PostgreSQL's parallel workers cost
    # more to start than they save, and their plans for "the first 60 by name" read up to ten
    # times the rows (measured by bench_search: name:boots 166 ms in parallel, 9 ms without).
    # DATABASE_PARALLEL_WORKERS lets a machine serving reports turn them back on.
    workers = env_int("DATABASE_PARALLEL_WORKERS", 0)
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "options", f"-c max_parallel_workers_per_gather={workers}"
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Password log-ins go through the lockout of accounts/limits.py (docs/security.md); plain
# ModelBackend stays listed only so that sessions opened under it remain valid.
AUTHENTICATION_BACKENDS = [
    "accounts.backends.ThrottledModelBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# The lockout: each (username, address) pair may fail LOGIN_FREE_FAILURES times, then waits
# 2, 4, 8 ... seconds after each failure, at most LOGIN_LOCKOUT_MAX_SECONDS; an address may
# fail LOGIN_ADDRESS_FAILURES times per LOGIN_LOCKOUT_MAX_SECONDS, whatever the usernames.
LOGIN_FREE_FAILURES = env_limit("LOGIN_FREE_FAILURES", 5)
LOGIN_LOCKOUT_MAX_SECONDS = env_limit("LOGIN_LOCKOUT_MAX_SECONDS", 900)
LOGIN_ADDRESS_FAILURES = env_limit("LOGIN_ADDRESS_FAILURES", 50)
# Accounts made from one client address an hour (the sign-up page); past it, a 429 with
# Retry-After and no account. Each account has its own caps on background jobs, so this caps
# what one address can queue through fresh accounts (docs/security.md, "Fairness").
SIGNUPS_PER_HOUR = env_limit("SIGNUPS_PER_HOUR", 10)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where `collectstatic` gathers the files that WhiteNoise serves in production.
STATIC_ROOT = env_path("STATIC_ROOT", BASE_DIR / "staticfiles")

REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "catalog.api.errors.error_handler",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "accounts.authentication.ApiTokenAuthentication",
    ],
    # Reads are open; writes are throttled per user (see authoring/api). Rates are per hour
    # so that a script importing a set of a few hundred cards is never stopped.
    "DEFAULT_THROTTLE_RATES": {"writes": env_str("API_WRITE_RATE", "1200/hour")},
    # Request bodies go through the engine's bounded reader (size, depth, number length).
    "DEFAULT_PARSER_CLASSES": [
        "catalog.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}
# Other sites' pages may read the API (which requests count as reads: cardsite/cors.py). No
# URL pattern turns CORS on by itself; that policy does, and sends no credentials.
CORS_URLS_REGEX = r"^$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS", "POST")
CORS_EXPOSE_HEADERS = ("ETag", "Retry-After")
# The largest JSON body the API reads: a set of a thousand cards fits in well under this.
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 2_000_000)
SPECTACULAR_SETTINGS = {
    "TITLE": "Munchkin card site API",
    "VERSION": "1",
    # The docs page's scripts come from the installed sidecar package, not from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # play/converters.py: a game's id in a path, bounded to what a row's id can be.
    "PATH_CONVERTER_OVERRIDES": {
        "game_id": {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
    },
}

LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# Uploaded card art and background proxy PDFs live on the default storage, read back only
# through views that check who may see them (never a public folder). MEDIA_STORAGE names any
# Django storage class, MEDIA_STORAGE_OPTIONS (JSON) its options: an S3-compatible bucket
# through django-storages, say, so that every web process and worker sees the same files.
MEDIA_URL = "media/"
MEDIA_ROOT = env_path("MEDIA_ROOT", BASE_DIR / "media")
_media_storage = env_str("MEDIA_STORAGE", "django.core.files.storage.FileSystemStorage") or ""
_media_module, _, _media_class = _media_storage.rpartition(".")
if not _media_module or importlib.util.find_spec(_media_module) is None:
    raise ImproperlyConfigured(
        f"MEDIA_STORAGE={_media_storage!r} is not an importable storage class "
        "(e.g. django.core.files.storage.FileSystemStorage)."
    )
try:
    _media_options = json.loads(env_str("MEDIA_STORAGE_OPTIONS", "{}") or "{}")
except json.JSONDecodeError as exc:
    raise ImproperlyConfigured(f"MEDIA_STORAGE_OPTIONS is not JSON: {exc}") from exc
if not isinstance(_media_options, dict):
    raise ImproperlyConfigured("MEDIA_STORAGE_OPTIONS must be a JSON object.")

STORAGES: dict[str, dict[str, Any]] = {
    "default": {"BACKEND": _media_storage, "OPTIONS": _media_options},
    # Production: hashed names (cached for a year by browsers) and pre-compressed copies,
    # made once by `collectstatic`. Development: the files as they are, no collect step.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
# Uploaded pictures (card art, proposal photos): bytes, format and pixels are checked before
# any pixel is decoded, then the picture is drawn again without its metadata (catalog.images).
# 4096 x 3072 pixels: a 12-megapixel phone photo fits, and decoding one costs at most ~50 MB.
ART_MAX_BYTES = env_int("ART_MAX_BYTES", 2 * 1024 * 1024)
ART_MAX_PIXELS = env_int("ART_MAX_PIXELS", 4096 * 3072)
ART_FORMATS = ("PNG", "JPEG", "WEBP")

# Every page: only this site's own scripts, styles and images (faces and art are same-origin;
# the editor's live preview shows data: URLs). No inline script anywhere, so no nonce needed.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
}

# Background tasks (pack simulations), through django.tasks. TASKS_BACKEND picks where they run:
# "thread" (the default): a small thread pool inside the web process, nothing else to run;
# "database": queued as rows (django_tasks_db) and run by `python manage.py db_worker`, which
# survives restarts and suits several web processes; "immediate": inline, during the request.
_TASK_BACKENDS = {
    "thread": "cardsite.tasks_backends.ThreadBackend",
    "database": "django_tasks_db.DatabaseBackend",
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
}
_task_backend = env_str("TASKS_BACKEND", "thread") or "thread"
if _task_backend not in _TASK_BACKENDS:
    raise ImproperlyConfigured(
        f"TASKS_BACKEND={_task_backend!r} is not one of {', '.join(_TASK_BACKENDS)}."
    )
# Two queues (accounts/queues.py): "interactive" (a saved card's validation and face: short,
# someone waits) and "default" (simulations, exports, proxy jobs, bulk data: long), each run by
# workers of its own, so bulk work never holds up interactive work. The thread backend's
# options: the threads of the bulk queue (TASKS_THREADS) and of the interactive queue
# (TASKS_INTERACTIVE_THREADS) in each process; under "database", `serve` starts db_workers
# per queue (--task-workers, --interactive-workers).
_task_options: dict[str, Any] = (
    {
        "max_workers": env_limit("TASKS_THREADS", 2),
        "queue_workers": {"interactive": env_limit("TASKS_INTERACTIVE_THREADS", 1)},
    }
    if _task_backend == "thread"
    else {}
)
TASKS = {
    "default": {
        "BACKEND": _TASK_BACKENDS[_task_backend],
        "QUEUES": ["interactive", "default"],
        "OPTIONS": _task_options,
    }
}
# The niceness (0 to 19) `serve` starts the bulk queue's db_workers with, and so the processes
# a simulation plays its games in: under a flood of simulations the cores go to the web
# processes and the interactive worker first.
TASKS_BULK_NICE = env_int("TASKS_BULK_NICE", 10)
if not 0 <= TASKS_BULK_NICE <= 19:
    raise ImproperlyConfigured(f"TASKS_BULK_NICE={TASKS_BULK_NICE} must be between 0 and 19.")

# "default" holds the API's write-throttle counts. CACHE=memory (the default): per process,
# nothing to set up, but with N web processes a user may write N times API_WRITE_RATE.
# CACHE=database: one table (`manage.py createcachetable`) that every process and machine
# shares, so the limit holds exactly. "faces": the rendered card faces (page PNGs and the
# proxy sheets' 300-DPI JPEGs), keyed by document hash and renderer version; on disk, shared
# by the processes of a machine and outliving them (a warm `print_proxies` renders nothing).
_CACHE_BACKENDS = {
    "memory": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "database": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "cardsite_cache",
    },
}
_cache = env_str("CACHE", "memory") or "memory"
if _cache not in _CACHE_BACKENDS:
    raise ImproperlyConfigured(f"CACHE={_cache!r} is not one of {', '.join(_CACHE_BACKENDS)}.")
CACHES: dict[str, dict[str, Any]] = {
    "default": _CACHE_BACKENDS[_cache],
    "faces": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(env_path("FACE_CACHE_DIR", BASE_DIR / ".cache" / "faces")),
        "TIMEOUT": None,
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    },
}

# Limits on expensive requests and background jobs (README's table of variables). Counters
# are kept in the default cache above: exact across processes only with CACHE=database.
# NUM_PROXIES: how many proxies in front of the site append the address they saw to
# X-Forwarded-For (0: the header is ignored and REMOTE_ADDR is the client, since any client
# may write that header). Every per-address limit, the API's throttles included, uses it.
NUM_PROXIES = env_int("NUM_PROXIES", 0)
REST_FRAMEWORK["NUM_PROXIES"] = NUM_PROXIES
# The proxy page's preview: previews a minute per user and per address, the largest custom
# paper side (mm) the site lays out, and how many cards of the page it draws with their faces
# (the others as plain outlines).
PROXY_PREVIEW_PER_MINUTE = env_limit("PROXY_PREVIEW_PER_MINUTE", 60)
PROXY_PAPER_MAX_MM = env_limit("PROXY_PAPER_MAX_MM", 600)
PROXY_PREVIEW_MAX_CARDS = env_limit("PROXY_PREVIEW_MAX_CARDS", 24)
# Proxy PDFs made at once (while the request waits, on the page or the API) an hour per user
# and per address; larger selections are background jobs, bounded by PROXY_JOBS_PER_USER.
PROXY_PDF_PER_HOUR = env_limit("PROXY_PDF_PER_HOUR", 30)
# Set files imported on the import page an hour per user and per address (each one reads and
# checks a whole set; the import_set command is not counted).
SET_IMPORTS_PER_HOUR = env_limit("SET_IMPORTS_PER_HOUR", 20)
# Background jobs a user may have waiting or running at once, and how long a finished proxy
# job's PDF is kept before the worker deletes it.
PROXY_JOBS_PER_USER = env_limit("PROXY_JOBS_PER_USER", 2)
SIMULATIONS_PER_USER = env_limit("SIMULATIONS_PER_USER", 3)
# ...and from one client address, whatever the accounts (the address of the request that
# queued each job is kept on it): fresh accounts from one address share these.
PROXY_JOBS_PER_ADDRESS = env_limit("PROXY_JOBS_PER_ADDRESS", 4)
SIMULATIONS_PER_ADDRESS = env_limit("SIMULATIONS_PER_ADDRESS", 6)
# A saved card's face is drawn by the task worker before anyone asks (prints/drawing.py).
FACES_AHEAD = env_bool("FACES_AHEAD", True)
# The bulk data files are made again by the task worker after the catalog changes.
BULK_DATA_AHEAD = env_bool("BULK_DATA_AHEAD", True)
# ...at most once every this many seconds (changes meanwhile wait for the next run).
BULK_DATA_INTERVAL = env_limit("BULK_DATA_INTERVAL", 60)
# Processes one simulation plays its games in (the statistics do not depend on it).
SIMULATION_JOBS = env_limit("SIMULATION_JOBS", os.cpu_count() or 1)
PROXY_JOB_KEEP_HOURS = env_limit("PROXY_JOB_KEEP_HOURS", 24)
# Tabletop Simulator exports a user may have waiting or running at once, and how long a
# finished one's zip is kept before the worker deletes it.
TTS_EXPORTS_PER_USER = env_limit("TTS_EXPORTS_PER_USER", 2)
TTS_EXPORTS_PER_ADDRESS = env_limit("TTS_EXPORTS_PER_ADDRESS", 4)
TTS_EXPORT_KEEP_HOURS = env_limit("TTS_EXPORT_KEEP_HOURS", 24)
# Games at the table (play/retention.py): a game no one has moved in for this many days is
# deleted (anonymous: dealt by no account; others: dealt by a logged-in user), by the task
# worker at most once every PLAY_PRUNE_INTERVAL seconds after a deal and by `prune_games`;
# a game's log holds at most PLAY_MAX_LOG_MOVES moves, then a move is refused.
PLAY_ANONYMOUS_GAME_DAYS = env_limit("PLAY_ANONYMOUS_GAME_DAYS", 7)
PLAY_GAME_DAYS = env_limit("PLAY_GAME_DAYS", 90)
PLAY_PRUNE_INTERVAL = env_limit("PLAY_PRUNE_INTERVAL", 3600)
PLAY_MAX_LOG_MOVES = env_limit("PLAY_MAX_LOG_MOVES", 2000)
# The site's public address ("https://cards.example.org"), where the Tabletop Simulator saved
# objects' sheet URLs point. Unset: the address of the request that started the export (right
# for one host; set it when the site has several names or sits behind a proxy that rewrites
# the Host header). A scheme and a host (and port) only: the site is served from the root.
SITE_URL = (env_str("SITE_URL", "") or "").rstrip("/")
if SITE_URL and not re.fullmatch(r"https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?", SITE_URL):
    raise ImproperlyConfigured(
        f"SITE_URL={SITE_URL!r} is not a site's address such as https://cards.example.org "
        "(http or https, a host name and an optional port, no path)"
    )
# The pack builder: lines of its "add single cards" field, and ids (include, exclude, copies)
# in one API request.
PACK_BUILDER_MAX_LINES = env_limit("PACK_BUILDER_MAX_LINES", 1000)
PACK_API_MAX_ITEMS = env_limit("PACK_API_MAX_ITEMS", 5000)

# Where `load_catalog` reads when given no path.
CATALOG_FIXTURES_DIR = BASE_DIR / "fixtures" / "sets"

if not DEBUG:
    # HTTPS=true (the default in production): the site is reached over TLS, so cookies are
    # Secure, plain HTTP is redirected and browsers are told to remember it (HSTS). A site
    # behind a TLS-terminating proxy also sets TRUST_X_FORWARDED_PROTO=true. Only a loopback
    # test (the load test) sets HTTPS=false.
    HTTPS = env_bool("HTTPS", True)
    SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", HTTPS)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_SSL_REDIRECT = HTTPS
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    if env_bool("TRUST_X_FORWARDED_PROTO", False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_CONTENT_TYPE_NOSNIFF = True
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
