"""Things that happened are not recorded as of a day still to come (issue 15, item 12): each
staff form refuses a date after the agency's today with the field's message, and stores
nothing. Today is fixed with time-machine."""

import pytest
import time_machine

from fogkeeper.billing.models import Payment
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import Inspection, Sample
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import GreaseControlDevice, Hauler
from fogkeeper.training.models import Employee, Training
from tests.billing.records import invoice, town_fse
from tests.compliance.records import AS_OF, make_pier_taqueria, make_vista_hermosa_ramen
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db
FUTURE = "2099-01-01 is in the future (today is 2026-12-02)."


@pytest.fixture(autouse=True)
def today():
    with time_machine.travel("2026-12-02 10:00 -08:00", tick=False):
        yield


@pytest.fixture
def alice(client):
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    make_vista_hermosa_ramen(sc)
    sweep_agency(sc, as_of=AS_OF)
    client.force_login(make_user("alice", sc, role="manager"))
    return client


def refused(response, field: str, message: str) -> None:
    assert response.status_code == 400
    assert message in response.context["form"].errors[field][0]


def test_it_refuses_a_training_dated_2099(alice):
    ana = Employee.objects.get(name="Ana Ruiz")
    data = {"code": "T-8", "date": "2099-01-01", "attendees": [ana.pk]}
    refused(alice.post("/establishments/FSE-0042/record/training/", data), "date", FUTURE)
    assert not Training.objects.filter(code="T-8").exists()


def test_it_refuses_a_sample_dated_2099(alice):
    data = {
        "code": "S-1",
        "date": "2099-01-01",
        "device": "",
        "parameter": "oil_and_grease",
        "value": "180",
        "unit": "mg/L",
        "method": "EPA 1664",
    }
    refused(alice.post("/establishments/FSE-0077/record/sample/", data), "date", FUTURE)
    assert not Sample.objects.filter(code="S-1").exists()


def test_it_refuses_a_payment_received_in_2099(client):
    fse = town_fse()
    inv = invoice(fse)
    client.force_login(make_user("clerk", fse.agency, role="clerk"))
    data = {
        "action": "payment",
        "payment-paid_on": "2099-01-01",
        "payment-amount": "100.00",
        "payment-method": "check",
    }
    response = client.post(f"/establishments/{fse.code}/invoices/{inv.code}/", data)
    assert response.status_code == 400
    assert FUTURE in response.content.decode()
    assert not Payment.objects.exists()


def test_it_refuses_a_pump_out_dated_2099(alice):
    data = {
        "device": GreaseControlDevice.objects.get(code="GT-2").pk,
        "date": "2099-01-01",
        "hauler": Hauler.objects.get(code="FSE-0042-H1").pk,
        "manifest_number": "M-900",
        "full_pump_out": "on",
        "gallons_removed": "40",
    }
    response = alice.post("/establishments/FSE-0042/record/service/", data)
    refused(response, "date", "2099-01-01 is in the future.")
    assert not Service.objects.filter(manifest_number="M-900").exists()


def test_it_refuses_an_inspection_dated_2099(alice):
    data = {"code": "I-99", "date": "2099-01-01", "notes": ""}
    response = alice.post("/establishments/FSE-0042/record/inspection/", data)
    assert response.status_code == 400
    assert not Inspection.objects.filter(code="I-99").exists()


def test_it_refuses_an_incident_dated_2099(alice):
    before = Incident.objects.count()
    data = {"code": "O-99", "date": "2099-01-01", "kind": "sso"}
    response = alice.post("/establishments/FSE-0042/record/incident/", data)
    assert response.status_code == 400
    assert Incident.objects.count() == before
