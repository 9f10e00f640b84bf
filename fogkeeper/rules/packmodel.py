"""What a loaded pack is: its parameters by effective date, rules, checklist items,
enforcement actions and vocabulary, and the look-ups made of them. Looking a parameter up
for a date before it took effect raises `ParameterNotInForce`."""

from __future__ import annotations

import contextlib
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .calendar import Duration, LegalCalendar
from .errors import ParameterNotInForce

SEVERITIES = ("violation", "task", "notice")
DEADLINE_KINDS = ("deadline", "earliest", "event")
PENALTY_UNITS = ("days", "occurrences", "gallons", "violation_days")
# The parameter of a penalty class's cap: enforcement.penalty_cap.<class> (RULES.md 11.3).
PENALTY_CAP = "enforcement.penalty_cap."
IMPOSED_BY = ("administrative", "court")
# Levels an appeal may go to beyond a pack's own procedure sequence.
APPEAL_LEVELS = ("court", "city_manager")
# The key of `titles` naming who acts at a level, where it is not the level's own name.
LEVEL_TITLE_KEYS = {
    "hearing_officer": "hearing_body",
    "council": "appeal_body",
    "city_manager": "emergency_appeal",
}
# The court, where a pack's titles name none: the word, not a State's court.
COURT = "court"
# The State packs (fogkeeper/incidents/reporting_packs/), one YAML file each, named in a
# jurisdiction pack's `state_reporting` by the file's name without .yaml; `none` names none.
STATE_PACKS = Path(__file__).resolve().parent.parent / "incidents" / "reporting_packs"
NO_STATE_PACK = "none"


def state_pack_names() -> list[str]:
    """The State packs a jurisdiction pack may name, as it names them."""
    return sorted(p.stem for p in STATE_PACKS.glob("*.yaml"))


def level_title(titles: Mapping[str, str], level: str) -> str:
    """Who acts at `level`, in a pack's `titles`: `council` -> "City Council"; the court is
    the one the pack names (`titles.court`: "Superior Court"), else "court"."""
    if level == "court":
        return titles.get("court") or COURT
    title = titles.get(level) or titles.get(LEVEL_TITLE_KEYS.get(level, ""))
    return title or level.replace("_", " ").capitalize()


@dataclass(frozen=True, slots=True)
class ParameterValue:
    """One dated value. A value set by a council resolution under a section of the ordinance
    (penalties "as established by resolution") names it: its reference then reads
    "Resolution 2024-17, adopted under 13.30.120", wherever the value is cited."""

    effective: date
    value: Any
    reference: str
    resolution: str | None = None


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    description: str
    values: tuple[ParameterValue, ...]  # oldest first

    def value_on(self, on: date) -> ParameterValue:
        current = None
        for v in self.values:
            if v.effective <= on:
                current = v
        if current is None:
            raise ParameterNotInForce(
                f"{self.name} has no value on {on}: it takes effect on {self.values[0].effective}"
            )
        return current


class ParamSet(dict[str, Any]):
    """The parameters of a pack in force on one date, name -> value: a dict, so the checks
    read it in C; `reference`, `duration` and `in_force` say more of each."""

    def __init__(self, pack: Pack, on: date, values: dict[str, ParameterValue] | None = None):
        if values is None:
            values = {}
            for name, p in pack.parameters.items():
                with contextlib.suppress(ParameterNotInForce):
                    values[name] = p.value_on(on)
        super().__init__((name, v.value) for name, v in values.items())
        self.pack = pack
        self.on = on
        self._values = values
        self._durations: dict[str, Duration] = {}

    def __missing__(self, name: str) -> Any:
        if name in self.pack.parameters:
            self.pack.parameters[name].value_on(self.on)  # raises, naming the date
        raise ParameterNotInForce(f"{self.pack.id} has no parameter {name!r}")

    def duration(self, name: str) -> Duration:
        """The period a parameter holds, read once for this set (the checks ask often)."""
        period = self._durations.get(name)
        if period is None:
            period = self._durations[name] = self.pack.duration(name, self[name])
        return period

    def reference(self, name: str) -> str:
        self[name]
        return self._values[name].reference

    def resolution(self, name: str) -> str | None:
        """The council resolution that set the value in force, if one did."""
        self[name]
        return self._values[name].resolution

    def in_force(self) -> Iterator[tuple[str, Any, str, date]]:
        """(name, value, reference, in force since) of each parameter, by name."""
        return ((n, v.value, v.reference, v.effective) for n, v in sorted(self._values.items()))


@dataclass(frozen=True, slots=True)
class PenaltyCap:
    """The most a penalty of one class may be on a day, as the pack's
    `enforcement.penalty_cap.<class>` sets it: `amount` a `per` (a day, an occurrence, a
    gallon, a violation day), under `reference`, set by council `resolution` if one did.
    The engine's finding, the services' refusals, the order form and the letter all read a
    cap from here (Pack.penalty_cap), so they never disagree on it."""

    penalty_class: str
    description: str  # what the class penalises, in the pack's words, without a full stop
    amount: Decimal  # the most a penalty may be for one `per`
    per: str  # the unit the penalty is counted in: one of PENALTY_UNITS
    imposed_by: str  # "administrative" (a penalty order) or "court"
    reference: str
    resolution: str | None

    def maximum(self, quantity: Decimal | int | str) -> Decimal:
        """The most a penalty counted `quantity` of `per` may be: amount × quantity.

        >>> cap = PenaltyCap("records", "Records", Decimal(400), "days", "administrative",
        ...                  "Sec. 9(b)", None)
        >>> cap.maximum(3), cap.maximum(Decimal("0.5")), cap.maximum(0)
        (Decimal('1200'), Decimal('200.0'), Decimal('0'))
        """
        return self.amount * Decimal(str(quantity))

    def exceeded_by(self, amount: Decimal | int | str, quantity: Decimal | int | str) -> bool:
        """Whether a penalty of `amount` for `quantity` is above the cap (one at it is not).

        >>> cap = PenaltyCap("overflow", "An overflow", Decimal(400), "occurrences",
        ...                  "administrative", "Sec. 9(c)", None)
        >>> cap.exceeded_by(800, 2), cap.exceeded_by("800.01", 2), cap.exceeded_by(1, 0)
        (False, True, True)
        """
        return Decimal(str(amount)) > self.maximum(quantity)


@dataclass(frozen=True, slots=True)
class RuleSpec:
    id: str
    severity: str
    citation: str
    title: str


@dataclass(frozen=True, slots=True)
class Vocab:
    """A word of the ordinance's vocabulary (a device kind, an establishment category)."""

    id: str
    title: str
    citation: str


@dataclass(frozen=True, slots=True)
class ReportKind:
    """A kind of report the ordinance lets the agency require of an establishment (`reports:`
    of pack.yaml): its title and citation, and where the text sets one, the months between
    reports or the days allowed after the requirement, each with its reference."""

    id: str
    title: str
    citation: str
    every_months: int | None = None
    days_allowed: int | None = None
    reference: str = ""
    # the section letting the agency do the monitoring itself at the permittee's expense
    # when the report is not done; "" where the ordinance says nothing of it
    monitoring_citation: str = ""


@dataclass(frozen=True, slots=True)
class ChecklistItem:
    """An item of the inspector's checklist: the question answered compliant or not, and the
    words of its finding when the answer is not compliant, a statement of what was found
    ("No 12-month pump-out log was kept on site"), both in the pack's own law."""

    item: str
    question: str
    finding: str
    citation: str

    def statement(self) -> str:
        """What a violation of the item says: its finding; for an item without one (a pack
        built in code), "Not compliant: " and the question as a statement, never a question."""
        if self.finding.strip():
            return self.finding
        asked = self.question.strip().rstrip("?").strip()
        return f"Not compliant: {asked[:1].lower()}{asked[1:]}"


@dataclass(frozen=True, slots=True)
class FieldSpec:
    name: str
    kind: str
    required: bool
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DeadlineSpec:
    name: str
    kind: str
    start: str  # a field of the action, or the name of an earlier deadline
    add: str | None  # parameter holding the period
    roll: bool
    citation: str
    when: dict[str, Any] = field(default_factory=dict)
    unless_paid: bool = False
    extension: dict[str, Any] | None = None
    appeal_to: str | None = None  # the last day to appeal the action to this level
    fills: str | None = None  # the action's planned date that is this deadline (correct_by)


@dataclass(frozen=True, slots=True)
class Requirement:
    """A step that must be on record before an action is taken (RULES.md 12.1): the action
    names (`refers_to`, or any action of the case when `in_case`) an action of one of
    `types` taken on or before it — or, for `appeal`, an appeal filed in time to the action's
    level — and, when `heard`, that action's hearing concluded or was waived on or before
    it; when `past`, that action's date field `past` is before it; an appeal, when `of`
    names types, is of an action of one of them. `what` says in words
    what must be on record; `when` limits it to actions with those field values."""

    types: tuple[str, ...]
    what: str
    citation: str
    heard: bool = False
    past: str | None = None
    in_case: bool = False
    when: dict[str, Any] = field(default_factory=dict)
    of: tuple[str, ...] = ()  # for an appeal: the types of the action appealed

    def applies(self, fields: Mapping[str, Any]) -> bool:
        return all(fields.get(k) == v for k, v in self.when.items())


@dataclass(frozen=True, slots=True)
class ActionSpec:
    type: str
    title: str
    citation: str
    date_field: str
    fields: dict[str, FieldSpec]
    deadlines: tuple[DeadlineSpec, ...]
    checks: dict[str, Any]
    appeal: dict[str, str] | None = None  # {deadline, filed, decided, final}: RULES.md 11.4
    letter: bool = False  # the agency sends a letter when it takes the action
    requires: tuple[Requirement, ...] = ()  # what must be on record first (RULES.md 12.1)
    waiver: str | None = None  # the section that lets the charged party waive the hearing
    # penalty class -> what must be on record for it (RULES.md 12.4): {what, citation,
    # in_case: [types], overflows: bool, under_order: [types]}
    grounds: dict[str, dict[str, Any]] = field(default_factory=dict)
    # The money fields of the action the agency invoices at actual cost, and the section
    # that puts them on the person (`costs: {fields: [...], citation}`).
    costs: tuple[str, ...] = ()
    costs_citation: str = ""

    def appeal_routes(self) -> dict[str, str]:
        """Deadline name -> the level the action is appealed to by that deadline."""
        return {d.name: d.appeal_to for d in self.deadlines if d.appeal_to}


@dataclass
class Pack:
    id: str
    name: str
    ordinance: str
    effective: date
    effective_reference: str
    titles: dict[str, str]
    calendar: LegalCalendar
    parameters: dict[str, Parameter]
    rules: dict[str, RuleSpec]
    checklist: dict[str, ChecklistItem]
    actions: dict[str, ActionSpec]
    source: Path
    procedure: dict[str, Any] = field(default_factory=dict)
    obligations: dict[str, str] = field(default_factory=dict)
    device_kinds: dict[str, Vocab] = field(default_factory=dict)
    categories: dict[str, Vocab] = field(default_factory=dict)
    reports: dict[str, ReportKind] = field(default_factory=dict)  # none: the pack asks none
    default_category: str = ""
    state_reporting: str | None = None  # the State pack's name; None: the pack names none
    _durations: dict[str, Duration] = field(default_factory=dict)
    _paramsets: dict[date, ParamSet] = field(default_factory=dict)
    _in_force: dict[int, dict[str, ParameterValue]] = field(default_factory=dict)

    def params_on(self, on: date) -> ParamSet:
        ps = self._paramsets.get(on)
        if ps is None:
            if len(self._paramsets) > 4096:
                self._paramsets.clear()
            # The values in force change only on the parameters' effective dates.
            period = bisect_right(self._changes, on)
            values = self._in_force.get(period)
            if values is None:
                values = self._in_force[period] = ParamSet(self, on)._values
            ps = self._paramsets[on] = ParamSet(self, on, values)
        return ps

    @property
    def _changes(self) -> list[date]:
        changes = self.__dict__.get("_change_dates")
        if changes is None:
            changes = sorted({v.effective for p in self.parameters.values() for v in p.values})
            self.__dict__["_change_dates"] = changes
        return changes

    def param(self, name: str, on: date) -> Any:
        if name not in self.parameters:
            raise ParameterNotInForce(f"{self.id} has no parameter {name!r}")
        return self.parameters[name].value_on(on).value

    def duration(self, name: str, value: Any) -> Duration:
        key = f"{name}={value}"
        d = self._durations.get(key)
        if d is None:
            d = self._durations[key] = Duration.parse(value)
        return d

    def citation(self, rule: str) -> str:
        spec = self.rules.get(rule)
        if spec is not None:
            return spec.citation
        return self.checklist[rule].citation

    def cited(self) -> dict[str, tuple[str, str]]:
        """Rule or checklist item -> (severity, citation), for every finding made: read once."""
        cited = self.__dict__.get("_cited")
        if cited is None:
            cited = {item: ("violation", c.citation) for item, c in self.checklist.items()}
            cited.update({rule: (r.severity, r.citation) for rule, r in self.rules.items()})
            self.__dict__["_cited"] = cited
        return cited

    def has(self, rule: str) -> bool:
        return rule in self.rules

    @property
    def has_permits(self) -> bool:
        """Whether the ordinance puts a permit on establishments: a `permit.*` rule, or a
        permit it names (`titles.permit`) issued only as needed. Without one, no page, menu,
        report or export speaks of permits (issue 38)."""
        return "permit" in self.titles or any(r.startswith("permit.") for r in self.rules)

    def hauler_certification(self, on: date) -> str | None:
        """The name of the certification the ordinance requires of haulers beside their
        licence on `on` (`hauler.certification`, checked by gcd.uncertified_hauler), or None."""
        param = self.parameters.get("hauler.certification")
        if param is None or "gcd.uncertified_hauler" not in self.rules:
            return None
        spec = param.value_on(max(on, self.effective)).value or {}
        return spec.get("name") if spec.get("required") else None

    @property
    def has_actions(self) -> bool:
        """Whether the pack defines enforcement actions (a pack of an ordinance whose
        enforcement sections were not read has none: its cases take no step, send no letter)."""
        return bool(self.actions)

    def penalty_classes(self) -> dict[str, str]:
        """Penalty class -> the unit its cap is counted in (every class, court ones too)."""
        return {cls: cap["per"] for cls, cap in self._penalty_caps().items()}

    def penalty_cap(self, penalty_class: str, on: date) -> PenaltyCap | None:
        """The cap of `penalty_class` in force on `on` (for a day before its first value, the
        first one, as the engine reads it), or None where the pack sets no cap for the class
        (it is not one of the pack's penalty classes)."""
        param = self.parameters.get(PENALTY_CAP + penalty_class)
        if param is None:
            return None
        try:
            value = param.value_on(on)
        except ParameterNotInForce:
            value = param.values[0]
        cap: dict[str, Any] = value.value
        return PenaltyCap(
            penalty_class=penalty_class,
            description=(param.description or penalty_class.replace("_", " ")).rstrip("."),
            amount=Decimal(str(cap["amount"])),
            per=str(cap["per"]),
            imposed_by=str(cap["imposed_by"]),
            reference=value.reference,
            resolution=value.resolution,
        )

    def administrative_classes(self) -> Mapping[str, str]:
        """The classes a penalty order may impose (RULES.md 11.3), with their units."""
        return self._classes()[0]

    def court_classes(self) -> Mapping[str, str]:
        """The classes only a court imposes (RULES.md 11.3), with their units."""
        return self._classes()[1]

    def _classes(self) -> tuple[Mapping[str, str], Mapping[str, str]]:
        classes = self.__dict__.get("_split_classes")  # read for every penalty order: once
        if classes is None:
            caps = self._penalty_caps().items()
            court = {c for c, v in caps if v["imposed_by"] == "court"}
            classes = self.__dict__["_split_classes"] = tuple(
                MappingProxyType({c: v["per"] for c, v in caps if (c in court) == by})
                for by in (False, True)
            )
        return classes

    def _penalty_caps(self) -> dict[str, dict[Any, Any]]:
        caps = self.__dict__.get("_caps")  # read for every penalty order: computed once
        if caps is None:
            caps = self.__dict__["_caps"] = self._read_penalty_caps()
        return caps

    def _read_penalty_caps(self) -> dict[str, dict[Any, Any]]:
        return {
            name[len(PENALTY_CAP) :]: p.values[0].value
            for name, p in self.parameters.items()
            if name.startswith(PENALTY_CAP)
        }

    def default_frequency(self, kind: str, on: date) -> Duration | None:
        """The pack's default service frequency of a device kind on `on` (None: none set)."""
        try:
            defaults = self.param("gcd.default_service_frequency", on) or {}
        except ParameterNotInForce:
            return None
        value = defaults.get(kind)
        return (
            None if value is None else self.duration(f"gcd.default_service_frequency.{kind}", value)
        )

    def words_for(self, key: str) -> str:
        """The pack's words for `key`: a rule's title, a checklist item's finding (a violation
        of it is named by what was found, never by the inspector's question), an
        obligation's title or an enforcement action's title; else the identifier in words
        ('service_overdue' -> 'Service overdue')."""
        if key in self.rules:
            return self.rules[key].title
        if key in self.checklist:
            return self.checklist[key].statement()
        if key in self.obligations:
            return self.obligations[key]
        if key in self.actions:
            return self.actions[key].title
        return key.replace("_", " ").replace(".", " ").strip().capitalize()

    def kind_title(self, kind: str) -> str:
        vocab = self.device_kinds.get(kind)
        return vocab.title if vocab is not None else kind.replace("_", " ")

    def level_title(self, level: str) -> str:
        """Who acts at `level`, in the pack's titles: `council` -> "City Council"."""
        return level_title(self.titles, level)

    def signing_officer(self, action_type: str, level: str) -> str:
        """Who signs the letter of an action taken at `level`: the officer at that level,
        unless the procedure names another for its type (`signed_by`: the Town's Building
        Official gives notice of a suspension its hearing officer hears, 10.02.260(B))."""
        return self.procedure.get("signed_by", {}).get(action_type) or level

    def category_title(self, category: str) -> str:
        vocab = self.categories.get(category)
        return vocab.title if vocab is not None else category.replace("_", " ")

    @property
    def rule_count(self) -> int:
        return len(self.rules) + len(self.checklist)
