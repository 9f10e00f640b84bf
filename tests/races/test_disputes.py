"""Staff disputing (or withdrawing the dispute of) one pump-out at once from many pages: one
dispute is opened (or withdrawn), every post is answered (issue 15, item 5)."""

import pytest
from django.test import Client

from fogkeeper.audit.models import AuditEvent
from fogkeeper.maintenance.models import Service, ServiceDispute
from fogkeeper.maintenance.services import service_submit
from tests.portal import haulers
from tests.portal.haulers import staff_user
from tests.races import race, statuses

pytestmark = pytest.mark.django_db(transaction=True)
clock, world = haulers.clock, haulers.world  # the fixtures
N = 12


@pytest.fixture
def service(world, clock) -> Service:
    service, _ = service_submit(
        hauler=world.coastal,
        device=world.trap,
        manifest_number="CP-900",
        date=clock,
        source="hauler_form",
        today=clock,
    )
    return service


@pytest.fixture
def ines(world):
    return staff_user("ines", world.sc)


def inspectors(ines, n: int) -> list[Client]:
    clients = [Client(raise_request_exception=False) for _ in range(n)]
    for client in clients:
        client.force_login(ines)
    return clients


def post_all(ines, service, action: str) -> list:
    url = f"/establishments/FSE-0042/services/{service.pk}/dispute/"
    clients = inspectors(ines, N)
    data = {"action": action, "reason": "No truck on the camera"}
    return race(N, lambda i: clients[i].post(url, data))


def test_it_opens_one_dispute_when_many_are_posted_at_once(ines, service):
    answers = post_all(ines, service, "dispute")
    assert statuses(answers) == ["302"] * N, " ".join(statuses(answers))
    assert ServiceDispute.objects.filter(service=service, withdrawn_on__isnull=True).count() == 1
    assert AuditEvent.objects.filter(action="service.dispute").count() == 1


def test_it_withdraws_the_dispute_once_when_many_withdraw_at_once(ines, service):
    inspectors(ines, 1)[0].post(
        f"/establishments/FSE-0042/services/{service.pk}/dispute/",
        {"action": "dispute", "reason": "Doubt"},
    )
    answers = post_all(ines, service, "withdraw")
    assert statuses(answers) == ["302"] * N, " ".join(statuses(answers))
    assert not ServiceDispute.objects.filter(withdrawn_on__isnull=True).exists()
    assert AuditEvent.objects.filter(action="service.dispute_withdraw").count() == 1
