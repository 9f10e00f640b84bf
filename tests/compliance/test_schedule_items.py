"""The sweep stores each status's schedule as rows (ScheduleItem) and its next inspection, for
the pages to select in SQL; a single establishment's re-evaluation and the migration too."""

from datetime import date, timedelta
from importlib import import_module

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper.compliance.models import ComplianceStatus, ScheduleItem
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.compliance.sweep import sweep_agency
from fogkeeper.maintenance.models import Service
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_agency

pytestmark = pytest.mark.django_db


@pytest.fixture
def agency():
    return make_agency()


@pytest.fixture
def pier(agency):
    return make_pier_taqueria(agency)


def items(fse) -> list[tuple[str, date]]:
    return sorted(ScheduleItem.objects.filter(establishment=fse).values_list("obligation", "due"))


def schedule(fse) -> list[tuple[str, date]]:
    status = ComplianceStatus.objects.get(establishment=fse)
    return sorted({(i["obligation"], date.fromisoformat(i["due"])) for i in status.schedule})


def test_it_stores_each_obligation_of_the_schedule_with_its_due_date(agency, pier):
    sweep_agency(agency, as_of=AS_OF)
    assert items(pier) == schedule(pier)
    assert {"gcd.service", "inspection.annual"} <= {obligation for obligation, _ in items(pier)}


def test_it_stores_the_earliest_inspection_due(agency, pier):
    sweep_agency(agency, as_of=AS_OF)
    status = ComplianceStatus.objects.get(establishment=pier)
    due = [d for obligation, d in schedule(pier) if obligation.startswith("inspection.")]
    assert status.next_inspection_due == min(due)


def test_it_moves_the_pump_out_due_when_one_is_recorded_and_evaluated_again(agency, pier):
    sweep_agency(agency, as_of=AS_OF)
    trap = pier.devices.get(code="GT-2")  # every 30 days
    Service.objects.create(device=trap, manifest_number="M-NEW", date=date(2025, 6, 28))

    sweep_establishment(pier, as_of=AS_OF)

    assert items(pier) == schedule(pier)
    assert ("gcd.service", date(2025, 6, 28) + timedelta(days=30)) in items(pier)


def test_it_leaves_the_items_alone_when_the_schedule_is_unchanged(agency, pier):
    sweep_agency(agency, as_of=AS_OF)
    before = list(ScheduleItem.objects.order_by("pk").values_list("pk", flat=True))

    with CaptureQueriesContext(connection) as queries:
        sweep_agency(agency, as_of=date(2025, 7, 1))

    assert not [q for q in queries if "compliance_scheduleitem" in q["sql"]]
    assert list(ScheduleItem.objects.order_by("pk").values_list("pk", flat=True)) == before


def test_the_migration_fills_them_in_from_the_stored_schedules(agency, pier):
    sweep_agency(agency, as_of=AS_OF)
    swept = items(pier), ComplianceStatus.objects.get(establishment=pier).next_inspection_due
    ScheduleItem.objects.all().delete()
    ComplianceStatus.objects.update(next_inspection_due=None)

    import_module("fogkeeper.compliance.migrations.0003_page_columns").backfill(apps, None)

    assert (items(pier), ComplianceStatus.objects.get(establishment=pier).next_inspection_due) == (
        swept
    )
