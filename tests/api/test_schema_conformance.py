"""schemathesis against the API's own OpenAPI schema: for every operation, requests generated
from the schema (valid ones and invalid ones) get no server error and answers that conform to
the schema (status codes, content types, bodies). Run on the demo program, as each of the
demo's roles in turn, through the WSGI app on PostgreSQL."""

from __future__ import annotations

import io
import os

import hypothesis
import pytest
import schemathesis
import time_machine
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import override_settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance

from fogkeeper.api.agency import HEADER as AGENCY_HEADER
from fogkeeper.config.wsgi import application

AS_OF = "2026-03-02"
ROLES = ["manager", "auditor", "operator", "hauler", "owner"]  # the demo's logins
EXAMPLES = 40  # per operation and phase: the whole run stays well under two minutes

CONFIG = SchemathesisConfig.from_dict(
    {
        # PostgreSQL cannot store a NUL character and every text input refuses one (400): a
        # generated string with one says nothing more (test_inputs.py checks the refusal).
        "generation": {"max-examples": EXAMPLES, "allow-x00": False},
        # Mostly the demo's agencies, so that most calls reach records; any code otherwise.
        "dictionaries": {"agencies": {"values": ["san-clemente", "town"]}},
        "parameters": {
            f"header.{AGENCY_HEADER}": {"dictionary": "agencies", "probability": 0.8},
            "query.agency": {"dictionary": "agencies", "probability": 0.8},
        },
    }
)
# Loaded from the app itself (anonymous may read it), when the tests are collected: before the
# test database exists, so the anonymous rate is counted in a cache of this process meanwhile.
with override_settings(
    CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
):
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application, config=CONFIG)
schema = schema.exclude(
    # issuing a new token would sign the test's own login out
    path="/api/v1/token/",
    method="POST",
)
# A pump-out the schema allows may still be refused by the ordinance's rules, with field
# errors (400): a device that is not the hauler's customer's, a date in the future or
# before the device was installed, a manifest already submitted with other readings.
REFUSED_BY_RULES = {("POST", "/api/v1/services/"): [positive_data_acceptance]}


@pytest.fixture(scope="module")
def tokens(django_db_setup, django_db_blocker):
    """The demo program, loaded once for every operation's test and rolled back after them
    (each test's own changes are rolled back to it in turn)."""
    with (
        django_db_blocker.unblock(),
        time_machine.travel(f"{AS_OF} 10:00 -08:00", tick=False),
        transaction.atomic(),
    ):
        call_command("demo", "--as-of", AS_OF, stdout=io.StringIO())
        users = User.objects.filter(username__in=ROLES)
        yield {user.username: Token.objects.create(user=user).key for user in users}
        transaction.set_rollback(True)


@pytest.fixture
def today(tokens):
    with time_machine.travel(f"{AS_OF} 10:00 -08:00", tick=False):
        yield


@pytest.fixture(scope="module", autouse=True)
def _connection_kept_across_requests():
    """Django closes the database connection at the end of each request, which would end the
    test's transaction; its test client keeps it, and so must a WSGI call from a test."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


@schema.parametrize()
@schema.given(role=st.sampled_from(ROLES))
# The same examples on every run, so that CI does not turn red by chance; set
# FOGKEEPER_SCHEMA_RANDOM=1 to explore new ones.
@hypothesis.settings(
    deadline=None,
    suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture],
    derandomize=not os.environ.get("FOGKEEPER_SCHEMA_RANDOM"),
)
@pytest.mark.django_db
def test_it_conforms_to_its_schema(case, role, tokens, today):
    case.call_and_validate(
        headers={"Authorization": f"Token {tokens[role]}"},
        excluded_checks=REFUSED_BY_RULES.get((case.method.upper(), case.path), []),
    )
