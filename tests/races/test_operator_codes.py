"""An operator filing trainings and adding employees from many pages at once: each gets a
code of its own, every post is answered (issue 15, item 5)."""

import pytest
from django.test import Client

from fogkeeper.training.models import Employee, Training
from tests.portal.conftest import PIER, olive, today, world  # noqa: F401 (the fixtures)
from tests.races import race, statuses
from tests.records import make_employee

pytestmark = pytest.mark.django_db(transaction=True)
N = 8


def operators(olive, n: int = N) -> list[Client]:  # noqa: F811
    clients = [Client(raise_request_exception=False) for _ in range(n)]
    for client in clients:
        client.force_login(olive)
    return clients


def test_it_numbers_trainings_of_one_day_filed_at_once_apart(olive, world):  # noqa: F811
    rosa = make_employee(world.pier, "E-3", "2025-05-01", name="Rosa Diaz")
    clients, data = operators(olive), {"date": "2025-06-20", "attendees": [rosa.pk]}
    answers = race(N, lambda i: clients[i].post(f"{PIER}training/", data))
    assert statuses(answers) == ["302"] * N, " ".join(statuses(answers))
    codes = Training.objects.filter(establishment=world.pier, date="2025-06-20")
    assert codes.values("code").distinct().count() == N


def test_it_gives_each_employee_added_at_once_a_code_of_their_own(olive, world):  # noqa: F811
    before = Employee.objects.filter(establishment=world.pier).count()
    clients = operators(olive)
    answers = race(
        N,
        lambda i: clients[i].post(
            f"{PIER}employees/new/", {"name": f"Cook {i}", "hired_on": "2025-06-20"}
        ),
    )
    assert statuses(answers) == ["302"] * N, " ".join(statuses(answers))
    codes = Employee.objects.filter(establishment=world.pier).values("code").distinct()
    assert codes.count() == before + N
