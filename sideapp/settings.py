"""Side editor settings: one module, everything read from the environment.

A `.env` file at the project root is read first when present (real environment
variables win). See `.env.example` for every variable.
"""
import ipaddress
import os
import secrets
import warnings
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

import dj_database_url
from dotenv import load_dotenv

from sideapp.edits.lock_timing import WEB_TIMEOUT
from sideapp.env import env_bool, env_float, env_int, env_list, env_str
from sideapp.pipeline.names import QUEUES

BASE_DIR = Path(__file__).resolve().parent.parent
load_dotenv(BASE_DIR / ".env", override=False)

DEBUG = env_bool("DEBUG", False)
# No built-in key: with DEBUG off the app refuses to start without one (bin/bootstrap
# writes a random key into .env on a new machine). DEBUG on (local hacking) gets a
# throwaway key instead.
SECRET_KEY = env_str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: put a long random value in .env (bin/bootstrap writes one)")
    SECRET_KEY = "debug-only-" + secrets.token_urlsafe(40)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",  # OpClass in index definitions (trigram search)
    "django_rq",
    "sideapp",
    "sideapp.annotation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The gadget's findings from Redis before sessions, auth or the ORM (sideapp.api.fastpath).
    "sideapp.api.fastpath.fast_findings",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "sideapp.web.middleware.htmx_login_redirect",
]

ROOT_URLCONF = "sideapp.urls"
WSGI_APPLICATION = "sideapp.wsgi.application"

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
                "sideapp.web.context.user_roles",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sideeditor"),
        # Keep a connection per process (a new one per request costs a PostgreSQL fork),
        # checked before reuse so a restarted database is not an error page.
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if env_bool("DB_PREPARED_STATEMENTS", True):
    # Parameters bound by the server: psycopg no longer quotes every value into the SQL in
    # Python, and a statement a connection has run 5 times is prepared (parsed once). Plans
    # stay custom, made for each call's values: a generic plan cannot know how many claims a
    # LIKE pattern matches. Off behind a transaction-pooling proxy (pgbouncer), which cannot
    # keep a connection's prepared statements.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5, options="-c plan_cache_mode=force_custom_plan")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
AUTHENTICATION_BACKENDS = ["sideapp.web.auth.RoleBackend"]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"
# A failed CSRF check is a page of the app with a sentence (handler403/404/500: sideapp/urls.py).
CSRF_FAILURE_VIEW = "sideapp.web.errors.csrf_failure"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False  # htmx reads the token from the page, not the cookie
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Behind HTTPS in production (see README "Deploying"); off for the loopback demo.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
if env_bool("BEHIND_TLS_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- queues (django-rq on Redis) -------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")
RQ_JOB_TIMEOUT = env_int("RQ_JOB_TIMEOUT", 900)
RQ_QUEUES = {name: {"URL": REDIS_URL, "DEFAULT_TIMEOUT": RQ_JOB_TIMEOUT} for name in QUEUES}
RQ_SHOW_ADMIN_LINK = True
# Workers put back work abandoned by a dead worker before they start (sideapp.worker).
RQ = {"WORKER_CLASS": "sideapp.pipeline.worker.SideWorker"}
# The test runner moves the queues here so that tests never feed a running demo worker.
SIDE_TEST_REDIS_URL = env_str("SIDE_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
TEST_RUNNER = "tests.runner.SideTestRunner"

# --- the wiki ----------------------------------------------------------------------
SIDE_WIKI_API_URL = env_str("SIDE_WIKI_API_URL", "http://127.0.0.1:8089/api.php")
SIDE_WIKI_USERNAME = env_str("SIDE_WIKI_USERNAME", "")
SIDE_WIKI_PASSWORD = env_str("SIDE_WIKI_PASSWORD", "")
# Wikimedia's User-Agent policy: name/version (contact) library/version; mwclient appends
# its own "mwclient/x.y". Set SIDE_WIKI_CONTACT to an e-mail or a user page of the operator.
SIDE_WIKI_CONTACT = env_str("SIDE_WIKI_CONTACT", "https://github.com/side-editor")
SIDE_WIKI_USER_AGENT = env_str(
    "SIDE_WIKI_USER_AGENT",
    f"SideEditor/0.1 ({SIDE_WIKI_CONTACT}; citation verification assistant)",
)
# Scans and other background reads send maxlag=N and wait as long as a lagged wiki asks.
SIDE_WIKI_MAXLAG = env_int("SIDE_WIKI_MAXLAG", 5)
SIDE_WIKI_TIMEOUT = env_float("SIDE_WIKI_TIMEOUT", 20.0)
SIDE_WIKI_RETRIES = env_int("SIDE_WIKI_RETRIES", 3)
SIDE_WIKI_BACKOFF = env_float("SIDE_WIKI_BACKOFF", 1.0)
# The web worker's timeout (gunicorn.conf.py's `timeout` reads the same variable, and refuses
# to start the web workers with a SIDE_WIKI_TIMEOUT a save cannot fit in): a save's wait for
# its page's lock and its hold of it fit inside it (sideapp/edits/lock_timing.py). Checked
# there, not here: the RQ workers serve no web request and may be given a longer wiki timeout.
SIDE_WEB_TIMEOUT = env_int("SIDE_WEB_TIMEOUT", WEB_TIMEOUT)
# Where the page locks of saves live (empty: REDIS_URL).
SIDE_LOCK_REDIS_URL = env_str("SIDE_LOCK_REDIS_URL", "")
SIDE_MAX_ARTICLE_BYTES = env_int("SIDE_MAX_ARTICLE_BYTES", 2_000_000)

# --- the public API and the gadget (sideapp/api, sideapp/gadget) --------------------------
# Origins allowed besides the configured wikis' own servers (e.g. a mobile domain:
# https://en.m.wikipedia.org), comma-separated.
SIDE_API_EXTRA_ORIGINS = env_list("SIDE_API_EXTRA_ORIGINS", "")
# POST /api/v1/scan: requests one client may make per window (seconds) before a 429.
SIDE_API_SCAN_LIMIT = env_int("SIDE_API_SCAN_LIMIT", 10)
SIDE_API_SCAN_WINDOW = env_int("SIDE_API_SCAN_WINDOW", 600)
# Seconds browsers and proxies may keep a findings answer (it is per scanned revision).
SIDE_API_FINDINGS_MAX_AGE = env_int("SIDE_API_FINDINGS_MAX_AGE", 60)
# Largest request body the API reads (bytes); a larger one is answered 413 unread.
SIDE_API_MAX_BODY = env_int("SIDE_API_MAX_BODY", 1024 * 1024)
# Reverse proxies in front of Side editor (addresses or CIDRs, comma-separated): from one of
# them, the client is the right-most X-Forwarded-For address that is not a trusted proxy.
# Empty: the connection's own address (REMOTE_ADDR) is the client.
SIDE_TRUSTED_PROXIES = env_list("SIDE_TRUSTED_PROXIES", "")
for _proxy in SIDE_TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError as _exc:
        raise ImproperlyConfigured(f"SIDE_TRUSTED_PROXIES: {_proxy!r} is not an address or CIDR") from _exc
# The address wikis reach Side editor at, written into the gadget (e.g. https://side.example.org);
# empty: the address the gadget was requested at.
SIDE_PUBLIC_URL = env_str("SIDE_PUBLIC_URL", "")

# --- fetching cited sources ------------------------------------------------------------
# Hosts or networks (CIDR) that the SSRF guard lets through although they are private,
# loopback or link-local. Empty in production; the demo and tests list their own server.
SIDE_FETCH_ALLOWLIST = env_list("SIDE_FETCH_ALLOWLIST", "")
SIDE_FETCH_CONNECT_TIMEOUT = env_float("SIDE_FETCH_CONNECT_TIMEOUT", 5.0)
SIDE_FETCH_READ_TIMEOUT = env_float("SIDE_FETCH_READ_TIMEOUT", 15.0)
SIDE_FETCH_MAX_BYTES = env_int("SIDE_FETCH_MAX_BYTES", 10 * 1024 * 1024)
SIDE_FETCH_MAX_REDIRECTS = env_int("SIDE_FETCH_MAX_REDIRECTS", 5)
SIDE_FETCH_USER_AGENT = env_str(
    "SIDE_FETCH_USER_AGENT", "SideEditor/0.1 (citation checker; +https://github.com/side-editor)"
)
SIDE_FETCH_HOST_DELAY = env_float("SIDE_FETCH_HOST_DELAY", 1.0)  # seconds between hits per host
SIDE_FETCH_MAX_AGE_DAYS = env_float("SIDE_FETCH_MAX_AGE_DAYS", 30.0)  # older copies are refetched
SIDE_FETCH_RETRIES = env_int("SIDE_FETCH_RETRIES", 2)  # for transient failures only

# --- web archives: the copy of a page as it was cited (docs/archives.md) -------------------
# "CDX_URL REPLAY_PREFIX[, CDX_URL REPLAY_PREFIX ...]", tried in order; each is reached
# whatever its address (the admin's choice, as the wiki's API URL is).
SIDE_ARCHIVES = env_str("SIDE_ARCHIVES", "https://web.archive.org/cdx/search/cdx https://web.archive.org/web/")
try:
    from verifier_core.fetch.archives import parse_archives as _parse_archives

    _parse_archives(SIDE_ARCHIVES)
except ValueError as _exc:
    raise ImproperlyConfigured(str(_exc)) from _exc
SIDE_ARCHIVE_RATE = env_float("SIDE_ARCHIVE_RATE", 30.0)  # requests per minute to one archive
SIDE_ARCHIVE_MAX_WAIT = env_float("SIDE_ARCHIVE_MAX_WAIT", 30.0)  # longest Retry-After honoured in a job
SIDE_ARCHIVE_LOOKUP_MAX_AGE_DAYS = env_float("SIDE_ARCHIVE_LOOKUP_MAX_AGE_DAYS", 30.0)
# A lookup that ended busy (the archives slow or down) is asked again once this much older.
SIDE_ARCHIVE_RETRY_MINUTES = env_float("SIDE_ARCHIVE_RETRY_MINUTES", 60.0)
SIDE_ARCHIVE_USER_AGENT = env_str(
    "SIDE_ARCHIVE_USER_AGENT", f"SideEditor/0.1 ({SIDE_WIKI_CONTACT}; citation checker reading archived copies)")
# Send live pages that support their claim to the first archive's capture endpoint (Save Page
# Now 2 for the Internet Archive, pywb's recording mode locally), once per URL per N days.
SIDE_ARCHIVE_CAPTURE = env_bool("SIDE_ARCHIVE_CAPTURE", False)
SIDE_ARCHIVE_CAPTURE_DAYS = env_float("SIDE_ARCHIVE_CAPTURE_DAYS", 180.0)
# Workers put back work abandoned by a dead worker at start and then this often (seconds);
# work with no trace at all on the queues is put back once it has waited this long.
SIDE_RECOVERY_INTERVAL = env_int("SIDE_RECOVERY_INTERVAL", 300)
SIDE_RECOVERY_GRACE = env_int("SIDE_RECOVERY_GRACE", 60)
# Patrol (sideapp/patrol, docs/patrol.md): whether a newly known wiki is patrolled (admins
# switch each wiki on /wikis/), how often (seconds) each patrolled wiki's recent changes are
# read, which namespaces, whether bots' edits are checked too, how far back each read
# starts again to catch changes committed late (seconds), the most changes one read takes,
# and how long (days) wikis keep recent changes ($wgRCMaxAge): a cursor older is a gap.
SIDE_PATROL_DEFAULT = env_bool("SIDE_PATROL_DEFAULT", False)
SIDE_PATROL_INTERVAL = env_int("SIDE_PATROL_INTERVAL", 20)
SIDE_PATROL_NAMESPACES = env_str("SIDE_PATROL_NAMESPACES", "0")
SIDE_PATROL_BOTS = env_bool("SIDE_PATROL_BOTS", False)
SIDE_PATROL_OVERLAP = env_int("SIDE_PATROL_OVERLAP", 60)
SIDE_PATROL_BATCH = env_int("SIDE_PATROL_BATCH", 2000)
SIDE_PATROL_RC_MAX_AGE_DAYS = env_float("SIDE_PATROL_RC_MAX_AGE_DAYS", 90.0)

# --- models and indexes -------------------------------------------------------------
def _path(name: str, default: Path) -> Path:
    """A path setting; relative values are taken from the project root."""
    value = Path(env_str(name, "") or default)
    return value if value.is_absolute() else BASE_DIR / value


SIDE_DATA_DIR = _path("SIDE_DATA_DIR", BASE_DIR / "var")
SIDE_INDEX_DIR = _path("SIDE_INDEX_DIR", SIDE_DATA_DIR / "index")
MEDIA_ROOT = _path("SIDE_MEDIA_DIR", SIDE_DATA_DIR / "media")  # uploaded corpus files; never served
DATA_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 10 * 1024 * 1024
SIDE_VERIFIER_DIR = _path("SIDE_VERIFIER_DIR", BASE_DIR / "models" / "verifier")
# The verifier's arithmetic: fp32 (its scores as trained and measured) or int8 (dynamic
# quantisation of its Linear layers at load: faster on CPUs, scores a little different;
# bench/bench_rerank.py --quant prints its agreement with fp32); unset: as the checkpoint's
# config says (the shipped one: fp32). Scores of the two never share a cache entry.
SIDE_VERIFIER_QUANT = env_str("SIDE_VERIFIER_QUANT", "").strip().lower()
if SIDE_VERIFIER_QUANT not in ("", "fp32", "int8"):
    raise ImproperlyConfigured(f"SIDE_VERIFIER_QUANT={SIDE_VERIFIER_QUANT!r}: use fp32 or int8")
# Passage encoder of the corpus index (verifier_core.retrieval.encoders: minilm, minilm-int8,
# static); an index written by another encoder is rebuilt, never mixed. bench_encoding.py
# measures them.
SIDE_ENCODER = env_str("SIDE_ENCODER", "minilm")
SIDE_ENCODER_CACHE = _path("SIDE_ENCODER_CACHE", SIDE_DATA_DIR / "encoders")  # distilled models
os.environ.setdefault("SIDE_ENCODER_CACHE", str(SIDE_ENCODER_CACHE))  # read by verifier_core
# Threads of torch's OpenMP pool sleep when idle instead of spinning: on cores that other
# processes share (a fetch worker, a second model worker, the web), spinning threads fight
# them and a cross-encoder run took 1.8x as long (bench/bench_rerank.py, issue 22); same
# arithmetic, so the same scores. Read when torch loads, which is after settings.
os.environ.setdefault("OMP_WAIT_POLICY", env_str("OMP_WAIT_POLICY", "PASSIVE"))
SIDE_SYNC_BATCH = env_int("SIDE_SYNC_BATCH", 5000)  # passages per published replica version
SIDE_SUGGEST_CANDIDATES = env_int("SIDE_SUGGEST_CANDIDATES", 20)  # retrieved, then reranked
# A suggested page is offered as an edit only when it answered within this many days; an
# older one is fetched again first, and one that no longer answers leaves the suggestions.
SIDE_SUGGESTION_MAX_AGE_DAYS = env_float("SIDE_SUGGESTION_MAX_AGE_DAYS", 30.0)

# --- blind A/B annotation --------------------------------------------------------------
# Long lists count their rows up to this many (then "more than N"; see sideapp/web/paging.py).
SIDE_LIST_COUNT_CAP = env_int("SIDE_LIST_COUNT_CAP", 1000)
SIDE_ANNOTATION_VOTES_PER_ITEM = env_int("SIDE_ANNOTATION_VOTES_PER_ITEM", 5)  # distinct annotators
SIDE_ANNOTATION_ASSIGNMENT_MINUTES = env_int("SIDE_ANNOTATION_ASSIGNMENT_MINUTES", 30)
SIDE_ANNOTATION_GOLD_RATE = env_float("SIDE_ANNOTATION_GOLD_RATE", 0.1)  # share of gold items shown
SIDE_ANNOTATION_PASSAGE_RATE = env_float("SIDE_ANNOTATION_PASSAGE_RATE", 0.1)  # passage controls made
# Items made when a scan ends: "better" (top suggestion outscores the citation, SIDE's
# study), "all" (every claim with a suggestion) or "off".
SIDE_ANNOTATION_AUTO_ITEMS = env_str("SIDE_ANNOTATION_AUTO_ITEMS", "better")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "mwclient": {"level": "WARNING"},
        "urllib3": {"level": "WARNING"},
        "trafilatura": {"level": "ERROR"},  # warns for every empty page it discards
        "faiss": {"level": "WARNING"},  # reports each CPU-specific build it tries
    },
}
WHITENOISE_USE_FINDERS = True  # a handful of static files: serve them from the source folders
warnings.filterwarnings("ignore", message="No directory at")  # STATIC_ROOT exists only after collectstatic
