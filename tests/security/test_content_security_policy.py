"""Content-Security-Policy: our own scripts and styles only, never inline, no framing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from fogkeeper.security.csp import tile_source
from tests.web.people import make_user, two_agencies

# every template, wherever its app or its area of the staff pages keeps it
TEMPLATES = sorted(p for p in Path("fogkeeper").rglob("*.html") if "templates" in p.parts)
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I), "inline script"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "event handler attribute"),
    (re.compile(r"\sstyle\s*=", re.I), "style attribute"),
    (re.compile(r"<style", re.I), "style element"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
]


def directives(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {d.split()[0]: d.split()[1:] for d in header.split("; ")}


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/accounts/login/", "/", "/api/v1/schema/", "/api/v1/docs/"])
def test_it_sends_a_strict_policy_with_every_response(client, url):
    sc, _ = two_agencies()
    client.force_login(make_user("alice", sc))
    policy = directives(client.get(url))
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]


def test_it_reads_the_templates_of_every_area_of_the_staff_pages():
    areas = {p.parts[2] for p in TEMPLATES if p.parts[:2] == ("fogkeeper", "web")}
    assert {"common", "enforcement", "registry", "reports", "permits"} <= areas


@pytest.mark.parametrize("template", TEMPLATES, ids=str)
def test_it_finds_nothing_inline_in_a_template(template):
    text = template.read_text()
    found = [what for pattern, what in INLINE if pattern.search(text)]
    assert found == [], f"{template}: move it into a static file (the CSP refuses it)"


def test_it_lets_the_maps_tiles_in_by_their_origin():
    assert tile_source("https://{s}.tile.example.org/{z}/{x}/{y}.png") == (
        "https://*.tile.example.org"
    )
    assert tile_source("https://tiles.example.org:8443/{z}/{x}/{y}.png") == (
        "https://tiles.example.org:8443"
    )
