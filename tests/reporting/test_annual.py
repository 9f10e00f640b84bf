"""The annual report's figures on a small San Clemente program built here, each recomputed in the
test straight from the records made (not by the report's own helpers), with records of the
year before and the year after that must be left out.

The program is built once for the module (a transaction rolled back when it ends); each test
runs in a savepoint of it, so what a test writes is undone after it, and is given the
program's records read again."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper.billing.services import invoice_issue, payment_record
from fogkeeper.compliance.models import ComplianceRate, Finding
from fogkeeper.enforcement.models import EnforcementAction, EnforcementCase
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import SewerSegment
from fogkeeper.reporting.annual import YearRefused, annual_report, check_year
from fogkeeper.sewers.models import SegmentCleaning
from tests import databases
from tests.records import (
    d,
    make_agency,
    make_device,
    make_establishment,
    make_inspection,
    make_permit,
    make_service,
)

pytestmark = pytest.mark.django_db

YEAR = 2025
START, END = date(2025, 1, 1), date(2025, 12, 31)
TODAY = date(2026, 6, 30)


@dataclass
class Program:
    agency: object
    fses: dict = field(default_factory=dict)
    permits: list = field(default_factory=list)
    devices: list = field(default_factory=list)
    inspections: list = field(default_factory=list)  # (inspection, access refused)
    services: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    invoices: list = field(default_factory=list)  # (invoice, total)
    payments: list = field(default_factory=list)
    incidents: list = field(default_factory=list)
    segments: dict = field(default_factory=dict)  # segment -> cleaning dates


def _fses(p: Program) -> None:
    a = p.agency
    p.fses["A"] = make_establishment(a, code="FSE-A", name="Pier Taqueria", opened_on="2010-01-01")
    p.fses["B"] = make_establishment(
        a, code="FSE-B", name="Harbor Grill", opened_on="2015-01-01", closed_on="2025-09-01"
    )
    p.fses["C"] = make_establishment(a, code="FSE-C", name="New Noodle", opened_on="2025-04-01")
    p.fses["D"] = make_establishment(a, code="FSE-D", name="Dock Diner", opened_on="2012-01-01")
    p.fses["E"] = make_establishment(a, code="FSE-E", name="Later Cafe", opened_on="2026-02-01")
    p.fses["F"] = make_establishment(
        a, code="FSE-F", name="Gone Grill", opened_on="2010-01-01", closed_on="2024-12-31"
    )
    p.fses["G"] = make_establishment(
        a,
        code="FSE-G",
        name="Juice Bar",
        opened_on="2010-01-01",
        category="limited_food_preparation",
    )


def _permits_and_devices(p: Program) -> None:
    f = p.fses
    p.permits += [
        make_permit(f["A"], "SC-A", issued_on="2024-01-01", expires_on="2028-12-31"),
        make_permit(f["C"], "SC-C", issued_on="2025-04-01", expires_on="2030-03-31"),
        make_permit(
            f["D"],
            "SC-D",
            issued_on="2022-01-01",
            expires_on="2026-12-31",
            suspended_from=d("2025-11-01"),
        ),
        make_permit(f["G"], "SC-G", issued_on="2020-01-01", expires_on="2024-12-31"),
    ]
    p.devices += [
        make_device(f["A"], "GI-1", installed_on="2010-01-01"),
        make_device(
            f["A"], "GT-2", kind="trap", installed_on="2010-01-01", removed_on=d("2025-06-01")
        ),
        make_device(f["A"], "GT-3", kind="trap", installed_on="2018-01-01"),
        make_device(f["B"], "GI-1", installed_on="2015-01-01"),
        make_device(f["C"], "GI-1", installed_on="2025-04-01"),
        make_device(f["D"], "GI-1", installed_on="2012-01-01"),
        make_device(f["E"], "GI-1", installed_on="2026-02-01"),
        make_device(f["F"], "GI-1", installed_on="2010-01-01"),
    ]


def _inspections(p: Program) -> None:
    f = p.fses
    refused = [("inspection.access_refused", False)]
    for fse, code, day, no_access in [
        (f["A"], "I-1", "2024-03-01", False),
        (f["A"], "I-2", "2025-03-10", False),
        (f["B"], "I-1", "2023-05-01", False),
        (f["D"], "I-1", "2024-11-01", True),
        (f["D"], "I-2", "2025-12-01", False),
        (f["G"], "I-1", "2025-02-01", False),
        (f["A"], "I-3", "2026-03-01", False),
    ]:
        p.inspections.append(
            (make_inspection(fse, code, day, refused if no_access else ()), no_access)
        )


def _services(p: Program) -> None:
    gi_a, gi_b, gi_e = p.devices[0], p.devices[3], p.devices[6]
    for device, manifest, day in [
        (gi_a, "M-1", "2024-12-20"),
        (gi_a, "M-2", "2025-01-15"),
        (gi_a, "M-3", "2025-02-20"),
        (gi_a, "M-4", "2025-07-04"),
        (gi_b, "M-5", "2025-03-03"),
        (gi_a, "M-6", "2025-12-31"),
        (gi_a, "M-7", "2026-01-05"),
        (gi_e, "M-8", "2026-03-01"),
    ]:
        p.services.append(make_service(device, manifest, day))


def _notice(day: str) -> dict:
    return {"delivered_on": day, "correct_by": str(d(day) + timedelta(days=30))}


def _order(day: str, amount: str) -> dict:
    return {
        "issued_by": "manager",
        "issued_on": day,
        "served_on": day,
        "amount": amount,
        "class": "records",
        "days": 1,
    }


def _enforcement(p: Program) -> None:
    fse = p.fses["A"]
    case = EnforcementCase.objects.create(establishment=fse, code="C-1", opened_on=d("2024-10-01"))
    for code, kind, level, day, fields in [
        ("PO-0", "penalty_order", "manager", "2024-10-20", _order("2024-10-20", "500.00")),
        ("NNC-0", "notice_of_noncompliance", "inspector", "2024-12-01", _notice("2024-12-01")),
        ("NNC-1", "notice_of_noncompliance", "inspector", "2025-04-01", _notice("2025-04-01")),
        ("NNC-2", "notice_of_noncompliance", "inspector", "2025-04-20", _notice("2025-04-20")),
        ("H-1", "hearing", "manager", "2025-05-15", {"hearing_on": "2025-05-15"}),
        ("PO-1", "penalty_order", "manager", "2025-06-01", _order("2025-06-01", "1250.50")),
        ("NNC-3", "notice_of_noncompliance", "inspector", "2026-01-10", _notice("2026-01-10")),
        ("PO-2", "penalty_order", "manager", "2026-01-20", _order("2026-01-20", "300.00")),
    ]:
        p.actions.append(
            EnforcementAction.objects.create(
                case=case,
                establishment=fse,
                code=code,
                type=kind,
                level=level,
                taken_on=d(day),
                cites="13.30.080",
                fields=fields,
            )
        )


def _money(p: Program) -> None:
    fse = p.fses["A"]
    for code, kind, day, amounts, action in [
        ("P-0", "penalty", "2024-11-01", ["500.00"], "PO-0"),
        ("P-1", "penalty", "2025-06-10", ["1000.00", "250.50"], "PO-1"),
        ("P-2", "penalty", "2026-02-01", ["300.00"], "PO-2"),
        ("F-1", "fee", "2025-03-01", ["120.00"], ""),
    ]:
        lines = [{"description": "Amount", "amount": Decimal(a)} for a in amounts]
        invoice = invoice_issue(
            establishment=fse,
            code=code,
            kind=kind,
            noticed_on=d(day),
            lines=lines,
            enforcement_action=action,
        )
        p.invoices.append((invoice, sum(Decimal(a) for a in amounts)))
    by_code = {i.code: i for i, _ in p.invoices}
    for code, amount, day in [
        ("P-0", "200.00", "2025-02-01"),
        ("P-0", "50.00", "2024-12-01"),
        ("P-1", "250.00", "2025-07-01"),
        ("P-1", "100.00", "2026-01-15"),
        ("F-1", "120.00", "2025-03-15"),
    ]:
        p.payments.append(
            payment_record(
                invoice=by_code[code], paid_on=d(day), amount=Decimal(amount), method="check"
            )
        )


def _incidents(p: Program) -> None:
    f = p.fses
    rows = [
        ("S-1", "2025-02-01", "overflow", 1, "Grease deposition", True, f["A"]),
        ("S-2", "2025-03-01", "spill", 2, "Roots", False, None),
        ("S-3", "2025-05-01", "overflow", 3, "Grease deposition", True, f["B"]),
        ("S-4", "2025-06-01", "spill", 4, "", False, None),
        ("S-5", "2025-07-01", "spill", 4, "Grease deposition", False, None),
        ("S-6", "2025-08-01", "spill", None, "", True, f["A"]),
        ("S-7", "2025-09-01", "blockage", 4, "Grease deposition", True, f["A"]),
        ("S-8", "2024-12-31", "overflow", 1, "Grease deposition", True, f["A"]),
        ("S-9", "2026-01-01", "overflow", 2, "Grease deposition", True, f["A"]),
    ]
    for code, day, kind, category, cause, attributed, fse in rows:
        p.incidents.append(
            Incident.objects.create(
                agency=p.agency,
                establishment=fse,
                code=code,
                date=d(day),
                kind=kind,
                category=category,
                cause=cause,
                fog_caused=cause == "Grease deposition",
                attributed=attributed,
            )
        )
    # the last FOG spill of the year is on record against its establishment but not its fault
    Incident.objects.filter(code="S-5").update(establishment=f["D"])
    p.incidents[4].establishment = f["D"]


def _segments(p: Program) -> None:
    plan = {
        ("SEG-1", 90): ["2024-11-15", "2025-02-10", "2025-05-01", "2025-07-25", "2025-10-20"],
        ("SEG-2", 90): ["2024-12-01", "2025-06-01", "2025-08-01", "2025-10-25"],
        ("SEG-3", 180): ["2025-03-01", "2025-08-01"],
        ("SEG-4", 60): ["2024-12-15", "2025-02-10"],
        ("SEG-5", 365): ["2024-06-01", "2025-05-30", "2026-01-10"],
        ("SEG-6", None): ["2025-04-01"],
        ("SEG-7", 30): [],
    }
    for (code, days), dates in plan.items():
        segment = SewerSegment.objects.create(
            agency=p.agency, code=code, prone_to_blockage=True, cleaning_frequency_days=days
        )
        for day in dates:
            SegmentCleaning.objects.create(
                agency=p.agency,
                segment=segment,
                cleaned_on=d(day),
                crew="Crew 1",
                method="hydro_jet",
                fog_found="light",
            )
        p.segments[segment] = [d(x) for x in dates]


def _findings(p: Program) -> None:
    f = p.fses
    for fse, rule, severity, since, closed in [
        (f["A"], "gcd.service_overdue", "violation", "2025-11-01", None),
        (f["C"], "gcd.service_overdue", "violation", "2025-05-01", "2025-06-01"),
        (f["C"], "inspection.annual_due", "task", "2025-05-01", None),
        (f["D"], "permit.suspended", "violation", "2025-12-31", None),
        (f["B"], "gcd.service_overdue", "violation", "2025-03-01", None),
        (f["G"], "gcd.service_overdue", "violation", "2026-01-02", None),
    ]:
        Finding.objects.create(
            establishment=fse,
            agency=p.agency,
            rule=rule,
            subject=fse.code,
            severity=severity,
            since=d(since),
            open=closed is None,
            closed_on=d(closed) if closed else None,
            citation="13.30",
            message="-",
            first_seen_on=d(since),
            last_seen_on=d(since),
        )


def build_program() -> Program:
    p = Program(agency=make_agency("san-clemente", code="SC"))
    for step in (
        _fses,
        _permits_and_devices,
        _inspections,
        _services,
        _enforcement,
        _money,
        _incidents,
        _segments,
        _findings,
    ):
        step(p)
    return p


def read_again(p: Program) -> Program:
    """The same program with each of its records read again: instances of a test's own."""

    def again(records: list) -> list:
        found = type(records[0]).objects.in_bulk([r.pk for r in records]) if records else {}
        return [found[r.pk] for r in records]

    def again_paired(pairs: list) -> list:
        return list(zip(again([r for r, _ in pairs]), [x for _, x in pairs], strict=True))

    return Program(
        agency=type(p.agency).objects.get(pk=p.agency.pk),
        fses=dict(zip(p.fses, again(list(p.fses.values())), strict=True)),
        permits=again(p.permits),
        devices=again(p.devices),
        inspections=again_paired(p.inspections),
        services=again(p.services),
        actions=again(p.actions),
        invoices=again_paired(p.invoices),
        payments=again(p.payments),
        incidents=again(p.incidents),
        segments={s: list(p.segments[s]) for s in again(list(p.segments))},
    )


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker) -> Program:
    with databases.rolled_back(django_db_blocker, as_committed=True):
        p = build_program()
        databases.check_constraints()
        yield p


@pytest.fixture
def program(built, db) -> Program:
    return read_again(built)


@pytest.fixture
def report(program):
    return annual_report(agency=program.agency, year=YEAR, today=TODAY)


# -- the expected figures, straight from the records -------------------------------------------


def open_on(fse, day) -> bool:
    return fse.opened_on <= day and (fse.closed_on is None or fse.closed_on > day)


def open_during(fse) -> bool:
    return fse.opened_on <= END and (fse.closed_on is None or fse.closed_on > START)


def in_year(day) -> bool:
    return START <= day <= END


def table(report, key) -> dict:
    return {row[0]: row[-1] for row in report[key].table.rows}


def test_it_counts_the_establishments_in_the_program_during_and_at_the_end_of_the_year(
    program, report
):
    during = [f for f in program.fses.values() if open_during(f)]
    at_end = [f for f in program.fses.values() if open_on(f, END)]
    assert report["fses_in_year"].value == len(during) == 5  # A B C D G
    assert report["fses_at_end"].value == len(at_end) == 4  # A C D G


def test_it_counts_those_with_a_current_permit_at_year_end_leaving_out_suspended_and_expired(
    program, report
):
    def current(permit) -> bool:
        suspended = permit.suspended_from is not None and permit.suspended_from <= END
        return permit.issued_on <= END <= permit.expires_on and not suspended

    holders = {p.establishment_id for p in program.permits if current(p)}
    at_end = {f.pk for f in program.fses.values() if open_on(f, END)}
    assert report["fses_permitted"].value == len(holders & at_end) == 2  # A and C
    assert "Discharge Permit" in report["fses_permitted"].label


def test_it_counts_the_devices_in_service_at_year_end_by_the_packs_kind(program, report):
    in_service = [
        g
        for g in program.devices
        if g.installed_on <= END
        and (g.removed_on is None or g.removed_on > END)
        and open_on(g.establishment, END)
    ]
    by_kind = {}
    for g in in_service:
        title = {"interceptor": "Grease interceptor", "trap": "Grease trap"}[g.kind]
        by_kind[title] = by_kind.get(title, 0) + 1
    assert report["devices"].value == len(in_service) == 4
    assert table(report, "devices") == by_kind == {"Grease interceptor": 3, "Grease trap": 1}


def test_it_counts_the_inspections_done_in_the_year(program, report):
    done = [i for i, _ in program.inspections if in_year(i.date)]
    assert report["inspections_done"].value == len(done) == 3


def test_it_counts_the_annual_inspections_due_in_the_year_and_those_done(program, report):
    """Due: one year after the last inspection before the year (one where access was refused
    does not count), else the last permit issued before it, else the opening."""
    due, inspected = 0, 0
    for fse in program.fses.values():
        if not open_during(fse) or fse.category == "limited_food_preparation":
            continue
        before = [
            i.date
            for i, refused in program.inspections
            if i.establishment_id == fse.pk and i.date < START and not refused
        ]
        permits = [
            p.issued_on
            for p in program.permits
            if p.establishment_id == fse.pk and p.issued_on < START
        ]
        base = max(before) if before else max(permits) if permits else fse.opened_on
        if base.replace(year=base.year + 1) <= END:
            due += 1
            inspected += any(
                i.establishment_id == fse.pk and in_year(i.date) for i, _ in program.inspections
            )
    assert report["inspections_due"].value == due == 3  # A, B, D (not C: new; not G: exempt)
    assert list(table(report, "inspections_due").values()) == [due, inspected, due - inspected]
    assert inspected == 2
    assert report["inspections_due"].label == (
        "Annual inspections due in 2025 (Annual Restaurant Grease Inspection)"
    )


def test_it_counts_the_pump_outs_recorded_in_the_year_by_month(program, report):
    dates = [s.date for s in program.services if in_year(s.date)]
    months = table(report, "pump_outs")
    assert report["pump_outs"].value == len(dates) == 5
    assert months["January"] == sum(1 for x in dates if x.month == 1) == 1
    assert months["December"] == 1 and months["June"] == 0 and len(months) == 12


def test_it_counts_compliance_at_year_end_from_the_findings_when_no_rate_is_stored(program, report):
    at_end = [f for f in program.fses.values() if open_on(f, END)]
    violating = {
        f.establishment_id
        for f in Finding.objects.filter(severity="violation")
        if f.since <= END and (f.closed_on is None or f.closed_on > END)
    }
    compliant = [f for f in at_end if f.pk not in violating]
    assert report["compliance"].value == f"{len(compliant)} of {len(at_end)} (50.0%)"
    assert "Counted from the findings" in report["compliance"].how


def test_it_takes_the_stored_december_rate_when_the_sweep_stored_one(program):
    ComplianceRate.objects.create(agency=program.agency, date=END, active=8, compliant=6)
    found = annual_report(agency=program.agency, year=YEAR, today=TODAY)["compliance"]
    assert found.value == "6 of 8 (75.0%)"
    assert "stored for 31 December 2025" in found.how


def test_it_counts_the_enforcement_actions_of_the_year_by_the_packs_titles(program, report):
    titles = {
        "notice_of_noncompliance": "Notice of Non-Compliance",
        "hearing": "Hearing",
        "penalty_order": "Order imposing administrative civil penalties",
    }
    expected = {}
    for a in program.actions:
        if in_year(a.taken_on):
            expected[titles[a.type]] = expected.get(titles[a.type], 0) + 1
    assert table(report, "enforcement") == expected
    assert report["enforcement"].value == sum(expected.values()) == 4


def test_it_sums_the_penalties_assessed_and_collected_in_the_year(program, report):
    assessed = sum(t for i, t in program.invoices if i.kind == "penalty" and in_year(i.noticed_on))
    collected = sum(
        p.amount for p in program.payments if p.invoice.kind == "penalty" and in_year(p.paid_on)
    )
    assert report["penalties_assessed"].value == assessed == Decimal("1250.50")
    assert report["penalties_collected"].value == collected == Decimal("450.00")


def test_it_counts_the_spills_of_the_year_by_category_with_the_uncategorised_apart(program, report):
    spills = [i for i in program.incidents if in_year(i.date) and i.kind != "blockage"]
    by_category = table(report, "spills_by_category")
    for n in (1, 2, 3, 4):
        assert by_category[f"Category {n}"] == sum(1 for i in spills if i.category == n)
    assert by_category["Not categorised"] == sum(1 for i in spills if i.category is None) == 1
    assert report["spills_by_category"].value == len(spills) == 6


def test_it_counts_the_spills_by_cause(program, report):
    spills = [i for i in program.incidents if in_year(i.date) and i.kind != "blockage"]
    causes = table(report, "spills_by_cause")
    assert causes["Grease deposition"] == sum(1 for i in spills if i.cause == "Grease deposition")
    assert causes["Cause not recorded"] == sum(1 for i in spills if not i.cause) == 2
    assert causes["Roots"] == 1


def test_it_counts_the_fog_spills_attributed_to_establishments(program, report):
    spills = [
        i
        for i in program.incidents
        if in_year(i.date)
        and i.kind != "blockage"
        and i.fog_caused
        and i.attributed
        and i.establishment is not None
    ]
    assert report["fog_spills_fses"].value == len(spills) == 2
    rows = report["fog_spills_fses"].table.rows
    assert sorted(r[1] for r in rows) == sorted(i.establishment.code for i in spills)


def test_it_counts_the_segments_cleaned_on_schedule(program, report):
    """On schedule: cleaned in the year, no gap (from the last cleaning before it) longer than
    the frequency, and not overdue on 31 December."""
    on_schedule, scheduled = [], 0
    for segment, dates in program.segments.items():
        days = segment.cleaning_frequency_days
        if days is None:
            continue
        scheduled += 1
        upto = sorted(x for x in dates if x <= END)
        before = [x for x in upto if x < START]
        during = [x for x in upto if x >= START]
        chain = before[-1:] + during
        gaps_ok = all((b - a).days <= days for a, b in zip(chain, chain[1:], strict=False))
        not_overdue = bool(upto) and upto[-1] + timedelta(days=days) >= END
        if during and before and gaps_ok and not_overdue:
            on_schedule.append(segment.code)
    assert on_schedule == ["SEG-1", "SEG-5"]
    assert report["segments_on_schedule"].value == f"{len(on_schedule)} of {scheduled}"
    rows = {r[0]: r for r in report["segments_on_schedule"].table.rows}
    assert rows["SEG-2"][3] == 182 and rows["SEG-2"][-1] == "no"
    assert rows["SEG-7"][4] == "Never cleaned"


def test_every_figure_says_how_it_was_computed(report):
    assert len(report.figures) == 16  # with the requests of San Clemente's requests.yaml
    assert all(f.how and f.label for f in report.figures)


# -- the year running, the years refused -------------------------------------------------------


def test_a_year_not_over_stops_at_the_day_it_is_made_on(program):
    running = annual_report(agency=program.agency, year=2026, today=date(2026, 2, 15))
    assert running.end == date(2026, 2, 15) and not running.complete
    assert running["pump_outs"].value == 1  # M-7 on 5 January; M-8 in March is not yet
    assert "15 February 2026 (the year is not over)" in running["fses_at_end"].label


@pytest.mark.parametrize(
    "text, why",
    [
        ("2008", "began in 2009"),
        ("2027", "has not begun"),
        ("99999", "has not begun"),
        ("twenty", "is not a year"),
        ("", "is not a year"),
    ],
)
def test_it_refuses_a_year_outside_the_program_or_not_a_number(program, text, why):
    with pytest.raises(YearRefused, match=why):
        check_year(program.agency, text, TODAY)


def test_it_takes_the_first_year_of_the_program_and_the_current_one(program):
    assert check_year(program.agency, "2009", TODAY) == 2009
    assert check_year(program.agency, " 2026 ", TODAY) == 2026


def test_the_town_counts_an_annual_inspection_due_per_device():
    town = make_agency("town-10-02", code="T", name="The Town")
    fse = make_establishment(town, code="T-1", opened_on="2023-06-01")
    make_device(fse, "GI-1", installed_on="2023-06-01")
    make_device(fse, "GI-2", installed_on="2023-08-01")
    make_device(fse, "GI-3", installed_on="2025-02-01")  # due in 2026
    make_inspection(fse, "I-1", "2025-03-01")
    found = annual_report(agency=town, year=YEAR, today=TODAY)["inspections_due"]
    assert found.value == 2
    assert found.table.columns[0] == "Devices"
    assert dict((r[0], r[1]) for r in found.table.rows)["Not inspected"] == 0


def test_its_queries_do_not_grow_with_the_program(program):
    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            annual_report(agency=program.agency, year=YEAR, today=TODAY)
        return len(seen)

    before = queries()
    for n in range(5):
        fse = make_establishment(program.agency, code=f"MORE-{n}", opened_on="2020-01-01")
        make_service(make_device(fse, "GI-1", installed_on="2020-01-01"), f"X-{n}", "2025-05-05")
        make_inspection(fse, "I-1", "2025-05-05")
        SewerSegment.objects.create(
            agency=program.agency, code=f"MORE-{n}", cleaning_frequency_days=90
        )
    assert queries() == before
