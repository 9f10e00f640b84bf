"""One inspection kept offline sent from many tabs at once (a sync repeated while the first is
still on its way): it is stored once (201), every other send is answered with it (200)."""

import json
import uuid

import pytest
from django.test import Client

from fogkeeper.inspections.models import Inspection
from tests.races import race, statuses
from tests.web.field.test_field_app import ROUTE, SYNC, inspection_of, sc  # noqa: F401 (the fixture)
from tests.web.people import make_user

pytestmark = pytest.mark.django_db(transaction=True)
N = 8


def test_it_stores_an_inspection_sent_from_many_tabs_at_once_once(sc):  # noqa: F811
    ines = make_user("ines", sc)
    clients = [Client(raise_request_exception=False) for _ in range(N)]
    for client in clients:
        client.force_login(ines)
    fse = next(f for f in clients[0].get(ROUTE).json()["establishments"] if f["code"] == "FSE-Z")
    data = json.dumps(inspection_of(fse, client_id=str(uuid.uuid4())))
    answers = race(N, lambda i: clients[i].post(SYNC, {"inspection": data}))
    assert statuses(answers) == ["200"] * (N - 1) + ["201"], " ".join(statuses(answers))
    assert Inspection.objects.filter(code="F-1").count() == 1
