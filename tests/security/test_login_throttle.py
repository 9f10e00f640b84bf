"""Sign-in throttling: five failures for a username from one address within fifteen minutes,
and sign-ins for that username from that address are refused until the window ends."""

from __future__ import annotations

import pytest
import time_machine

from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/accounts/login/"
PAUSED = "Too many failed sign-ins for this username from your address."


@pytest.fixture
def alice():
    sc, _ = two_agencies()
    return make_user("alice", sc)


def sign_in(client, password, username="alice", address="10.0.0.1"):
    return client.post(URL, {"username": username, "password": password}, REMOTE_ADDR=address)


def fail(client, times, **kw):
    for _ in range(times):
        assert sign_in(client, "wrong password", **kw).status_code == 200


def test_it_refuses_even_the_right_password_after_five_failures(client, alice):
    fail(client, 5)
    response = sign_in(client, PASSWORD)
    assert response.status_code == 429
    assert PAUSED in response.content.decode()
    assert "try again in 15 minutes" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_it_still_signs_in_after_four_failures(client, alice):
    fail(client, 4)
    assert sign_in(client, PASSWORD).status_code == 302


def test_it_counts_failures_per_username_and_address(client, alice):
    fail(client, 5, address="10.0.0.2")
    fail(client, 5, username="mallory")
    assert sign_in(client, PASSWORD).status_code == 302


def test_it_forgets_the_failures_after_a_successful_sign_in(client, alice):
    fail(client, 4)
    assert sign_in(client, PASSWORD).status_code == 302
    client.logout()
    fail(client, 4)
    assert sign_in(client, PASSWORD).status_code == 302


def test_it_lets_the_person_try_again_when_the_window_ends(client, alice):
    with time_machine.travel("2026-03-02 09:00 -08:00", tick=False) as traveller:
        fail(client, 5)
        assert sign_in(client, PASSWORD).status_code == 429
        traveller.shift(15 * 60 + 1)
        assert sign_in(client, PASSWORD).status_code == 302


def test_it_guards_the_admin_sign_in_too(client, alice):
    fail(client, 5)
    response = client.post(
        "/admin/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 429
    assert PAUSED in response.content.decode()


def test_it_counts_a_fullwidth_spelling_of_the_username_as_the_username(client, alice):
    fail(client, 5)
    assert sign_in(client, "wrong password", username="ａｌｉｃｅ").status_code == 429
    assert sign_in(client, PASSWORD, username="ａｌｉｃｅ").status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_locks_the_username_after_failures_spelt_in_fullwidth_letters(client, alice):
    fail(client, 3, username="ａｌｉｃｅ")
    fail(client, 2, username="ALICE")
    assert sign_in(client, PASSWORD).status_code == 429


def test_it_refuses_a_fullwidth_spelling_at_the_admin_sign_in_too(client, alice):
    fail(client, 5)
    response = client.post(
        "/admin/login/", {"username": "ａlice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 429


def test_it_pauses_an_address_that_fails_across_many_usernames(client, alice, settings):
    settings.FOGKEEPER_LOGIN_ADDRESS_FAILURES = 8
    for name in ("bob", "carol", "dave", "erin"):
        fail(client, 2, username=name)
    response = sign_in(client, PASSWORD)
    assert response.status_code == 429
    assert "Too many failed sign-ins from your address." in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert sign_in(client, PASSWORD, address="10.0.0.2").status_code == 302


def test_it_pauses_the_address_at_the_admin_sign_in_too(client, alice, settings):
    settings.FOGKEEPER_LOGIN_ADDRESS_FAILURES = 4
    fail(client, 2, username="bob")
    fail(client, 2, username="carol")
    response = client.post(
        "/admin/login/", {"username": "alice", "password": PASSWORD}, REMOTE_ADDR="10.0.0.1"
    )
    assert response.status_code == 429


def test_it_keeps_the_address_count_after_a_successful_sign_in(client, alice, settings):
    settings.FOGKEEPER_LOGIN_ADDRESS_FAILURES = 6
    fail(client, 4, username="bob")
    assert sign_in(client, PASSWORD).status_code == 302
    client.logout()
    fail(client, 2, username="carol")
    assert sign_in(client, PASSWORD).status_code == 429
