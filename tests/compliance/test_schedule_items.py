"""The sweep stores each status's schedule as rows (ScheduleItem) and its next inspection, for
the pages to select in SQL; a single establishment's re-evaluation and the migration too."""

from datetime import date, timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from fogkeeper.compliance.models import ComplianceStatus, Finding, ScheduleItem
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.compliance.runs import sweep_agency
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

    written = [q for q in queries if not q["sql"].startswith("SELECT")]  # the figures count them
    assert not [q for q in written if "compliance_scheduleitem" in q["sql"]]
    assert list(ScheduleItem.objects.order_by("pk").values_list("pk", flat=True)) == before


@pytest.mark.django_db(transaction=True)
def test_it_is_filled_in_by_the_migrations_from_the_stored_schedules():
    executor = MigrationExecutor(connection)
    executor.migrate([("compliance", "0002_sweep")])
    old = executor.loader.project_state([("compliance", "0002_sweep")]).apps
    agency = old.get_model("registry", "Agency").objects.create(code="sc", pack="san-clemente")
    fse = old.get_model("registry", "FoodServiceEstablishment").objects.create(
        agency=agency, code="FSE-1", name="Pier Taqueria", opened_on=date(2005, 1, 1)
    )
    schedule = [
        {"obligation": "gcd.service", "subject": "GI-1", "due": "2025-07-01", "citation": "a"},
        {
            "obligation": "inspection.annual",
            "subject": "FSE-1",
            "due": "2025-09-01",
            "citation": "b",
        },
        {
            "obligation": "inspection.annual",
            "subject": "GI-1",
            "due": "2025-08-01",
            "citation": "b",
        },
    ]
    old.get_model("compliance", "ComplianceStatus").objects.create(
        establishment=fse, as_of=AS_OF, status="compliant", schedule=schedule
    )
    old.get_model("compliance", "Finding").objects.create(
        establishment=fse,
        rule="gcd.service_overdue",
        subject="GI-1",
        severity="violation",
        since=AS_OF,
        open=True,
        citation="a",
        message="m",
        first_seen_on=AS_OF,
        last_seen_on=AS_OF,
    )

    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    status = ComplianceStatus.objects.get(establishment_id=fse.pk)
    assert status.next_inspection_due == date(2025, 8, 1)
    assert items(status.establishment) == [
        ("gcd.service", date(2025, 7, 1)),
        ("inspection.annual", date(2025, 8, 1)),
        ("inspection.annual", date(2025, 9, 1)),
    ]
    assert set(ScheduleItem.objects.values_list("agency_id", flat=True)) == {agency.pk}
    assert set(Finding.objects.values_list("agency_id", flat=True)) == {agency.pk}
