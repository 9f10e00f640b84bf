"""The hauler's API token page: a token issued on request and shown once, the old one then
refused by the API, and each issue an audit row without the token."""

import pytest
from rest_framework.authtoken.models import Token

from fogkeeper.audit.models import AuditEvent

from . import haulers
from .haulers import staff_user

pytestmark = pytest.mark.django_db
clock, world = haulers.clock, haulers.world  # the fixtures

URL = "/portal/hauler/api-token/"


def test_it_says_there_is_no_token_yet(client, world):
    client.force_login(world.hank)
    assert "You have no API token yet." in client.get(URL).content.decode()


def test_it_issues_a_token_shown_once_that_the_api_accepts(client, world):
    client.force_login(world.hank)
    html = client.post(URL, follow=True).content.decode()
    token = Token.objects.get(user=world.hank)
    assert f'<code id="token">{token.key}</code>' in html
    assert token.key not in client.get(URL).content.decode()
    api = client.__class__()
    answer = api.get("/api/v1/token/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert answer.status_code == 200


def test_a_new_token_ends_the_old_one_and_each_is_audited_without_the_key(client, world):
    client.force_login(world.hank)
    client.post(URL)
    old = Token.objects.get(user=world.hank).key
    client.post(URL)
    api = client.__class__()
    assert api.get("/api/v1/token/", HTTP_AUTHORIZATION=f"Token {old}").status_code == 401
    rows = AuditEvent.objects.filter(action__in=("api_token.issue", "api_token.rotate"))
    assert [r.action for r in rows.order_by("pk")] == ["api_token.issue", "api_token.rotate"]
    assert all(old not in str(r.after) for r in rows)


def test_it_is_the_haulers_page_only(client, world):
    client.force_login(staff_user("ines", world.sc))
    assert client.get(URL).status_code == 404
    assert not Token.objects.exists()
