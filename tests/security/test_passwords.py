from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError


@pytest.mark.parametrize(
    ("password", "complaint"),
    [
        ("Grease-trap", "at least 12 characters"),
        ("password1234", "too common"),
        ("384756129034", "entirely numeric"),
        ("alice.harbor1", "too similar to the username"),
    ],
)
def test_it_refuses_a_weak_password(password, complaint):
    with pytest.raises(ValidationError, match=complaint):
        validate_password(password, User(username="alice.harbor"))


def test_it_accepts_a_long_passphrase():
    assert validate_password("interceptor pumped every ninety days") is None
