"""How a write's re-evaluation happens (fogkeeper/reevaluation.py): after the commit, not
before; once for many writes of one transaction; never for a write rolled back; loudly where
no app provides it. Each service's own re-evaluation is shown by its area's module here
(test_registry_writes.py and the others)."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from fogkeeper import reevaluation, upcalls
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.maintenance.services import service_record
from fogkeeper.training.services import employee_hire
from tests.records import make_agency, make_device, make_establishment, make_hauler
from tests.reevaluation import open_findings, today

pytestmark = pytest.mark.django_db


def test_a_pump_out_recorded_closes_the_overdue_finding_it_answers():
    fse = make_establishment(make_agency())
    device = make_device(fse, "GT-1", "trap", service_frequency_days=30)
    reevaluation.reevaluate_on_commit(fse)
    overdue = {k for k in open_findings(fse) if k[1] == "GT-1"}
    assert overdue

    service_record(
        device=device, manifest_number="M-1", date=today(fse), hauler=make_hauler(fse.agency, "H-1")
    )

    assert not overdue & open_findings(fse)


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
