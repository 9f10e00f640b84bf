"""Each write service of the program's records (pump-outs and pickups, staff and training,
inspections and samples, incidents, and their imports) evaluates the establishment it changed
again as it commits."""

from __future__ import annotations

import uuid
from datetime import date, timedelta
from decimal import Decimal

import pytest

from fogkeeper.incidents.ciwqs import ciwqs_import
from fogkeeper.incidents.services import incident_match, incident_report, incident_update
from fogkeeper.inspections.offline import Upload, inspection_sync
from fogkeeper.inspections.services import Answer, inspection_record, sample_record
from fogkeeper.inspections.snapshots import establishment_seen, version_of
from fogkeeper.maintenance.manifests import manifests_import
from fogkeeper.maintenance.services import (
    pickup_record,
    service_dispute,
    service_dispute_withdraw,
    service_record,
    service_submit,
)
from fogkeeper.registry.haulers import contract_start
from fogkeeper.training.services import (
    employee_hire,
    employee_leave,
    employee_update,
    training_record,
)
from tests.records import make_device, make_employee, make_hauler, make_incident
from tests.reevaluation import check_write, today
from tests.web.people import make_user

pytestmark = pytest.mark.django_db

DAY = date(2025, 1, 6)


def _pump_out(fse):
    return service_record(
        device=make_device(fse), manifest_number="M-1", date=DAY, hauler=make_hauler(fse.agency)
    )


def _submit(fse):
    device, hauler = make_device(fse), make_hauler(fse.agency)
    contract_start(hauler=hauler, establishment=fse, since=date(2020, 1, 1))
    return lambda: service_submit(
        hauler=hauler,
        device=device,
        manifest_number="M-2",
        date=DAY,
        source="hauler_form",
        today=today(fse),
        full_pump_out=True,
    )


def _inspector(fse):
    return make_user("ines", fse.agency, role="inspector")


def _disputed(fse):
    service, inspector = _pump_out(fse), _inspector(fse)
    service_dispute(service=service, reason="no manifest", raised_on=DAY, actor=inspector)
    return lambda: service_dispute_withdraw(
        service=service, reason="manifest found", withdrawn_on=DAY, actor=inspector
    )


def _manifests(fse):
    make_device(fse)
    contract_start(hauler=make_hauler(fse.agency), establishment=fse, since=date(2020, 1, 1))
    head = "hauler_code,manifest_number,establishment_code,device_code,service_date"
    data = f"{head}\nH-1,M-9,{fse.code},GI-1,{today(fse) - timedelta(days=1)}\n".encode()
    return lambda: manifests_import(agency=fse.agency, data=data, name="m.csv")


def _ciwqs(fse, tmp_path):
    path = tmp_path / "plsd.csv"
    path.write_text(
        "SPILL_ID,START_DT,AGENCY_NOTIFY_DT,SPILL_VOL,ADDRESS,CITY,SPILL_CAUSE\n"
        f"1,06/01/2025,,10,{fse.address},{fse.city},Grease\n",
        encoding="latin-1",
    )
    return lambda: ciwqs_import(agency=fse.agency, path=path)


def _synced(fse):
    """The field app's inspection of `fse`, sent once back online."""
    seen = establishment_seen(fse)
    sent = Upload(
        client_id=uuid.uuid4(),
        version=version_of(seen),
        seen=seen,
        code="F-1",
        date=DAY,
        answers=[Answer("bmp.spill_kit", False)],
    )
    return lambda: inspection_sync(establishment=fse, upload=sent, today=today(fse))


def _stray_spill(fse):
    spill = make_incident(fse, "SSO-1", "2025-03-03")
    spill.establishment = None
    spill.save()
    return lambda: incident_match(incident=spill, establishment=fse, attributed=True)


WRITES = {
    service_record: lambda fse: lambda: _pump_out(fse),
    service_submit: _submit,
    pickup_record: lambda fse: (
        lambda: pickup_record(
            establishment=fse, date=DAY, hauler=make_hauler(fse.agency), gallons=Decimal("20")
        )
    ),
    service_dispute: lambda fse: (
        lambda: service_dispute(
            service=_pump_out(fse), reason="no manifest", raised_on=DAY, actor=_inspector(fse)
        )
    ),
    service_dispute_withdraw: _disputed,
    manifests_import: _manifests,
    employee_hire: lambda fse: (
        lambda: employee_hire(establishment=fse, code="E-1", name="Ana", hired_on=DAY)
    ),
    employee_leave: lambda fse: lambda: employee_leave(employee=make_employee(fse), left_on=DAY),
    employee_update: lambda fse: (
        lambda: employee_update(
            employee=make_employee(fse), name="Ana Ruiz", kitchen_duties=False, contractor=False
        )
    ),
    training_record: lambda fse: (
        lambda: training_record(
            establishment=fse, code="T-1", date=DAY, attendees=[make_employee(fse)]
        )
    ),
    inspection_record: lambda fse: (
        lambda: inspection_record(
            establishment=fse,
            code="I-1",
            date=DAY,
            answers=[Answer("bmp.drain_screens", False, note="missing at prep sink")],
        )
    ),
    inspection_sync: _synced,
    sample_record: lambda fse: (
        lambda: sample_record(
            establishment=fse,
            code="S-1",
            date=DAY,
            parameter="oil_and_grease",
            value=Decimal("120"),
            unit="mg/L",
        )
    ),
    incident_report: lambda fse: (
        lambda: incident_report(agency=fse.agency, code="SSO-1", date=DAY, establishment=fse)
    ),
    incident_update: lambda fse: (
        lambda: incident_update(
            incident=make_incident(fse, "SSO-1", "2025-03-03"), attributed=True, fog_caused=True
        )
    ),
    incident_match: _stray_spill,
    ciwqs_import: _ciwqs,
}


@pytest.mark.parametrize("service", list(WRITES), ids=[f.__name__ for f in WRITES])
def test_the_write_evaluates_its_establishment_again_as_it_commits(service, tmp_path):
    setup = WRITES[service]
    check_write((lambda fse: setup(fse, tmp_path)) if service is ciwqs_import else setup)
