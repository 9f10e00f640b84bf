"""Each write service evaluates the establishment it changed again once its transaction
commits, with no page involved: the establishment's stored status and findings are then the
engine's for the agency's today (fogkeeper/reevaluation.py)."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from fogkeeper import reevaluation, upcalls
from fogkeeper.billing.services import invoice_issue
from fogkeeper.compliance.casefiles.as_json import build_case_file
from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.enforcement.services import case_open
from fogkeeper.incidents.services import incident_report
from fogkeeper.inspections.services import Answer, inspection_record
from fogkeeper.maintenance.manifests import manifests_import
from fogkeeper.maintenance.services import pickup_record, service_record
from fogkeeper.permits.services import permit_issue
from fogkeeper.registry.devices import device_add, food_grinder_install
from fogkeeper.registry.haulers import contract_start
from fogkeeper.registry.services import establishment_close, establishment_update
from fogkeeper.rules import evaluate, parse_case
from fogkeeper.training.services import employee_hire, training_record
from tests.records import make_agency, make_device, make_establishment, make_hauler

pytestmark = pytest.mark.django_db


def _today(fse) -> date:
    return fse.agency.today()


def _open(fse) -> set[tuple[str, str]]:
    return {(f.rule, f.subject) for f in Finding.objects.filter(establishment=fse, open=True)}


def _engine(fse) -> set[tuple[str, str]]:
    report = evaluate(parse_case(build_case_file(fse, _today(fse))))
    return {(f.rule, f.subject) for f in report.findings if f.open}


def _manifest(fse):
    device = make_device(fse, "GI-1")
    hauler = make_hauler(fse.agency, "H-1")
    contract_start(hauler=hauler, establishment=fse, since=date(2020, 1, 1), today=_today(fse))
    ComplianceStatus.objects.filter(establishment=fse).delete()  # the write under test is next
    day = _today(fse) - timedelta(days=1)
    head = "hauler_code,manifest_number,establishment_code,device_code,service_date"
    data = f"{head}\nH-1,M-9,{fse.code},GI-1,{day}\n"
    return manifests_import(agency=fse.agency, data=data.encode(), name="m.csv") and device


# one write of each write service, on an establishment never evaluated before
WRITES = {
    "registry: establishment_update": lambda fse: establishment_update(
        establishment=fse, today=_today(fse), name="Pier Taqueria Two"
    ),
    "registry: establishment_close": lambda fse: establishment_close(
        establishment=fse, closed_on=_today(fse), today=_today(fse)
    ),
    "registry: device_add": lambda fse: device_add(
        establishment=fse,
        code="GT-9",
        kind="trap",
        installed_on=date(2020, 1, 1),
        today=_today(fse),
    ),
    "registry: food_grinder_install": lambda fse: food_grinder_install(
        establishment=fse, installed_on=date(2020, 1, 1), today=_today(fse)
    ),
    "registry: contract_start": lambda fse: contract_start(
        hauler=make_hauler(fse.agency, "H-2"),
        establishment=fse,
        since=date(2020, 1, 1),
        today=_today(fse),
    ),
    "maintenance: service_record": lambda fse: service_record(
        device=make_device(fse, "GI-1"),
        manifest_number="M-1",
        date=date(2025, 1, 6),
        hauler=make_hauler(fse.agency, "H-1"),
        gallons_removed=Decimal("100"),
    ),
    "maintenance: pickup_record": lambda fse: pickup_record(
        establishment=fse,
        date=date(2025, 1, 6),
        hauler=make_hauler(fse.agency, "H-1"),
        gallons=Decimal("20"),
    ),
    "maintenance: manifests_import": _manifest,
    "training: employee_hire": lambda fse: employee_hire(
        establishment=fse, code="E-1", name="Ana", hired_on=date(2025, 1, 6)
    ),
    "training: training_record": lambda fse: training_record(
        establishment=fse,
        code="T-1",
        date=date(2025, 2, 3),
        attendees=[
            employee_hire(establishment=fse, code="E-1", name="Ana", hired_on=date(2025, 1, 6))
        ],
    ),
    "inspections: inspection_record": lambda fse: inspection_record(
        establishment=fse,
        code="I-1",
        date=date(2025, 2, 3),
        answers=[Answer("bmp.drain_screens", False, note="missing at prep sink")],
    ),
    "incidents: incident_report": lambda fse: incident_report(
        agency=fse.agency, code="I-1", date=date(2025, 3, 1), establishment=fse
    ),
    "permits: permit_issue": lambda fse: permit_issue(
        establishment=fse,
        number="SC-9",
        issued_on=date(2025, 1, 1),
        expires_on=date(2027, 12, 31),
        missing_override="issued on paper",
    ),
    "enforcement: case_open": lambda fse: case_open(
        establishment=fse, code="EC-1", opened_on=date(2025, 3, 1)
    ),
    "billing: invoice_issue": lambda fse: _fee(fse),
}


def _fee(fse):
    return invoice_issue(
        establishment=fse,
        code="INV-F1",
        kind="fee",
        noticed_on=date(2025, 9, 1),
        lines=[{"description": "FOG Permit fee", "amount": Decimal("428.00")}],
    )


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_the_write_evaluates_its_establishment_again_as_it_commits(write):
    fse = make_establishment(make_agency())
    assert not ComplianceStatus.objects.filter(establishment=fse).exists()

    WRITES[write](fse)

    status = ComplianceStatus.objects.get(establishment=fse)
    assert status.as_of == _today(fse)
    assert _open(fse) == _engine(fse)


def test_a_pump_out_recorded_closes_the_overdue_finding_it_answers():
    fse = make_establishment(make_agency())
    device = make_device(fse, "GT-1", "trap", service_frequency_days=30)
    reevaluation.reevaluate_on_commit(fse)
    overdue = {k for k in _open(fse) if k[1] == "GT-1"}
    assert overdue

    service_record(
        device=device,
        manifest_number="M-1",
        date=_today(fse),
        hauler=make_hauler(fse.agency, "H-1"),
    )

    assert not overdue & _open(fse)


def test_many_writes_of_one_transaction_evaluate_it_once(monkeypatch):
    fse = make_establishment(make_agency())
    calls = []
    real = upcalls.provider("reevaluate")
    monkeypatch.setitem(upcalls._provided, "reevaluate", lambda *a: calls.append(a) or real(*a))
    with transaction.atomic():
        employee_hire(establishment=fse, code="E-1", name="Ana", hired_on=date(2025, 1, 6))
        employee_hire(establishment=fse, code="E-2", name="Bo", hired_on=date(2025, 1, 6))
        assert calls == []  # not before the commit
    assert calls == [(fse.agency_id, [fse.pk], None)]


def test_a_write_rolled_back_evaluates_nothing():
    fse = make_establishment(make_agency())
    with pytest.raises(RuntimeError), transaction.atomic():
        employee_hire(establishment=fse, code="E-1", name="Ana", hired_on=date(2025, 1, 6))
        raise RuntimeError("refused after the write")
    assert not ComplianceStatus.objects.filter(establishment=fse).exists()


def test_a_process_where_no_app_provides_the_evaluation_fails_loudly(monkeypatch):
    fse = make_establishment(make_agency())
    monkeypatch.delitem(upcalls._provided, "reevaluate")
    with pytest.raises(ImproperlyConfigured, match="no installed app provides reevaluate"):
        employee_hire(establishment=fse, code="E-1", name="Ana", hired_on=date(2025, 1, 6))
