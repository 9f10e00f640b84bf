"""Fixtures of every test."""

from unittest.mock import patch

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test import override_settings
from weasyprint import CSS, HTML

from tests import databases

HTML_INIT, HTML_WRITE, CSS_INIT = HTML.__init__, HTML.write_pdf, CSS.__init__

# The fixtures that give a test the database (the django_db marker gives it too), and the
# one to ask for first: the live server's tests have theirs from transactional_db.
DATABASE_FIXTURES = {
    "db": "db",
    "transactional_db": "transactional_db",
    "live_server": "transactional_db",
}


@pytest.fixture(autouse=True)
def _reevaluate_as_writes_commit():
    with databases.as_if_committed():
        yield


@pytest.fixture(autouse=True)
def _empty_cache(request):
    """Sign-in failures and API request counts live in the cache (the database's table): each
    test with the database starts with none, and leaves none to the next."""
    marker = request.node.get_closest_marker("django_db")
    needs = [DATABASE_FIXTURES[n] for n in DATABASE_FIXTURES if n in request.fixturenames]
    if marker is None and not needs:
        yield
        return
    request.getfixturevalue("_django_db_helper" if marker is not None else needs[0])
    cache.clear()
    yield
    if not connection.needs_rollback:  # a test that ends on a refused write: rolled back anyway
        cache.clear()


def pytest_configure(config):
    if not hasattr(config, "workerinput"):
        databases.run_id()  # before xdist starts the workers, so they inherit it


def pytest_sessionfinish(session):
    if not hasattr(session.config, "workerinput") and session.config.pluginmanager.hasplugin(
        "dsession"
    ):
        databases.drop_template()


@pytest.fixture(scope="session")
def django_db_setup(
    request, django_test_environment, django_db_blocker, django_db_modify_db_settings
):
    """Each xdist worker clones its database from the run's one migrated template
    (tests/databases.py); a run without workers sets up as pytest-django does."""
    from django.test.utils import setup_databases, teardown_databases

    verbosity = request.config.option.verbose
    with django_db_blocker.unblock():
        if databases.uses_templates():
            name = databases.clone_for_worker()
        else:
            created = setup_databases(verbosity=verbosity, interactive=False)
    yield
    with django_db_blocker.unblock():
        if databases.uses_templates():
            databases.drop_worker_database(name)
        else:
            teardown_databases(created, verbosity=verbosity)


@pytest.fixture(scope="session", autouse=True)
def _tables_emptied_by_delete():
    """The tests that commit end by emptying the tables, not by Django's flush."""
    with databases.emptied_by_delete():
        yield


@pytest.fixture(scope="session", autouse=True)
def _quick_password_hashing():
    """PBKDF2's million rounds take 0.4 s a password, at every login made and every sign-in;
    no test is about the strength of the hash (the settings keep it for everyone else)."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session", autouse=True)
def _each_document_laid_out_once():
    """WeasyPrint takes about a sixth of a second to lay out a letter, and the worlds of many
    tests make the same letters, invoices and receipts again: each worker lays out a document
    once for the same markup, base and stylesheets, and gives the same PDF after (still a
    PDF WeasyPrint made of that markup, which the tests read back)."""
    laid_out: dict[tuple, bytes] = {}

    def html_init(self, *args, **kwargs):
        HTML_INIT(self, *args, **kwargs)
        markup = kwargs.get("string")
        self._test_key = None if args or markup is None else (markup, kwargs.get("base_url"))

    def css_init(self, *args, **kwargs):
        CSS_INIT(self, *args, **kwargs)
        self._test_key = None if args else (kwargs.get("filename"), kwargs.get("string"))

    def write_pdf(self, *args, **options):
        sheets = options.get("stylesheets") or ()
        given = sorted((k, repr(v)) for k, v in options.items() if k != "stylesheets")
        key = (self._test_key, *(getattr(sheet, "_test_key", None) for sheet in sheets), *given)
        if args or None in key:  # written to a file, or from a document not read from markup
            return HTML_WRITE(self, *args, **options)
        if key not in laid_out:
            laid_out[key] = HTML_WRITE(self, **options)
        return laid_out[key]

    with (
        patch.object(HTML, "__init__", html_init),
        patch.object(CSS, "__init__", css_init),
        patch.object(HTML, "write_pdf", write_pdf),
    ):
        yield


@pytest.fixture(scope="session", autouse=True)
def _own_media_root(tmp_path_factory):
    """Each worker keeps the files it uploads apart from the others' and from var/media."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")


# The fixtures through which a test reaches a database or a browser; `--quick` (make check)
# runs only the tests that need neither (nor start servers of their own: the servers mark).
SLOW_FIXTURES = {*DATABASE_FIXTURES, "django_db_setup", "page", "browser"}


def pytest_addoption(parser):
    parser.addoption(
        "--quick",
        action="store_true",
        help="only the tests that need no database and no browser (make check)",
    )


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--quick"):
        return
    kept, dropped = [], []
    for item in items:
        slow = (
            item.get_closest_marker("django_db")
            or item.get_closest_marker("servers")
            or SLOW_FIXTURES & set(item.fixturenames)
        )
        (dropped if slow else kept).append(item)
    config.hook.pytest_deselected(items=dropped)
    items[:] = kept
