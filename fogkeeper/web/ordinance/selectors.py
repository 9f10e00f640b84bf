"""What the ordinance page shows: the pack's rules, checklist and dated parameters by area of
the ordinance, with the stored findings of each rule, filtered by words a reader types."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from django.db.models import Count, Q

from fogkeeper.compliance.models import Finding, SweepRun
from fogkeeper.registry.models import Agency

from ..vocabulary import reference_words, text_words

SEVERITIES = {
    "violation": "Violation",
    "task": "Task for staff",
    "notice": "Notice",
}
# The areas of an ordinance, by the first word of its rule and parameter names; an area a
# pack adds is titled from its own word.
AREAS = {
    "applicability": "Who the chapter applies to",
    "permit": "Permits",
    "gcd": "Grease control devices",
    "food_grinder": "Food grinders",
    "yellow_grease": "Waste cooking oil",
    "training": "Employee training",
    "bmp": "Best management practices",
    "records": "Records kept on site",
    "discharge": "Discharges to the sewer",
    "inspection": "Inspections",
    "incident": "Sewer overflows",
    "enforcement": "Enforcement",
    "fees": "Fees",
    "report": "What the reports cover",
}


@dataclass(frozen=True)
class Findings:
    open: int = 0
    establishments: int = 0
    closed: int = 0


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    citation: str
    severity: str
    findings: Findings


@dataclass(frozen=True)
class Value:
    effective: date
    lines: list[str]
    reference: str
    in_force: bool


@dataclass(frozen=True)
class Parameter:
    name: str
    description: str
    values: list[Value]


@dataclass
class Area:
    key: str
    title: str
    rules: list[Rule] = field(default_factory=list)
    checklist: list[Rule] = field(default_factory=list)
    parameters: list[Parameter] = field(default_factory=list)


@dataclass(frozen=True)
class Ordinance:
    pack: Any
    areas: list[Area]
    last_sweep: SweepRun | None
    closed_since: date | None
    query: str
    rules: int
    parameters: int


def area_of(name: str) -> str:
    return name.split(".", 1)[0]


def area_title(key: str) -> str:
    return AREAS.get(key) or key.replace("_", " ").capitalize()


def shown(value: Any, pack: Any = None) -> list[str]:
    """A parameter's value as lines a reader can follow: a table of values one line per entry
    (`interceptor › capacity gallons › min: 750`), a list joined by commas."""
    if isinstance(value, dict):
        if not value:
            return ["none"]
        lines = []
        for key, inner in value.items():
            nested = isinstance(inner, dict) and inner
            words = str(key).replace("_", " ")
            for line in shown(inner, pack):
                lines.append(f"{words} › {line}" if nested else f"{words}: {line}")
        return lines
    if isinstance(value, list | tuple):
        return [", ".join(text_words(pack, str(v)) for v in value) or "none"]
    if isinstance(value, bool):
        return ["yes" if value else "no"]
    return ["none" if value is None else text_words(pack, str(value))]


def in_words(pack: Any, text: str) -> str:
    """A reference in the agency's words: a rule named by its id is named by its title, and
    the ordinance's sections are cited without the project's spec files."""
    return reference_words(pack, text)


def _matches(query: str, *texts: str) -> bool:
    return not query or any(query in (t or "").casefold() for t in texts)


def last_sweep(agency: Agency) -> SweepRun | None:
    return (
        SweepRun.objects.filter(agency=agency, status=SweepRun.COMPLETE)
        .order_by("-finished_at", "-pk")
        .first()
    )


def finding_counts(agency: Agency, closed_since: date | None) -> dict[str, Findings]:
    """Rule -> its findings on record: open now, the establishments they are at, and those
    closed on or after `closed_since` (the last sweep's look-back)."""
    closed = Q(open=False, closed_on__gte=closed_since) if closed_since else Q(pk__in=[])
    rows = (
        Finding.objects.filter(agency=agency)
        .values("rule")
        .annotate(
            open_count=Count("pk", filter=Q(open=True)),
            at=Count("establishment", filter=Q(open=True), distinct=True),
            closed_count=Count("pk", filter=closed),
        )
    )
    return {r["rule"]: Findings(r["open_count"], r["at"], r["closed_count"]) for r in rows}


def history(p: Any, on: date, pack: Any = None) -> Parameter:
    """Every value a parameter of the pack has held, the one in force on `on` marked."""
    current = p.value_on(on).effective if p.values and p.values[0].effective <= on else None
    values = [
        Value(
            v.effective, shown(v.value, pack), in_words(pack, v.reference), v.effective == current
        )
        for v in p.values
    ]
    return Parameter(p.name, reference_words(pack, p.description), values)


def _area_order(a: Area) -> tuple:
    """The areas in the order a chapter runs (AREAS), then any other by title."""
    return (0, list(AREAS).index(a.key), "") if a.key in AREAS else (1, 0, a.title)


def ordinance(agency: Agency, *, on: date, query: str = "") -> Ordinance:
    """The agency's ordinance by area; with `query`, only the rules, checklist questions and
    parameters whose words contain it (any case)."""
    pack = agency.get_pack()
    q = query.strip().casefold()
    sweep = last_sweep(agency)
    closed_since = None
    if sweep is not None:
        lookback = pack.params_on(max(sweep.as_of, pack.effective)).get("report.lookback_days")
        closed_since = sweep.as_of - timedelta(days=lookback or 365)
    counts = finding_counts(agency, closed_since)
    areas: dict[str, Area] = {}

    def area(name: str) -> Area:
        key = area_of(name)
        return areas.setdefault(key, Area(key, area_title(key)))

    for rule_id, spec in pack.rules.items():
        if _matches(q, rule_id, spec.title, spec.citation):
            severity = SEVERITIES.get(spec.severity, spec.severity)
            found = counts.get(rule_id, Findings())
            area(rule_id).rules.append(Rule(rule_id, spec.title, spec.citation, severity, found))
    for item_id, item in pack.checklist.items():
        if _matches(q, item_id, item.question, item.citation):
            found = counts.get(item_id, Findings())
            question = Rule(item_id, item.question, item.citation, SEVERITIES["violation"], found)
            area(item_id).checklist.append(question)
    for name, p in pack.parameters.items():
        references = [v.reference for v in p.values]
        if _matches(q, name, p.description, *references):
            area(name).parameters.append(history(p, on, pack))
    ordered = sorted(areas.values(), key=_area_order)
    for a in ordered:
        a.rules.sort(key=lambda r: r.id)
        a.checklist.sort(key=lambda r: r.id)
        a.parameters.sort(key=lambda p: p.name)
    return Ordinance(
        pack=pack,
        areas=ordered,
        last_sweep=sweep,
        closed_since=closed_since,
        query=query.strip(),
        rules=sum(len(a.rules) + len(a.checklist) for a in ordered),
        parameters=sum(len(a.parameters) for a in ordered),
    )
