"""Guesses at one account's password sent at once: no more passwords are checked than the
sign-in throttle allows (issue 37, item 12: 30 guesses at once let 6 checks through)."""

import threading

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.test import Client

from tests.races import race, statuses
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db(transaction=True)
N = 30


class Gate:
    """Holds every password check until each of the N guesses has either reached its check or
    been answered without one: every guess is past the throttle before any failure is counted,
    the widest the race between the throttle's look and its count can open."""

    def __init__(self):
        self.arrived = 0
        self.checks = 0
        self.condition = threading.Condition()
        self.mine = threading.local()

    def arrive(self) -> None:
        with self.condition:
            self.arrived += 1
            self.condition.notify_all()

    def check(self, original):
        def check_password(user, raw_password):
            self.mine.checked = True
            with self.condition:
                self.checks += 1
            self.arrive()
            with self.condition:
                self.condition.wait_for(lambda: self.arrived >= N, timeout=30)
            return original(user, raw_password)

        return check_password

    def guess(self, client: Client):
        self.mine.checked = False
        try:
            return client.post(
                "/accounts/login/",
                {"username": "alice", "password": "a guess"},
                REMOTE_ADDR="10.0.0.1",
            )
        finally:
            if not self.mine.checked:
                self.arrive()


def test_thirty_guesses_at_once_check_no_more_than_five_passwords(monkeypatch, settings):
    make_user("alice", two_agencies()[0])
    gate = Gate()
    monkeypatch.setattr(
        AbstractBaseUser, "check_password", gate.check(AbstractBaseUser.check_password)
    )
    clients = [Client(raise_request_exception=False) for _ in range(N)]
    answers = race(N, lambda i: gate.guess(clients[i]))
    assert gate.checks <= settings.FOGKEEPER_LOGIN_FAILURES, statuses(answers)
    assert statuses(answers) == ["200"] * 5 + ["429"] * (N - 5), statuses(answers)
