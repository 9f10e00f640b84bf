"""Django settings. Everything a deployment changes comes from the environment (or .env):
see .env.example. The embedded default is SQLite in var/fogkeeper.sqlite3."""

from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("FOGKEEPER_DEBUG", default=False)
SECRET_KEY = env.str(
    "FOGKEEPER_SECRET_KEY", default="dev-only-insecure-key-set-FOGKEEPER_SECRET_KEY-in-production"
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
    "fogkeeper.registry",
    "fogkeeper.permits",
    "fogkeeper.maintenance",
    "fogkeeper.training",
    "fogkeeper.inspections",
    "fogkeeper.incidents",
    "fogkeeper.billing",
    "fogkeeper.compliance",
    "fogkeeper.enforcement",
    "fogkeeper.web",
    "fogkeeper.portal",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "fogkeeper.config.urls"
WSGI_APPLICATION = "fogkeeper.config.wsgi.application"

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
                "fogkeeper.web.context_processors.agency",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'var' / 'fogkeeper.sqlite3'}")
}
# Connections are kept for this many seconds across requests (0: one per request): starting a
# PostgreSQL backend costs more than most pages' queries. Checked before reuse.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("FOGKEEPER_DB_CONN_MAX_AGE", default=60))
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/Los_Angeles"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "var" / "media")
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
