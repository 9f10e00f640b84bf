"""Identical pump-outs submitted at once by the portal's form: one is stored, every other is
answered as the repeat it is (issue 15, item 5)."""

import pytest
from django.test import Client

from fogkeeper.maintenance.models import Service
from tests.portal import haulers
from tests.portal.haulers import SUBMIT
from tests.races import race, statuses

pytestmark = pytest.mark.django_db(transaction=True)
clock, world = haulers.clock, haulers.world  # the fixtures
N = 16


def test_it_answers_each_identical_portal_submission_with_the_customers_page(world):
    clients = [Client(raise_request_exception=False) for _ in range(N)]
    for client in clients:
        client.force_login(world.hank)
    form = haulers.pump_out(world.trap)
    answers = race(N, lambda i: clients[i].post(SUBMIT, form))
    assert statuses(answers) == ["302"] * N, " ".join(statuses(answers))
    assert Service.objects.filter(manifest_number="CP-900").count() == 1
