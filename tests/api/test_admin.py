"""API tokens in the admin: listed and shown by the first characters of their key only."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


@pytest.fixture
def token():
    return Token.objects.create(user=User.objects.create_user("hal"))


def test_it_lists_tokens_without_their_keys(admin_client, token):
    response = admin_client.get(reverse("admin:api_apitoken_changelist"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "hal" in page and token.key[:6] in page
    assert token.key not in page


def test_it_shows_a_token_without_its_key(admin_client, token):
    url = reverse("admin:api_apitoken_change", args=[token.user_id])
    response = admin_client.get(url)
    assert response.status_code == 200
    assert token.key not in response.content.decode()


def test_it_asks_to_delete_a_token_without_showing_its_key(admin_client, token):
    url = reverse("admin:api_apitoken_delete", args=[token.user_id])
    response = admin_client.get(url)
    assert response.status_code == 200
    assert token.key not in response.content.decode()
    admin_client.post(url, {"post": "yes"})
    assert not Token.objects.exists()


def test_it_issues_a_token_from_the_admin_without_showing_its_key(admin_client):
    user = User.objects.create_user("ivy")
    response = admin_client.post(reverse("admin:api_apitoken_add"), {"user": user.pk}, follow=True)
    key = Token.objects.get(user=user).key
    assert key not in response.content.decode()
