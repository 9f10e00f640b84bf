"""Managers demoting one another, or ending one another's membership, at once: the agency
always keeps a manager, and every refusal is a refusal, not a 500 (issue 15, item 5)."""

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from fogkeeper.web.models import Membership
from fogkeeper.web.people.services import membership_end, membership_role_change
from tests.races import race
from tests.web.people import two_agencies

pytestmark = pytest.mark.django_db(transaction=True)
N = 10


def managers():
    sc, _ = two_agencies()
    people = [User.objects.create_user(f"m{i}") for i in range(N)]  # no password: quick
    return sc, [Membership.objects.create(user=u, agency=sc, role="manager") for u in people]


def test_it_keeps_a_manager_when_every_manager_is_demoted_at_once():
    sc, members = managers()
    done = race(
        N,
        lambda i: membership_role_change(
            membership=members[i], role="clerk", actor=members[(i + 1) % N].user
        ),
    )
    assert sum(isinstance(r, ValidationError) for r in done) == 1, done
    assert Membership.objects.filter(agency=sc, role="manager").count() == 1


def test_it_keeps_a_manager_when_every_manager_is_ended_at_once():
    sc, members = managers()
    done = race(N, lambda i: membership_end(membership=members[i], actor=None))
    assert sum(isinstance(r, ValidationError) for r in done) == 1, done
    assert Membership.objects.filter(agency=sc, role="manager").count() == 1
