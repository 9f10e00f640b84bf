"""Django settings. Everything a deployment changes comes from the environment (or .env):
see .env.example. The embedded default is SQLite in var/fogkeeper.sqlite3."""

from pathlib import Path

import environ

from fogkeeper.security.caches import atomic_counts, require_shared
from fogkeeper.security.csp import tile_source

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("FOGKEEPER_DEBUG", default=False)
# The default key is for development only: its "django-insecure-" prefix makes
# `manage.py check --deploy` refuse it (security.W009).
SECRET_KEY = env.str(
    "FOGKEEPER_SECRET_KEY",
    default="django-insecure-dev-only-set-FOGKEEPER_SECRET_KEY-in-production",
)
ALLOWED_HOSTS = env.list("FOGKEEPER_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "fogkeeper.audit",
    "fogkeeper.queue",
    "fogkeeper.registry",
    "fogkeeper.permits",
    "fogkeeper.maintenance",
    "fogkeeper.training",
    "fogkeeper.inspections",
    "fogkeeper.incidents",
    "fogkeeper.onboarding",
    "fogkeeper.sewers",
    "fogkeeper.reporting",
    "fogkeeper.billing",
    "fogkeeper.submittals",
    "fogkeeper.compliance",
    "fogkeeper.demo",
    "fogkeeper.enforcement",
    "fogkeeper.filings",
    "fogkeeper.communications",
    "fogkeeper.web",
    "fogkeeper.portal",
    "fogkeeper.security",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "fogkeeper.api",
    # Last, so that FORM_RENDERER finds our django/forms/ templates (fogkeeper/web) first.
    "django.forms",
]

MIDDLEWARE = [
    # first: every response and log line of the request carries its id
    "fogkeeper.security.requests.RequestIdMiddleware",
    # second: a request's queries and time, counted from its first query (the session's)
    "fogkeeper.security.timings.RequestTimingMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "fogkeeper.security.csp.ContentSecurityPolicyMiddleware",
    # Malformed input (NUL, bad encoding, over-long, dates out of range) is a 400 here, once.
    "fogkeeper.security.inputs.MalformedInputMiddleware",
    # before the first middleware that reads the database (sessions): 503 when it is down,
    # 409 for a write the database's unique constraint refused (two at once)
    "fogkeeper.security.errors.FailureAnswerMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # issue 15 item 3: who acted, for the audit rows of changes of who may do what
    "fogkeeper.audit.access.ActorMiddleware",
    "fogkeeper.security.login.LoginThrottleMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "fogkeeper.config.urls"
WSGI_APPLICATION = "fogkeeper.config.wsgi.application"

# Each area of the staff pages keeps its templates beside its code (fogkeeper/web/<area>/
# templates/), the layout and the form templates in fogkeeper/web/common/templates/.
WEB_TEMPLATES = sorted((Path(__file__).resolve().parent.parent / "web").glob("*/templates"))

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [str(folder) for folder in WEB_TEMPLATES],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "fogkeeper.web.common.context_processors.agency",
            ],
        },
    },
]

# Forms render through the project's templates: fogkeeper/web/common/templates/django/forms/
# gives every field the U.S. Web Design System's classes (usa-label, usa-input,
# usa-error-message).
FORM_RENDERER = "django.forms.renderers.TemplatesSetting"

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'var' / 'fogkeeper.sqlite3'}")
}
# Connections are kept for this many seconds across requests (0: one per request): starting a
# PostgreSQL backend costs more than most pages' queries. Checked before reuse.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("FOGKEEPER_DB_CONN_MAX_AGE", default=60))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- the cache (fogkeeper.security.caches) -----------------------------------------------
# Shared by every server process: sign-in failures and API rates are counted in it. By default
# the database's table fogkeeper_cache (made by `migrate`); or FOGKEEPER_CACHE_URL=redis://...
# A per-process cache (locmem, dummy, file) stops the settings from loading unless DEBUG.
CACHES = {"default": env.cache("FOGKEEPER_CACHE_URL", default="dbcache://fogkeeper_cache")}
CACHES = atomic_counts(CACHES)  # counts taken in one step on the database's cache too
require_shared(CACHES, debug=DEBUG)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/Los_Angeles"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "var" / "media")
# Uploaded files are kept with the transaction that stores their record, or removed
# (fogkeeper/uploads.py).
STORAGES = {
    "default": {"BACKEND": "fogkeeper.uploads.KeptStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"
STATIC_ROOT = BASE_DIR / "var" / "static"

# The map's background tiles, e.g. https://tile.example.org/{z}/{x}/{y}.png (empty: no tiles;
# the establishments, sewer segments and overflows still show).
FOGKEEPER_MAP_TILES = env.str("FOGKEEPER_MAP_TILES", default="")
FOGKEEPER_MAP_ATTRIBUTION = env.str("FOGKEEPER_MAP_ATTRIBUTION", default="")

# Mail (reminders to operators): printed on the console unless a backend is configured, e.g.
# FOGKEEPER_EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend with EMAIL_HOST...
EMAIL_BACKEND = env.str(
    "FOGKEEPER_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = env.str("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
DEFAULT_FROM_EMAIL = env.str("FOGKEEPER_FROM_EMAIL", default="fogkeeper@localhost")

# -- protection -------------------------------------------------------------------------
# Served over HTTPS (production): secure cookies, redirect to https, HSTS. Off by default so
# that `make run` and the tests work on http://localhost; `check --deploy` warns until set.
HTTPS = env.bool("FOGKEEPER_HTTPS", default=False)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env.int("FOGKEEPER_HSTS_SECONDS", default=31_536_000) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
# Behind a proxy that terminates TLS and sets X-Forwarded-Proto (only then: the header can
# be forged when the app is reached directly).
if env.bool("FOGKEEPER_BEHIND_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = env.int("FOGKEEPER_SESSION_SECONDS", default=12 * 60 * 60)
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_TRUSTED_ORIGINS = env.list("FOGKEEPER_CSRF_TRUSTED_ORIGINS", default=[])
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

# Content-Security-Policy of every response (fogkeeper.security.csp): scripts and styles
# only from our own static files, no inline script, no framing. The map's tile server, when
# one is set, is the one other origin images come from.
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
if FOGKEEPER_MAP_TILES:
    CONTENT_SECURITY_POLICY["img-src"].append(tile_source(FOGKEEPER_MAP_TILES))

# Sign-in throttling (fogkeeper.security.login): after this many failed sign-ins for one
# username from one address within the window, further attempts are refused until it ends;
# likewise after ADDRESS_FAILURES from one address, whatever the usernames.
FOGKEEPER_LOGIN_FAILURES = env.int("FOGKEEPER_LOGIN_FAILURES", default=5)
FOGKEEPER_LOGIN_ADDRESS_FAILURES = env.int("FOGKEEPER_LOGIN_ADDRESS_FAILURES", default=20)
FOGKEEPER_LOGIN_WINDOW_SECONDS = env.int("FOGKEEPER_LOGIN_WINDOW_SECONDS", default=15 * 60)
# The public enrolment form (fogkeeper.web.people.enrolment) keeps at most this many requests
# from one address in an hour; past them it asks the person to try again later.
FOGKEEPER_ENROLMENTS_PER_HOUR = env.int("FOGKEEPER_ENROLMENTS_PER_HOUR", default=5)

# -- logs and error pages (fogkeeper.security.requests, .errors) ---------------------------
# Every log record goes to standard error as one JSON object a line: time, level, logger,
# message, the request's id, person, agency, path, method, status, and the traceback.
FOGKEEPER_LOG_LEVEL = env.str("FOGKEEPER_LOG_LEVEL", default="INFO")
# Each response says its queries and time in a Server-Timing header (security/timings.py):
# for measuring; off in production, where it would tell anyone how long the database took.
FOGKEEPER_REQUEST_TIMINGS = env.bool("FOGKEEPER_REQUEST_TIMINGS", default=False)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request": {"()": "fogkeeper.security.requests.RequestFilter"}},
    "formatters": {"json": {"()": "fogkeeper.security.requests.JsonFormatter"}},
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "filters": ["request"],
        }
    },
    "root": {"handlers": ["stderr"], "level": FOGKEEPER_LOG_LEVEL},
    "loggers": {
        # in place of Django's own handlers (console in DEBUG, mail to ADMINS)
        "django": {"handlers": ["stderr"], "level": FOGKEEPER_LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        # a PDF's or a font's every step is not news
        "weasyprint": {"level": "WARNING"},
        "fontTools": {"level": "WARNING"},
    },
}
CSRF_FAILURE_VIEW = "fogkeeper.security.errors.csrf_failure"

# -- the REST API (fogkeeper/api) ---------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PARSER_CLASSES": ["fogkeeper.api.parsers.JSONParser"],  # nesting capped
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "fogkeeper.api.pagination.Pages",
    "DEFAULT_THROTTLE_CLASSES": [
        "fogkeeper.api.throttles.AnonThrottle",
        "fogkeeper.api.throttles.UserThrottle",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # errors carry the request's id (fogkeeper.security.errors)
    "EXCEPTION_HANDLER": "fogkeeper.security.errors.api_exception_handler",
}
# Requests per person (or per address, anonymously) the API answers; more get 429.
FOGKEEPER_API_RATES = {
    "anon": env.str("FOGKEEPER_API_RATE_ANON", default="60/minute"),
    "user": env.str("FOGKEEPER_API_RATE_USER", default="1200/minute"),
}
SPECTACULAR_SETTINGS = {
    "TITLE": "fogkeeper API",
    "DESCRIPTION": (
        "Read the records of a FOG program and submit pump-outs. Authenticate with a token "
        "(`Authorization: Token <key>`, from `manage.py api_token USERNAME` or "
        "POST /api/v1/token/). A call acts for the agency named by the "
        "`X-Fogkeeper-Agency` header (or `?agency=`), by default the person's first agency; "
        "what it returns is what the person's role at that agency may read."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "fogkeeper.api.schema.refused_at_the_edge",
    ],
}

# Background work (fogkeeper/config/celery.py). With FOGKEEPER_BROKER_URL set, e.g.
# redis://127.0.0.1:6379/0, tasks go to the workers (`celery -A fogkeeper worker`) and
# `celery -A fogkeeper beat` runs the schedule; unset (the one-command start), every task runs
# inline in the process that asks for it.
CELERY_BROKER_URL = env.str("FOGKEEPER_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
# A task is acknowledged when it has finished, so that a worker that dies mid-task leaves
# it on the queue for another; every task is therefore safe to run twice.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# How long a task taken by a worker that vanished (kill -9, a machine lost) waits before
# Redis gives it to another worker. Longer than the longest task. A page that queues work
# waits for a broker that cannot be reached at most twice (one retry) the connect or the
# answer timeout, then keeps the task for the schedule's tick (fogkeeper/queue): without
# them a silent broker (one that takes the connection and never answers) holds the page for
# good. The answer timeout is longer than the workers' one-second BRPOP.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("FOGKEEPER_BROKER_VISIBILITY_TIMEOUT", default=3600),
    "socket_connect_timeout": env.float("FOGKEEPER_BROKER_CONNECT_TIMEOUT", default=2.0),
    "socket_timeout": env.float("FOGKEEPER_BROKER_TIMEOUT", default=3.0),
}
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("FOGKEEPER_BROKER_CONNECT_TIMEOUT", default=2.0)
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# On Redis a message of priority 0 is handed out before those of higher numbers: a sweep's
# finishing task (its month-end rates) is sent at 0 (FIRST), so that each run completes as
# soon as its own batches are stored rather than behind every batch queued after them.
CELERY_TASK_DEFAULT_PRIORITY = 6
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE = {
    # each agency's nightly sweep and daily reminders, at their hour in the agency's time zone
    # (fogkeeper/compliance/schedule.py); every few minutes, so that a tick lost to a broker
    # restart is made up by the next one
    "agency-schedule": {
        "task": "fogkeeper.schedule.tick",
        "schedule": env.float("FOGKEEPER_SCHEDULE_TICK_SECONDS", default=300.0),
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = str(BASE_DIR / "var" / "celerybeat-schedule")
# Local hours (the agency's time zone) of the nightly sweep and of the daily reminders.
FOGKEEPER_SWEEP_HOUR = env.int("FOGKEEPER_SWEEP_HOUR", default=2)
FOGKEEPER_REMINDER_HOUR = env.int("FOGKEEPER_REMINDER_HOUR", default=7)
# A sweep with no batch finished for this long is taken to have stalled: its batches are
# queued again (they are idempotent), and after SWEEP_DEAD_AFTER it no longer holds the lock.
FOGKEEPER_SWEEP_STALLED_AFTER = env.int("FOGKEEPER_SWEEP_STALLED_AFTER", default=600)
FOGKEEPER_SWEEP_DEAD_AFTER = env.int("FOGKEEPER_SWEEP_DEAD_AFTER", default=6 * 3600)
# An onboarding's worker beats every HEARTBEAT seconds while it reads a file; a run with no
# beat for DEAD_AFTER seconds (its process killed) is shown stopped, to be run again.
FOGKEEPER_ONBOARDING_HEARTBEAT = env.float("FOGKEEPER_ONBOARDING_HEARTBEAT", default=10.0)
FOGKEEPER_ONBOARDING_DEAD_AFTER = env.int("FOGKEEPER_ONBOARDING_DEAD_AFTER", default=45)

# -- upload caps (issue 15, item 7) -------------------------------------------------------
# A hauler's manifest file (the hauler portal): its size, checked before it is read, and its
# rows, counted as it is read; a larger file is refused, naming the limit, and adds nothing.
FOGKEEPER_MANIFEST_MAX_BYTES = env.int("FOGKEEPER_MANIFEST_MAX_BYTES", default=2 * 1024 * 1024)
FOGKEEPER_MANIFEST_MAX_ROWS = env.int("FOGKEEPER_MANIFEST_MAX_ROWS", default=5000)
# An inspection photo: its size, and its pixels as its header declares them (read before
# any decoding); a larger one is refused on the form.
FOGKEEPER_PHOTO_MAX_BYTES = env.int("FOGKEEPER_PHOTO_MAX_BYTES", default=15 * 1024 * 1024)
FOGKEEPER_PHOTO_MAX_PIXELS = env.int("FOGKEEPER_PHOTO_MAX_PIXELS", default=40_000_000)
# An inspection's photos together (the staff form's and one field sync's): how many, and
# their bytes; more is refused in words, naming the limit, and nothing is stored.
FOGKEEPER_INSPECTION_MAX_PHOTOS = env.int("FOGKEEPER_INSPECTION_MAX_PHOTOS", default=20)
FOGKEEPER_INSPECTION_MAX_PHOTO_BYTES = env.int(
    "FOGKEEPER_INSPECTION_MAX_PHOTO_BYTES", default=100 * 1024 * 1024
)
# the most a request's body may declare, refused before it is read (security/inputs.py): an
# inspection's photos at their most, and the form around them
FOGKEEPER_MAX_REQUEST_BYTES = env.int(
    "FOGKEEPER_MAX_REQUEST_BYTES", default=FOGKEEPER_INSPECTION_MAX_PHOTO_BYTES + 8 * 1024 * 1024
)
# The PDF attached to a communication to many establishments (fogkeeper/communications/): a
# larger one is refused on the form, naming the limit, and nothing is sent.
FOGKEEPER_COMMUNICATION_MAX_ATTACHMENT_BYTES = env.int(
    "FOGKEEPER_COMMUNICATION_MAX_ATTACHMENT_BYTES", default=2 * 1024 * 1024
)
