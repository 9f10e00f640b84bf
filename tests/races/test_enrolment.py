"""Enrolment requests submitted and approved from many pages at once: one waiting request
per email, one membership per person and agency, one hauler per new code; every other is a
refusal in words, never a 500 (issue 15, item 5)."""

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.portal.enrolment import enrolment_request_approve, enrolment_request_submit
from fogkeeper.portal.models import EnrolmentRequest
from fogkeeper.registry.models import Hauler
from fogkeeper.web.models import Membership
from tests.portal.conftest import today, world  # noqa: F401 (the fixtures)
from tests.portal.test_enrolment import HAULER, SITE
from tests.races import race
from tests.web.people import make_user

pytestmark = pytest.mark.django_db(transaction=True)
N = 10


def refusals(done: list) -> list[str]:
    return [" ".join(r.messages) for r in done if isinstance(r, ValidationError)]


def test_it_keeps_one_waiting_request_of_an_email_submitted_at_once(world):  # noqa: F811
    done = race(N, lambda i: enrolment_request_submit(agency=world.sc, **HAULER))
    assert len(refusals(done)) == N - 1, done
    assert all("already waiting" in r for r in refusals(done))
    assert EnrolmentRequest.objects.filter(status="waiting").count() == 1


def test_it_approves_a_request_approved_from_many_pages_at_once_once(world):  # noqa: F811
    mona = make_user("mona", world.sc, role="manager")
    req = enrolment_request_submit(agency=world.sc, **HAULER)
    copies = [EnrolmentRequest.objects.get(pk=req.pk) for _ in range(N)]  # each page's own read
    done = race(
        N,
        lambda i: enrolment_request_approve(
            request=copies[i], actor=mona, site=SITE, hauler_code="H-BW"
        ),
    )
    assert len(refusals(done)) == N - 1, done
    assert all("already approved" in r for r in refusals(done)), refusals(done)[0]
    assert Hauler.objects.filter(agency=world.sc, code="H-BW").count() == 1
    assert Membership.objects.filter(agency=world.sc, role="hauler").count() == 1
