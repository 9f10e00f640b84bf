"""Without a broker (the one-command start, and the tests), every task runs inline in the
process that queues it and does what its command does; the schedule's tick queues each
agency's jobs at their hour in the agency's time zone, once a local day, and again when one
was queued long ago and never done."""

from __future__ import annotations

from datetime import date, datetime
from io import StringIO
from unittest.mock import patch
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from fogkeeper import queue
from fogkeeper.billing.models import Invoice
from fogkeeper.billing.services import fee_schedule_set
from fogkeeper.billing.tasks import annual_fees
from fogkeeper.compliance import tasks
from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.models import ComplianceStatus, DailyJob, Finding, SweepRun
from fogkeeper.compliance.schedule import REMINDERS, SWEEP, tick
from fogkeeper.portal.models import ReminderSent
from fogkeeper.portal.tasks import send_agency_reminders
from tests.billing.test_annual_fees import SC_FEES
from tests.portal.test_reminders import canyon_deli
from tests.records import make_agency, make_establishment

pytestmark = pytest.mark.django_db

AS_OF = date(2025, 6, 30)
LA = ZoneInfo("America/Los_Angeles")
UTC = ZoneInfo("UTC")
NOON = datetime(2025, 6, 30, 12, 0, tzinfo=LA)


def test_there_is_no_broker_so_tasks_run_inline():
    assert settings.CELERY_BROKER_URL == "" and settings.CELERY_TASK_ALWAYS_EAGER


# re-evaluation


def _stored(agency) -> tuple[list, list]:
    findings = Finding.objects.filter(agency=agency).order_by("pk")
    statuses = ComplianceStatus.objects.filter(establishment__agency=agency).order_by("pk")
    return (
        list(findings.values_list("establishment", "rule", "subject", "since", "open", "due")),
        list(statuses.values_list("establishment", "as_of", "status", "schedule", "next_due")),
    )


def test_reevaluate_stores_what_the_sweep_command_would():
    agency = generate_program(
        establishments=30, years=2, as_of=AS_OF, agency_code="re", pack="san-clemente"
    ).agency
    ids = list(agency.establishments.values_list("pk", flat=True))

    with patch.object(queue, "REEVALUATE_BATCH", 7):
        queue.reevaluate(agency.pk, ids + ids[:3], as_of=AS_OF)
    after_tasks = _stored(agency)
    call_command("sweep", "--agency", agency.code, "--as-of", "2025-06-30", stdout=StringIO())

    assert len(after_tasks[1]) == 30 and after_tasks[0]
    assert _stored(agency) == after_tasks
    run = SweepRun.objects.get(agency=agency)
    assert (run.opened, run.closed, run.changed) == (0, 0, 0)


def test_reevaluate_leaves_out_another_agencys_establishments():
    sc, town = make_agency("san-clemente"), make_agency("town-10-02")
    theirs = make_establishment(town, code="FSE-9")
    queue.reevaluate(sc.pk, [theirs.pk], as_of=AS_OF)
    assert not ComplianceStatus.objects.filter(establishment=theirs).exists()


# the yearly fee invoices


def _invoiced_by_command(agency) -> str:
    out = StringIO()
    call_command(
        "invoice_annual_fees",
        "--agency",
        agency.code,
        "--year",
        "2026",
        "--on",
        "2026-01-15",
        stdout=out,
    )
    return out.getvalue()


def _sc_with_fees(code: str):
    agency = make_agency("san-clemente", code=code)
    fee_schedule_set(agency=agency, effective_on=date(2024, 7, 1), items=SC_FEES)
    for n in (1, 2):
        make_establishment(agency, code=f"FSE-{n}", operator=f"Operator {n}")
    return agency


def test_annual_fees_invoices_as_the_command_does_and_once():
    by_task, by_command = _sc_with_fees("sc-task"), _sc_with_fees("sc-command")

    lines = annual_fees.delay(by_task.pk, 2026, "2026-01-15").get()
    again = annual_fees(by_task.pk, 2026, "2026-02-01")

    expected = _invoiced_by_command(by_command).splitlines()
    assert lines == expected and "Issued: 2 (FSE-1, FSE-2)" in lines
    codes = sorted(Invoice.objects.filter(agency=by_task).values_list("code", flat=True))
    assert codes == ["RGI-2026-FSE-1", "RGI-2026-FSE-2"]
    assert "Already invoiced for 2026: 2 (FSE-1, FSE-2)" in again
    assert Invoice.objects.filter(agency=by_task).count() == 2


def test_annual_fees_says_why_nothing_can_be_invoiced():
    town = make_agency("town-10-02")
    assert annual_fees(town.pk, 2026, "2026-01-15") == [
        f"{town} has no fee schedule in force on 2026-01-15."
    ]
    assert not Invoice.objects.exists()


# reminders


def test_the_reminders_task_sends_once_when_run_twice(mailoutbox):
    fse = canyon_deli(make_agency("san-clemente"))
    daily = DailyJob.objects.create(agency=fse.agency, job=REMINDERS, on=AS_OF, queued_at=NOON)

    outcome = send_agency_reminders.delay(daily.pk).get()
    # the message delivered again before the job was marked done (a worker killed then)
    DailyJob.objects.filter(pk=daily.pk).update(done_at=None)
    again = send_agency_reminders(daily.pk)
    third = send_agency_reminders(daily.pk)

    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["deli@example.org"]
    assert "1 reminder in 1 email; 0 sent before" in outcome
    assert "0 reminders in 0 emails; 1 sent before" in again
    assert third is None  # done
    assert ReminderSent.objects.filter(establishment=fse).count() == 1
    assert DailyJob.objects.get(pk=daily.pk).outcome == again


# the schedule


def _jobs(agency) -> list[tuple]:
    return list(
        DailyJob.objects.filter(agency=agency).order_by("on", "job").values_list("job", "on")
    )


@pytest.fixture
def sc():
    agency = make_agency("san-clemente")
    make_establishment(agency, code="FSE-1")
    return agency


def test_the_sweep_is_queued_at_two_in_the_agencys_time_zone(sc):
    winter = date(2026, 1, 15)
    assert tick(datetime(2026, 1, 15, 1, 59, tzinfo=LA)) == []
    assert tick(datetime(2026, 1, 15, 9, 59, tzinfo=UTC)) == []  # 01:59 PST
    (queued,) = tick(datetime(2026, 1, 15, 2, 0, tzinfo=LA))

    assert (queued.job, queued.on) == (SWEEP, winter)
    run = SweepRun.objects.get(agency=sc)  # run inline: planned, swept, finished
    assert (run.as_of, run.status, run.establishments) == (winter, SweepRun.COMPLETE, 1)
    daily = DailyJob.objects.get(pk=queued.pk)
    assert daily.done_at is not None and daily.outcome == f"sweep run {run.pk}"


def test_in_summer_nine_fifty_nine_utc_is_already_past_two_in_los_angeles(sc):
    (queued,) = tick(datetime(2025, 6, 30, 9, 59, tzinfo=UTC))  # 02:59 PDT
    assert (queued.job, queued.on) == (SWEEP, date(2025, 6, 30))


def test_a_job_is_queued_once_a_local_day(sc):
    tick(datetime(2026, 1, 15, 2, 0, tzinfo=LA))
    assert tick(datetime(2026, 1, 15, 2, 5, tzinfo=LA)) == []
    assert tick(datetime(2026, 1, 15, 23, 59, tzinfo=LA)) != []  # the reminders' hour is past
    assert tick(datetime(2026, 1, 16, 7, 59, tzinfo=UTC)) == []  # 23:59 PST, still the 15th
    assert [j.job for j in tick(datetime(2026, 1, 16, 10, 0, tzinfo=UTC))] == [SWEEP]

    assert _jobs(sc) == [
        (REMINDERS, date(2026, 1, 15)),
        (SWEEP, date(2026, 1, 15)),
        (SWEEP, date(2026, 1, 16)),
    ]
    assert SweepRun.objects.filter(agency=sc, status=SweepRun.COMPLETE).count() == 2


@override_settings(FOGKEEPER_SWEEP_STALLED_AFTER=600)
def test_a_job_queued_and_never_done_is_queued_again_after_the_stalled_delay(sc):
    lost = []  # the messages, lost with the broker: the job is never done
    with patch.object(tasks.nightly_sweep, "delay", lost.append):
        tick(datetime(2026, 1, 15, 2, 0, tzinfo=LA))
        assert tick(datetime(2026, 1, 15, 2, 10, tzinfo=LA)) == []  # 600 s: not yet
        (again,) = tick(datetime(2026, 1, 15, 2, 10, 1, tzinfo=LA))
        assert tick(datetime(2026, 1, 15, 2, 15, tzinfo=LA)) == []  # its clock restarted

    assert lost == [again.pk, again.pk]
    assert again.queued_at == datetime(2026, 1, 15, 2, 10, 1, tzinfo=LA)
    assert not SweepRun.objects.filter(agency=sc).exists()

    (done,) = tick(datetime(2026, 1, 15, 2, 30, tzinfo=LA))  # the broker back: it runs
    assert DailyJob.objects.get(pk=done.pk).done_at is not None
    assert SweepRun.objects.get(agency=sc).status == SweepRun.COMPLETE
    assert tick(datetime(2026, 1, 15, 3, 0, tzinfo=LA)) == []
