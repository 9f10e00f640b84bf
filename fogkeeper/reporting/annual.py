"""The annual report of an agency's FOG program: the figures of one calendar year, each with the
agency's words for it and a plain statement of how it was computed (the records counted, the
dates used), as the State's annual report (where the agency's pack names a State pack) and
the auditor ask for them. Spills are counted by the State pack's categories only where there
is one; an agency whose pack names none has its spills counted, and says so.

Every figure is counted in the database, a fixed number of queries whatever the size of the
program. A year not over yet is reported up to the day it is asked on: what is "at year end"
is then on that day, and the report says so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import (
    BooleanField,
    Count,
    DateField,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    Window,
)
from django.db.models.functions import Coalesce, DenseRank, ExtractMonth, Greatest
from django.utils import timezone

from fogkeeper.billing.models import Invoice, InvoiceLine, Payment
from fogkeeper.compliance.models import ComplianceRate
from fogkeeper.compliance.rates import rate_counts
from fogkeeper.enforcement.models import EnforcementAction
from fogkeeper.filings.selectors import year_summary
from fogkeeper.incidents.models import CATEGORIES, Incident
from fogkeeper.incidents.reporting_pack import ReportingPack, of_agency
from fogkeeper.inspections.models import Inspection
from fogkeeper.maintenance.models import Service
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.sewers.selectors import cleaning_states
from fogkeeper.submittals.selectors import report_counts

SPILL_KINDS = ("overflow", "spill")  # a blockage that spilled nothing is no spill
STEP_TITLES = {"hearing": "Hearing", "appeal": "Appeal", "court_judgment": "Court judgment"}
ACCESS_REFUSED = "inspection.access_refused"  # as the engine's inspection check reads it
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
ZERO = Decimal("0.00")


class YearRefused(ValueError):
    """A year the report cannot be made for, with the reason in words."""


@dataclass
class Table:
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]


@dataclass
class Figure:
    key: str
    label: str
    value: Any
    how: str
    table: Table | None = None
    money: bool = False


@dataclass
class AnnualReport:
    agency: Agency
    year: int
    start: date
    end: date  # 31 December, or the day the report was made on while the year runs
    made_on: date
    figures: list[Figure] = field(default_factory=list)
    state: ReportingPack | None = None  # the agency's State pack; None: its pack names none

    @property
    def complete(self) -> bool:
        return self.end == date(self.year, 12, 31)

    @property
    def end_words(self) -> str:
        """ "year end" in words: 31 December, or the day the report stops at."""
        if self.complete:
            return f"year end ({self.end:%-d %B %Y})"
        return f"{self.end:%-d %B %Y} (the year is not over)"

    def __getitem__(self, key: str) -> Figure:
        for f in self.figures:
            if f.key == key:
                return f
        raise KeyError(key)


def first_year(agency: Agency) -> int:
    """The first year of the agency's program: its ordinance took effect in it."""
    return agency.get_pack().effective.year


def check_year(agency: Agency, text: Any, today: date) -> int:
    """The year asked for, as a number from the program's first year to the current one."""
    try:
        year = int(str(text).strip())
    except ValueError:
        example = f"e.g. {today.year}"
        raise YearRefused(f"“{text}” is not a year: give it as four digits, {example}.") from None
    first = first_year(agency)
    if year < first:
        raise YearRefused(
            f"{agency.name}'s program began in {first} ({agency.get_pack().ordinance}); "
            f"choose {first} or later."
        )
    if year > today.year:
        raise YearRefused(f"{year} has not begun: choose {today.year} or earlier.")
    return year


def annual_report(*, agency: Agency, year: int, today: date | None = None) -> AnnualReport:
    """The figures of `agency`'s FOG program for calendar `year` (check_year first)."""
    today = today or timezone.localdate()
    report = AnnualReport(
        agency=agency,
        year=year,
        start=date(year, 1, 1),
        end=min(date(year, 12, 31), today),
        made_on=today,
        state=of_agency(agency),
    )
    pack = agency.get_pack()
    for build in BUILDERS:
        report.figures.extend(build(report, agency, pack))
    return report


# -- establishments, permits, devices -------------------------------------------------------


def _open_on(day: date, prefix: str = "") -> Q:
    """Open on `day`: from its opening to the day before its closing (as rates.py counts)."""
    return Q(**{f"{prefix}opened_on__lte": day}) & (
        Q(**{f"{prefix}closed_on__isnull": True}) | Q(**{f"{prefix}closed_on__gt": day})
    )


def _open_during(start: date, end: date, prefix: str = "") -> Q:
    return Q(**{f"{prefix}opened_on__lte": end}) & (
        Q(**{f"{prefix}closed_on__isnull": True}) | Q(**{f"{prefix}closed_on__gt": start})
    )


def _permit_current_on(day: date) -> Q:
    """A permit in force on `day`: issued, not expired, ended, revoked or suspended."""
    suspended = Q(suspended_from__lte=day) & (
        Q(suspended_until__isnull=True) | Q(suspended_until__gte=day)
    )
    return (
        Q(issued_on__lte=day, expires_on__gte=day)
        & (Q(ended_on__isnull=True) | Q(ended_on__gt=day))
        & (Q(revoked_on__isnull=True) | Q(revoked_on__gt=day))
        & ~suspended
    )


def _establishments(r: AnnualReport, agency, pack) -> list[Figure]:
    """The establishments of the year and at its end, and of those the ones with a permit in
    force (no such line for a pack without permits)."""
    permit = pack.titles.get("permit", "Permit")
    current = Permit.objects.filter(_permit_current_on(r.end), establishment=OuterRef("pk"))
    counts = FoodServiceEstablishment.objects.filter(agency=agency).aggregate(
        during=Count("pk", filter=_open_during(r.start, r.end)),
        at_end=Count("pk", filter=_open_on(r.end)),
        permitted=Count("pk", filter=_open_on(r.end) & Q(Exists(current))),
    )
    opened = (
        "opened on or before that day and not closed by it (a closing date is the first day closed)"
    )
    figures = [
        Figure(
            "fses_in_year",
            f"Food service establishments in the program during {r.year}",
            counts["during"],
            f"Establishments on {agency.name}'s register open on at least one day from "
            f"{r.start:%-d %B} to {r.end:%-d %B %Y}: opened on or before the last day and not "
            "closed before the first (exempt ones included, as the compliance rate counts them).",
        ),
        Figure(
            "fses_at_end",
            f"Food service establishments in the program at {r.end_words}",
            counts["at_end"],
            f"Establishments on the register open on {r.end:%-d %B %Y}: {opened}.",
        ),
        Figure(
            "fses_permitted",
            f"Of those, with a current {permit} at {r.end_words}",
            counts["permitted"],
            f"Establishments open on {r.end:%-d %B %Y} holding a {permit} issued on or before "
            "that day that had not expired, ended (a new operator, a renewal), been revoked, "
            "or been suspended on it.",
        ),
    ]
    return figures if pack.has_permits else figures[:-1]


def _devices(r: AnnualReport, agency, pack) -> list[Figure]:
    rows = (
        GreaseControlDevice.objects.filter(establishment__agency=agency)
        .filter(_open_on(r.end, "establishment__"), installed_on__lte=r.end)
        .filter(Q(removed_on__isnull=True) | Q(removed_on__gt=r.end))
        .values("kind")
        .annotate(n=Count("pk"))
        .order_by("kind")
    )
    table = [(pack.kind_title(row["kind"]), row["n"]) for row in rows]
    return [
        Figure(
            "devices",
            f"Grease control devices in service at {r.end_words}",
            sum(n for _, n in table),
            f"Devices installed on or before {r.end:%-d %B %Y} and not removed by then, at "
            "establishments open that day, counted by the kind the ordinance names.",
            Table(("Kind", "Devices"), table),
        )
    ]


# -- inspections and pump-outs ---------------------------------------------------------------


def _inspections_done(r: AnnualReport, agency, pack) -> list[Figure]:
    done = Inspection.objects.filter(
        establishment__agency=agency, date__gte=r.start, date__lte=r.end
    ).aggregate(n=Count("pk"), places=Count("establishment", distinct=True))
    return [
        Figure(
            "inspections_done",
            f"Inspections done in {r.year}",
            done["n"],
            f"The agency's inspections on record dated from {r.start:%-d %B} to "
            f"{r.end:%-d %B %Y}, at {done['places']} establishment"
            f"{'' if done['places'] == 1 else 's'}.",
        )
    ]


def _last_counted_inspection(before: date, establishment: str):
    refused = Inspection.objects.filter(
        pk=OuterRef("pk"), answers__item=ACCESS_REFUSED, answers__compliant=False
    )
    return Subquery(
        Inspection.objects.filter(establishment=OuterRef(establishment), date__lt=before)
        .filter(~Exists(refused))
        .order_by("-date")
        .values("date")[:1]
    )


def _last_permit(before: date, establishment: str):
    return Subquery(
        Permit.objects.filter(establishment=OuterRef(establishment), issued_on__lt=before)
        .order_by("-issued_on")
        .values("issued_on")[:1]
    )


def _inspections_due(r: AnnualReport, agency, pack) -> list[Figure]:
    title = pack.obligations.get("inspection.annual", "Annual inspection")
    label = f"Annual inspections due in {r.year} ({title})"
    if not pack.has("inspection.annual_due"):
        return [Figure("inspections_due", label, 0, f"{pack.name} sets no annual inspection.")]
    params = pack.params_on(max(r.end, pack.effective))
    interval = params.duration("inspection.annual_interval")
    year_end = date(r.year, 12, 31)
    cutoff = pack.calendar.subtract(year_end, interval)
    per_device = params["inspection.annual_scope"] != "establishment"
    exempt = Q(category__in=params.get("applicability.exempt_categories", []) or [])
    if params.get("applicability.exempt_off_public_sewer", False):
        exempt |= Q(on_public_sewer=False)
    prefix = "establishment__" if per_device else ""
    subjects = (
        GreaseControlDevice.objects.filter(establishment__agency=agency)
        .filter(installed_on__lte=r.end)
        .filter(Q(removed_on__isnull=True) | Q(removed_on__gt=r.start))
        .exclude(establishment__in=FoodServiceEstablishment.objects.filter(exempt, agency=agency))
        if per_device
        else FoodServiceEstablishment.objects.filter(agency=agency).exclude(exempt)
    )
    own = "establishment_id" if per_device else "pk"
    opened = (
        Greatest(F("establishment__opened_on"), F("installed_on")) if per_device else F("opened_on")
    )
    done_in_year = Inspection.objects.filter(
        establishment=OuterRef(own), date__gte=r.start, date__lte=r.end
    )
    counts = (
        subjects.filter(_open_during(r.start, r.end, prefix))
        .annotate(
            base=Greatest(
                Coalesce(
                    _last_counted_inspection(r.start, own), _last_permit(r.start, own), opened
                ),
                Value(pack.effective, output_field=DateField()),
            )
        )
        .filter(base__lte=cutoff)
        .aggregate(due=Count("pk"), inspected=Count("pk", filter=Q(Exists(done_in_year))))
    )
    scope = "device" if per_device else "establishment"
    cited = params.reference("inspection.annual_interval")
    permit = pack.titles.get("permit", "permit")
    issued = f"after its last {permit} issued before the year, or else " if pack.has_permits else ""
    how = (
        f"Each {scope} in the program during {r.year} (not exempt) whose {title} fell due on "
        f"or before 31 December {r.year} ({cited}: {interval} after its last inspection before "
        f"the year, or, if none, {issued}its opening"
        f"{' or installation' if per_device else ''}, as the engine's schedule counts it; "
        "one already overdue on 1 January is due in the year too), counted once. "
        f"An inspection at which access was refused does not count."
    )
    table = [
        ("Due in the year", counts["due"]),
        (f"Inspected in {r.year} (to {r.end:%-d %B})", counts["inspected"]),
        ("Not inspected", counts["due"] - counts["inspected"]),
    ]
    return [
        Figure(
            "inspections_due",
            label,
            counts["due"],
            how,
            Table((scope.capitalize() + "s", "Count"), table),
        )
    ]


def _pump_outs(r: AnnualReport, agency, pack) -> list[Figure]:
    by_month = dict(
        Service.objects.filter(
            device__establishment__agency=agency, date__gte=r.start, date__lte=r.end
        )
        .annotate(month=ExtractMonth("date"))
        .values("month")
        .annotate(n=Count("pk"))
        .values_list("month", "n")
    )
    table = [(MONTHS[m - 1], by_month.get(m, 0)) for m in range(1, r.end.month + 1)]
    return [
        Figure(
            "pump_outs",
            f"Pump-outs recorded in {r.year}",
            sum(by_month.values()),
            f"Pump-outs (services) of grease control devices dated from {r.start:%-d %B} to "
            f"{r.end:%-d %B %Y}, whoever recorded them (staff, a manifest import or the hauler), "
            "disputed ones included, by the month of the pump-out.",
            Table(("Month", "Pump-outs"), table),
        )
    ]


# -- compliance and enforcement --------------------------------------------------------------


def _compliance(r: AnnualReport, agency, pack) -> list[Figure]:
    stored = (
        ComplianceRate.objects.filter(agency=agency, date=r.end).first() if r.complete else None
    )
    if stored is not None:
        active, compliant = stored.active, stored.compliant
        source = (
            f"The compliance rate the sweep stored for {r.end:%-d %B %Y} (its last sweep on or "
            "after that day)"
        )
    else:
        active, compliant = rate_counts(agency=agency, days=[r.end])[r.end]
        source = (
            f"Counted from the findings on record: the violations open on {r.end:%-d %B %Y} "
            "(found on or before it, not closed by it)"
        )
    share = f" ({100 * compliant / active:.1f}%)" if active else ""
    return [
        Figure(
            "compliance",
            f"Establishments in compliance at {r.end_words}",
            f"{compliant} of {active}{share}",
            f"{source}: the establishments open that day with no violation open that day, of "
            "all establishments open that day.",
            Table(
                ("Establishments", "Count"),
                [
                    ("Open", active),
                    ("In compliance", compliant),
                    ("Not in compliance", active - compliant),
                ],
            ),
        )
    ]


def action_title(pack, action_type: str) -> str:
    spec = pack.actions.get(action_type)
    if spec is not None:
        return spec.title
    return STEP_TITLES.get(action_type, action_type.replace("_", " ").capitalize())


def _enforcement(r: AnnualReport, agency, pack) -> list[Figure]:
    counts = dict(
        EnforcementAction.objects.filter(
            establishment__agency=agency, taken_on__gte=r.start, taken_on__lte=r.end
        )
        .values("type")
        .annotate(n=Count("pk"))
        .values_list("type", "n")
    )
    order = [*pack.actions, *STEP_TITLES]
    kinds = sorted(counts, key=lambda t: (order.index(t) if t in order else len(order), t))
    table = [(action_title(pack, t), counts[t]) for t in kinds]
    return [
        Figure(
            "enforcement",
            f"Enforcement actions taken in {r.year}",
            sum(counts.values()),
            f"Actions and steps of enforcement cases (notices, orders, hearings, appeals...) "
            f"taken from {r.start:%-d %B} to {r.end:%-d %B %Y}, by their date taken, counted "
            f"by type in {pack.name}'s words.",
            Table(("Action", "Taken"), table),
        )
    ]


def _penalties(r: AnnualReport, agency, pack) -> list[Figure]:
    """The penalty invoices noticed in the year and the payments of penalty invoices made in
    it, in one query over the agency's penalty invoices (each with its lines' total and the
    year's payments of it)."""
    of_invoice = {"invoice": OuterRef("pk")}
    lines = InvoiceLine.objects.filter(**of_invoice).values("invoice").annotate(t=Sum("amount"))
    year = {"paid_on__gte": r.start, "paid_on__lte": r.end}
    payments = Payment.objects.filter(**of_invoice, **year).values("invoice").order_by()
    noticed = Q(noticed_on__gte=r.start, noticed_on__lte=r.end)
    totals = (
        Invoice.objects.filter(agency=agency, kind="penalty")
        .annotate(
            charged=Subquery(lines.order_by().values("t")),
            paid=Subquery(payments.annotate(t=Sum("amount")).values("t")),
            times_paid=Subquery(payments.annotate(n=Count("pk")).values("n")),
        )
        .aggregate(
            total=Sum("charged", filter=noticed),
            invoices=Count("pk", filter=noticed & Q(charged__isnull=False)),
            paid_total=Sum("paid"),
            paid_n=Sum("times_paid"),
        )
    )
    assessed = {"total": totals["total"], "invoices": totals["invoices"]}
    paid = {"total": totals["paid_total"], "n": totals["paid_n"] or 0}
    return [
        Figure(
            "penalties_assessed",
            f"Penalties assessed in {r.year}",
            assessed["total"] or ZERO,
            f"The total of the {assessed['invoices']} penalty invoice"
            f"{'' if assessed['invoices'] == 1 else 's'} (each invoicing a penalty order) "
            f"noticed from {r.start:%-d %B} to {r.end:%-d %B %Y}, as invoiced (a later credit "
            "or void is not taken off).",
            money=True,
        ),
        Figure(
            "penalties_collected",
            f"Penalties collected in {r.year}",
            paid["total"] or ZERO,
            f"The {paid['n']} payment{'' if paid['n'] == 1 else 's'} received from "
            f"{r.start:%-d %B} to {r.end:%-d %B %Y} against penalty invoices, whatever year "
            "the invoice was noticed in.",
            money=True,
        ),
    ]


# -- spills and sewers -----------------------------------------------------------------------


def _spills(r: AnnualReport, agency, pack) -> list[Figure]:
    spills = Incident.objects.filter(
        agency=agency, kind__in=SPILL_KINDS, date__gte=r.start, date__lte=r.end
    )
    by_category, by_cause, fse_rows = _spill_counts(spills)
    total = sum(by_category.values())
    when = f"dated from {r.start:%-d %B} to {r.end:%-d %B %Y}"
    causes = [(cause.strip() or "Cause not recorded", n) for cause, n in by_cause]
    return [
        _by_category(r, agency, by_category, total, when),
        Figure(
            "spills_by_cause",
            f"Spills in {r.year} by cause",
            total,
            f"The same spills ({when}) by the cause recorded on each, as written.",
            Table(("Cause", "Spills"), causes),
        ),
        Figure(
            "fog_spills_fses",
            f"FOG-caused spills attributed to food service establishments in {r.year}",
            sum(n for *_, n in fse_rows),
            f"Of those spills, the ones recorded as caused by FOG and attributed to the "
            f"establishment they are on record against (it caused or contributed), {when}.",
            Table(("Establishment", "Code", "Spills"), fse_rows),
        ),
    ]


def _spill_counts(spills) -> tuple[dict, list[tuple[str, int]], list[tuple[str, str, int]]]:
    """The spills by category; by cause, most first; and the FOG-caused ones attributed to
    an establishment by establishment (name, code, spills), most first: from one query of
    the year's spills, each with the rank of its cause and of its establishment's code in
    the database's own order (its collation), by which ties are ordered as an ORDER BY
    would order them."""
    rows = spills.annotate(
        cause_rank=Window(DenseRank(), order_by=F("cause").asc()),
        code_rank=Window(DenseRank(), order_by=F("establishment__code").asc()),
        fog=ExpressionWrapper(
            Q(fog_caused=True, attributed=True, establishment__isnull=False),
            output_field=BooleanField(),
        ),
    ).values_list(
        "category",
        "cause",
        "cause_rank",
        "fog",
        "establishment__code",
        "establishment__name",
        "code_rank",
    )
    by_category: Counter = Counter()
    causes: Counter = Counter()
    fses: Counter = Counter()
    for category, cause, cause_rank, fog, code, name, code_rank in rows:
        by_category[category] += 1
        causes[(cause_rank, cause)] += 1
        if fog:
            fses[(code_rank, code, name)] += 1
    by_cause = [(cause, n) for (_, cause), n in sorted(causes.items(), key=_most_first)]
    fog = [(name, code, n) for (_, code, name), n in sorted(fses.items(), key=_most_first)]
    return dict(by_category), by_cause, fog


def _most_first(item: tuple[tuple, int]) -> tuple:
    (rank, *_), n = item
    return (-n, rank)


def _by_category(r: AnnualReport, agency, by_category: dict, total: int, when: str) -> Figure:
    """The year's spills by the category of the agency's State pack; where its pack names
    none, their number, saying why they are not categorised."""
    spills = (
        f"Incidents recorded as an overflow or a spill (not a blockage that spilled nothing) {when}"
    )
    if r.state is None:
        return Figure(
            "spills",
            f"Spills in {r.year}",
            total,
            f"{spills}. {agency.name}'s ordinance pack names no State spill reporting, so they "
            "are counted without a State's categories.",
        )
    categories = [(title, by_category.get(n, 0)) for n, title in CATEGORIES]
    categories.append(("Not categorised", by_category.get(None, 0)))
    return Figure(
        "spills_by_category",
        f"Spills in {r.year} by category",
        total,
        f"{spills}, by the category of {r.state.order} recorded on each (derived from its "
        "volumes or set by staff); those without one are counted apart as not categorised.",
        Table(("Category", "Spills"), categories),
    )


def _segments(r: AnnualReport, agency, pack) -> list[Figure]:
    scheduled = agency.sewer_segments.filter(cleaning_frequency_days__isnull=False).order_by("code")
    rows = []
    for state in cleaning_states(agency=agency, as_of=r.end, segments=scheduled):
        rows.append(_segment_row(state, r))
    on_schedule = sum(1 for row in rows if row[-1] == "yes")
    return [
        Figure(
            "segments_on_schedule",
            f"Segments on a cleaning schedule cleaned on schedule in {r.year}",
            f"{on_schedule} of {len(rows)}",
            f"Of the sewer segments with a cleaning frequency (as now set), those cleaned at "
            f"least once from {r.start:%-d %B} to {r.end:%-d %B %Y} and never overdue in the "
            "year: no gap between consecutive cleanings, counting the last one before the "
            "year, longer than the frequency, and not overdue on "
            f"{r.end:%-d %B %Y} (a segment never cleaned before the year was overdue until "
            "its first cleaning).",
            Table(
                (
                    "Segment",
                    "Frequency (days)",
                    f"Cleanings in {r.year}",
                    "Longest gap (days)",
                    f"State on {r.end:%-d %B}",
                    "On schedule",
                ),
                rows,
            ),
        )
    ]


def _segment_row(state, r: AnnualReport) -> tuple:
    days = state.segment.cleaning_frequency_days
    in_year = sorted(c.cleaned_on for c in state.cleanings if c.cleaned_on >= r.start)
    before = [c.cleaned_on for c in state.cleanings if c.cleaned_on < r.start]
    chain = ([max(before)] if before else []) + in_year
    gaps = [(b - a).days for a, b in zip(chain, chain[1:], strict=False)]
    longest = max(gaps) if gaps else None
    ok = bool(in_year) and bool(before) and (longest or 0) <= days and not state.late
    return (
        state.segment.code,
        days,
        len(in_year),
        longest,
        state.state_word,
        "yes" if ok else "no",
    )


def _requests(r: AnnualReport, agency, pack) -> list[Figure]:
    """The requests the ordinance gives the operator (the pack's requests.yaml), filed in the
    year: none is reported where the pack declares none."""
    rows = year_summary(agency=agency, year=r.year, as_of=r.end)
    if not rows:
        return []
    table = [
        (
            f"{row.title} ({row.citation})",
            row.filed,
            ", ".join(f"{k} {n}" for k, n in sorted(row.outcomes.items())) or "none",
            row.open,
            row.late,
        )
        for row in rows
    ]
    return [
        Figure(
            "requests",
            f"Requests filed in {r.year}",
            sum(row.filed for row in rows),
            f"Requests operators filed from {r.start:%-d %B} to {r.end:%-d %B %Y} under "
            f"{pack.name}'s ordinance, by kind: how they were answered, how many are still "
            "open, and how many were answered (or are still open) after the day the ordinance "
            "sets, where it sets one.",
            Table(("Request", "Filed", "Answered", "Open", "Late"), table),
        )
    ]


def _required_reports(r: AnnualReport, agency, pack) -> list[Figure]:
    """The reports the agency required (the pack's kinds): none where the pack declares none."""
    if not pack.reports:
        return []
    counts = report_counts(agency, r.start, r.end)
    rows = []
    for kind in pack.reports.values():
        c = counts.get(kind.id, {"required": 0, "received": 0, "late": 0})
        rows.append((kind.title, kind.citation, c["required"], c["received"], c["late"]))
    return [
        Figure(
            "required_reports",
            f"Reports required of establishments in {r.year}",
            sum(row[2] for row in rows),
            f"The reports the agency required of establishments falling due from "
            f"{r.start:%-d %B} to {r.end:%-d %B %Y}, by kind: each due date counts once; "
            f"received: submitted by {r.end_words}; late: submitted after its due date, or not "
            f"submitted by {r.end_words} though due before it.",
            Table(("Report", "Section", "Required", "Received", "Late"), rows),
        )
    ]


BUILDERS = (
    _establishments,
    _devices,
    _inspections_done,
    _inspections_due,
    _pump_outs,
    _compliance,
    _enforcement,
    _penalties,
    _spills,
    _segments,
    _requests,
    _required_reports,
)


def report_text(report: AnnualReport) -> str:
    """The report as plain text (the command's default output)."""
    from fogkeeper.formats import money

    lines = [
        f"{report.agency.name}: FOG program annual report {report.year}",
        f"From {report.start:%-d %B %Y} to {report.end:%-d %B %Y}; made on {report.made_on}.",
        "",
    ]
    for f in report.figures:
        value = money(f.value) if f.money else f.value
        lines += [f"{f.label}: {value}", f"  How: {f.how}"]
        if f.table is not None and f.table.rows:
            lines.append("  " + " | ".join(f.table.columns))
            lines += [
                "  " + " | ".join("" if v is None else str(v) for v in row) for row in f.table.rows
            ]
        lines.append("")
    return "\n".join(lines)
