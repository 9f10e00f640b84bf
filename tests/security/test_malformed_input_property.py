"""A property (issue 15, item 8): hostile values in any path parameter of any URL, and in any
query parameter the views read, never make a server error. As a signed-in manager on every
page, and anonymously on the API. Bounded: 140 requests in all."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.urls import URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

PARAMS = [
    "q",
    "as_of",
    "page",
    "agency",
    "sort",
    "status",
    "year",
    "kind",
    "role",
    "show",
    "weeks",
    "week_page",
    "export",
    "format",
    "refers_to",
    "field",
    "to",
    "owner",
    "action",
    "finding",
    "rule",
    "next",
    "date_from",
    "date_to",
    "establishment",
    "device",
    "hauler",
    "category",
    "source",
    "decision",
    "delivery",
    "first_certified",
    "category",
]
NASTY = [
    "\x00",
    "a\x00b",
    "\x01",
    "\x1b[0m",
    "\x7f",
    "9999-12-01",
    "9999-12-31",
    "0000-01-01",
    "0001-01-01",
    "-1",
    "-99999999999999999999",
    "99999999999999999999",
    "1e308",
    "NaN",
    "2026-02-30",
    "x" * 5000,
    "1" * 300,
    "%ff",
    "%",
    "%zz",
    "é",
    "\u202e",
    "\ud7ff",
]
HOSTILE = st.one_of(
    st.sampled_from(NASTY),
    st.integers().map(str),
    st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=20),
)


def _routes():
    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            else:
                yield prefix + str(p.pattern)

    for route in walk(get_resolver().url_patterns):
        if route.startswith("admin/") or "[\\s\\S]" in route:
            continue
        route = route.replace("^", "").replace("$", "").replace("\\.", ".").replace("/?", "/")
        route = re.sub(r"\(\?P<format>[^)]*\)", "json", route)
        yield "/" + re.sub(r"\(\?P<\w+>[^)]*\)", "<int:pk>", route)


ROUTES = sorted(set(_routes()))
API_ROUTES = [r for r in ROUTES if r.startswith("/api/")]


def _encoded(value: str) -> str:
    """Percent-encoded as UTF-8, except the raw escapes (%ff) meant to be malformed."""
    return value if value.startswith("%") else quote(value, safe="")


def _url(route: str, value: str, param: str, in_path: bool) -> str:
    def fill(m):
        kind = m[1]
        if in_path:
            return _encoded(value)
        return "1" if kind == "int" else ("san-clemente" if kind == "slug" else "FSE-1")

    path = re.sub(r"<(\w+):\w+>", fill, route)
    return f"{path}?{quote(param)}={_encoded(value)}"


@pytest.fixture
def world():
    sc, _ = two_agencies()
    make_establishment(sc, code="FSE-1")
    return make_user("manager", sc, role="manager")


def _never_a_server_error(client, url):
    response = client.get(url)
    assert response.status_code < 500, url


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    route=st.sampled_from(ROUTES),
    param=st.sampled_from(PARAMS),
    value=HOSTILE,
    in_path=st.booleans(),
)
def test_it_never_answers_a_server_error_to_a_manager(client, world, route, param, value, in_path):
    client.force_login(world)
    _never_a_server_error(client, _url(route, value, param, in_path))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    route=st.sampled_from(API_ROUTES),
    param=st.sampled_from(PARAMS),
    value=HOSTILE,
    in_path=st.booleans(),
)
def test_it_never_answers_a_server_error_on_the_api_anonymously(
    client, world, route, param, value, in_path
):
    client.logout()
    _never_a_server_error(client, _url(route, value, param, in_path))
