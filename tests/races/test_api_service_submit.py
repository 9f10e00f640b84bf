"""Identical pump-outs submitted at once by the API: one is stored (201), every other is
answered as the repeat it is (200), as the API documents (issue 15, item 5)."""

import pytest

from fogkeeper.maintenance.models import Service
from tests.api.conftest import api, people, today, world  # noqa: F401 (the fixtures)
from tests.api.test_service_submit import pump_out
from tests.races import race, statuses

pytestmark = pytest.mark.django_db(transaction=True)
N = 16


def test_it_answers_each_identical_api_submission_as_created_or_repeated(people, world):  # noqa: F811
    clients = [api(people["hauler"]) for _ in range(N)]
    for client in clients:
        client.raise_request_exception = False
    answers = race(N, lambda i: clients[i].post("/api/v1/services/", pump_out(world), "json"))
    assert statuses(answers) == ["200"] * (N - 1) + ["201"], " ".join(statuses(answers))
    assert Service.objects.filter(hauler=world.coastal, manifest_number="C-2").count() == 1
