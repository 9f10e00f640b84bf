"""Properties of the engine over generated case files of both bundled packs (RULES.md 1, 2):

- records and acts dated after as_of have not happened yet: adding them changes nothing;
- the order of the lists in a case file means nothing;
- every finding cites its pack and names one of its rules or checklist items, and the
  status is non_compliant exactly when a violation is open.

Each strategy is built once for the same arguments (`st`, BuiltOnce), not again at every
draw of a case file's hundreds.
"""

from __future__ import annotations

import copy
import functools
import random
from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies

from fogkeeper.rules import CaseFileError, evaluate, parse_case
from fogkeeper.rules.packmodel import PENALTY_UNITS
from fogkeeper.rules.packs import default_registry


class BuiltOnce:
    """hypothesis.strategies, each strategy built once for the same arguments. Hypothesis
    keeps only those built of hashable arguments, so builds one of a list anew at each call
    and checks it again at its first draw: a quarter of this module's time. The examples
    drawn are the same (a strategy of equal arguments draws the same values)."""

    def __init__(self) -> None:
        self.built: dict[tuple, Any] = {}

    def __getattr__(self, name: str):
        return functools.partial(self.once, name)

    def once(self, name: str, *args, **kwargs):
        key = (name, *map(_hashable, args), *sorted((k, _hashable(v)) for k, v in kwargs.items()))
        try:
            if key not in self.built:
                self.built[key] = getattr(strategies, name)(*args, **kwargs)
            return self.built[key]
        except TypeError:  # an argument not hashable even so
            return getattr(strategies, name)(*args, **kwargs)


def _hashable(value: Any) -> Any:
    """A list as its items and their types (True and 1 are equal, not the same choice)."""
    return (list, tuple(value), tuple(map(type, value))) if isinstance(value, list) else value


st = BuiltOnce()
PACKS = default_registry()
JURISDICTIONS = ("san-clemente", "town-10-02")
FIRST_AS_OF, LAST_AS_OF = date(2023, 6, 1), date(2026, 12, 31)

PROPERTY = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

rarely = st.integers(0, 9).map(lambda n: n >= 8)
seldom = st.integers(0, 19).map(lambda n: n >= 19)
often = st.integers(0, 9).map(lambda n: n < 8)
depths = st.integers(0, 40).map(lambda n: n / 2)
money = st.one_of(st.integers(0, 60000), st.integers(0, 20000).map(lambda n: n / 4))
OPERATORS = ("Pier Foods LLC", "Mesa Wings LLC")


def iso(as_of: date, offset: int) -> str:
    return (as_of + timedelta(days=offset)).isoformat()


class Dates:
    """Dates around as_of, as ISO strings: `lo`..`hi` days from it."""

    def __init__(self, draw, as_of: date, lo: int, hi: int):
        self.draw, self.as_of, self.lo, self.hi = draw, as_of, lo, hi

    def __call__(self, lo: int | None = None, hi: int | None = None) -> str:
        lo = self.lo if lo is None else max(lo, self.lo)
        hi = self.hi if hi is None else min(hi, self.hi)
        return iso(self.as_of, self.draw(st.integers(lo, hi)))

    def at(self) -> str:
        return (
            f"{self()}T{self.draw(st.integers(0, 23)):02d}:{self.draw(st.integers(0, 59)):02d}:00"
        )


def maybe(draw, value_fn, chance=often):
    return value_fn() if draw(chance) else None


def compact(d: dict) -> dict:
    return {k: v for k, v in d.items() if v is not None}


# --- records --------------------------------------------------------------------------------


def reading(draw) -> dict:
    return compact(
        {
            "fog_inches": maybe(draw, lambda: draw(depths)),
            "solids_inches": maybe(draw, lambda: draw(depths)),
            "final_chamber_floating_oil": maybe(draw, lambda: draw(st.booleans()), rarely),
            "sludge_to_outlet_inches": maybe(draw, lambda: draw(depths), rarely),
        }
    )


def device(draw, id_: str, when: Dates) -> dict:
    return compact(
        {
            "id": id_,
            "kind": draw(st.sampled_from(["interceptor", "trap"])),
            "installed_on": when(),
            "capacity_gallons": maybe(draw, lambda: draw(st.sampled_from([50, 500, 750, 1500]))),
            "design_depth_inches": maybe(draw, lambda: draw(st.sampled_from([8, 12, 24, 48]))),
            "compartments": maybe(draw, lambda: draw(st.integers(1, 4))),
            "manhole_diameter_inches": maybe(draw, lambda: draw(st.sampled_from([18, 24]))),
            "service_frequency_days": maybe(
                draw, lambda: draw(st.sampled_from([30, 45, 60, 90, 180])), rarely
            ),
        }
    )


def service(draw, id_: str, devices: list[str], haulers: list[str], when: Dates) -> dict:
    return compact(
        {
            "id": id_,
            "device": draw(st.sampled_from(devices)),
            "date": when(),
            "hauler": maybe(draw, lambda: draw(st.sampled_from(haulers))) if haulers else None,
            "full_pump_out": maybe(draw, lambda: draw(st.booleans()), rarely),
            "gallons_removed": maybe(draw, lambda: draw(st.integers(0, 1500)), rarely),
            **reading(draw),
        }
    )


def employee(draw, id_: str, when: Dates, left: Dates) -> dict:
    return compact(
        {
            "id": id_,
            "name": f"Employee {id_}",
            "hired_on": when(),
            "left_on": maybe(draw, left, rarely),
            "kitchen_duties": maybe(draw, lambda: draw(st.booleans()), rarely),
            "contractor": maybe(draw, lambda: draw(st.booleans()), rarely),
        }
    )


def training(draw, id_: str, employees: list[str], when: Dates) -> dict:
    chosen = draw(st.lists(st.sampled_from(employees), unique=True)) if employees else []
    attendees = [
        compact({"employee": e, "signed": maybe(draw, lambda: draw(st.booleans()), rarely)})
        for e in chosen
    ]
    return {"id": id_, "date": when(), "attendees": attendees}


def inspection(draw, id_: str, items: list[str], devices: list[str], when: Dates) -> dict:
    # Nothing in CASEFILE.md makes an item or a device unique within one inspection.
    measured = draw(st.lists(st.sampled_from(devices), max_size=4)) if devices else []
    pairs = draw(
        st.lists(
            st.tuples(
                st.sampled_from(items),
                st.sampled_from([None, *devices]) if devices else st.none(),
            ),
            max_size=6,
        )
    )
    answers = [
        compact({"item": item, "device": dev, "compliant": draw(st.booleans())})
        for item, dev in pairs
    ]
    return {
        "id": id_,
        "date": when(),
        "measurements": [{"device": d, **reading(draw)} for d in measured],
        "answers": answers,
    }


def incident(draw, id_: str, when: Dates, acts: Dates) -> dict:
    day = when()
    offset = (date.fromisoformat(day) - when.as_of).days
    return compact(
        {
            "id": id_,
            "date": day,
            "kind": draw(st.sampled_from(["overflow", "spill", "blockage"])),
            "attributed": draw(st.booleans()),
            "gallons": maybe(draw, lambda: draw(st.integers(0, 500))),
            # acts on or after the incident (a clearance before it is not one of it)
            "written_report_on": maybe(draw, lambda: acts(lo=offset), st.booleans()),
            "clearance_inspection_on": maybe(draw, lambda: acts(lo=offset), st.booleans()),
        }
    )


def actions(draw, prefix: str, count: int, pack, when: Dates, plans: Dates, earlier=()) -> list:
    """`count` actions; each may name one drawn before it (an order on appeal of another)."""
    out: list[dict] = []
    for i in range(count):
        out.append(action(draw, f"{prefix}-{i}", pack, when, plans, [*earlier, *out]))
    return out


def action(draw, id_: str, pack, when: Dates, plans: Dates, earlier=()) -> dict:
    """One enforcement action of the pack, its fields read from the pack's enforcement.yaml."""
    spec = pack.actions[draw(st.sampled_from(sorted(pack.actions)))]
    classes = pack.administrative_classes()
    out: dict[str, Any] = {"id": id_, "type": spec.type}
    capped = "penalty_cap" in spec.checks
    for name, fs in spec.fields.items():
        if capped and name in PENALTY_UNITS:
            continue  # given below, in the unit of the class's cap
        if not fs.required and not draw(st.booleans()):
            continue
        kind = fs.kind
        if kind == "date":
            value: Any = when()
        elif kind == "planned_date":
            value = plans()
        elif kind == "datetime":
            value = when.at()
        elif kind == "money":
            value = draw(money)
        elif kind == "flag":
            value = draw(st.booleans())
        elif kind == "choice":
            value = draw(st.sampled_from(fs.choices))
        elif kind == "penalty_class":
            value = draw(st.sampled_from(sorted(classes)))
        elif kind in ("count", "quantity"):
            value = draw(st.integers(0, 30))
        elif kind == "milestones":
            n = draw(st.integers(0, 3))
            value = [
                compact(
                    {"id": f"M-{i}", "due": plans(), "met_on": maybe(draw, when, st.booleans())}
                )
                for i in range(n)
            ]
        elif kind == "text":
            value = draw(st.sampled_from(["Permit fee", "Inspection fee"]))
        elif kind == "action":
            named = sorted(a["id"] for a in earlier if a["type"] in fs.choices)
            if not named:
                continue
            value = draw(st.sampled_from(named))
        else:  # pragma: no cover - a field kind this generator does not know yet
            raise AssertionError(f"unknown field kind {kind}")
        out[name] = value
    if capped:
        out[classes[out["class"]]] = draw(st.integers(0, 30))
    if "continued_to" in out:  # a hearing is continued from its date to a later one
        if "hearing_on" not in out:
            del out["continued_to"]
        else:
            out["continued_to"] = max(out["continued_to"], out["hearing_on"])
    return out


# --- case files -----------------------------------------------------------------------------


def in_order(case: dict) -> dict:
    """Drop act dates that come before the date they follow (such files are input errors)."""
    pairs = [(case["establishment"], "closed_on", "opened_on")]
    pairs += [(case["permit"], "expires_on", "issued_on")] if "permit" in case else []
    pairs += [(e, "left_on", "hired_on") for e in case.get("employees", [])]
    for n in case.get("incidents", []):
        pairs += [(n, "written_report_on", "date"), (n, "clearance_inspection_on", "date")]
    for record, later, earlier in pairs:
        if later in record and record[later] < record[earlier]:
            if later == "expires_on":
                record[later] = record[earlier]
            else:
                del record[later]
    return case


def _establishment(draw, as_of: date, operator: str, when, recent) -> dict[str, Any]:
    """The establishment of a drawn case file, now and then out of the ordinary."""
    est: dict[str, Any] = {
        "id": "FSE-1",
        "name": "Test Kitchen",
        "opened_on": when(),
        "operator": {"name": operator, "since": when()},
    }
    if draw(seldom):
        est["category"] = "limited_food_preparation"
    if draw(seldom):
        est["on_public_sewer"] = False
    if draw(seldom):
        est["closed_on"] = recent()
    if draw(rarely):
        est["remodeled_on"] = when()
    if draw(rarely):
        est["food_grinder"] = True
        if draw(st.booleans()):
            est["food_grinder_installed_on"] = when()
    if draw(rarely):
        est["variance_granted"] = True
    if draw(rarely):
        est["interceptor_exception"] = draw(st.sampled_from(["space", "slope"]))
    if draw(rarely):
        est["interceptor_plans_submitted_on"] = recent()
    change_days = draw(st.lists(st.integers(-300, 200), unique=True, max_size=2))
    if change_days:
        est["changes"] = [
            compact(
                {
                    "date": iso(as_of, d),
                    "kind": draw(st.sampled_from(["remodel", "expansion", "process"])),
                    "notified_on": maybe(
                        draw, lambda d=d: iso(as_of, d - draw(st.integers(0, 90)))
                    ),
                }
            )
            for d in change_days
        ]
    return est


def _permit(draw, operator: str, when, recent) -> dict[str, Any]:
    """The permit of a drawn case file, now and then renewed, denied, suspended or revoked."""
    issued = when(hi=20)
    return compact(
        {
            "number": "P-1",
            "holder": operator if draw(often) else "Someone Else",
            "issued_on": issued,
            "expires_on": iso(date.fromisoformat(issued), draw(st.integers(200, 1900))),
            "renewal_applied_on": maybe(draw, recent, rarely),
            "renewal_denied_on": maybe(draw, recent, rarely),
            "suspended_from": maybe(draw, recent, rarely),
            "revoked_on": maybe(draw, recent, rarely),
            "service_frequency_days": maybe(
                draw, lambda: draw(st.sampled_from([30, 60, 90, 100, 120])), st.booleans()
            ),
            "yellow_grease_frequency_days": maybe(
                draw, lambda: draw(st.sampled_from([30, 90])), rarely
            ),
        }
    )


def _records(draw, pack, as_of: date, when, recent) -> dict[str, Any]:
    """The records of a drawn case file, each kind referring to those drawn before it."""
    devices = [
        device(draw, f"{kind}-{i}", when)
        for i, kind in enumerate(draw(st.lists(st.sampled_from(["GI", "GT"]), max_size=3)))
    ]
    device_ids = [d["id"] for d in devices]
    haulers = [
        compact({"id": f"H-{i}", "licensed": maybe(draw, lambda: False, rarely)})
        for i in range(draw(st.integers(0, 2)))
    ]
    hauler_ids = [h["id"] for h in haulers]
    services = (
        [
            service(draw, f"S-{i}", device_ids, hauler_ids, recent)
            for i in range(draw(st.integers(0, 10)))
        ]
        if devices
        else []
    )
    pickups = [
        compact({"date": recent(), "hauler": hauler_ids[0] if hauler_ids else None})
        for _ in range(draw(st.integers(0, 2)))
    ]
    employees = [employee(draw, f"E-{i}", when, recent) for i in range(draw(st.integers(0, 4)))]
    employee_ids = [e["id"] for e in employees]
    trainings = [
        training(draw, f"T-{i}", employee_ids, when) for i in range(draw(st.integers(0, 4)))
    ]
    # a few checklist items per case, so that items recur and get cured
    items = draw(
        st.lists(st.sampled_from(sorted(pack.checklist)), min_size=1, max_size=4, unique=True)
    )
    inspections = [
        inspection(draw, f"I-{i}", items, device_ids, recent)
        for i in range(draw(st.integers(0, 4)))
    ]
    incidents = [incident(draw, f"N-{i}", recent, recent) for i in range(draw(st.integers(0, 3)))]
    taken = actions(draw, "A", draw(st.integers(0, 4)), pack, recent, Dates(draw, as_of, -400, 120))
    return dict(
        devices=devices,
        haulers=haulers,
        services=services,
        yellow_grease_pickups=pickups,
        employees=employees,
        trainings=trainings,
        inspections=inspections,
        incidents=incidents,
        enforcement=taken,
    )


@st.composite
def case_files(draw, jurisdiction: str) -> dict:
    """A valid case file of `jurisdiction`: records mostly before as_of, some after."""
    pack = PACKS.get(jurisdiction)
    as_of = draw(st.dates(max(FIRST_AS_OF, pack.effective), LAST_AS_OF))
    when = Dates(draw, as_of, -1200, 40)
    recent = Dates(draw, as_of, -500, 40)
    operator = draw(st.sampled_from(OPERATORS))
    est = _establishment(draw, as_of, operator, when, recent)
    case: dict[str, Any] = {"jurisdiction": jurisdiction, "as_of": as_of.isoformat()}
    case["establishment"] = est
    if draw(often):
        case["permit"] = _permit(draw, operator, when, recent)
    case.update(_records(draw, pack, as_of, when, recent))
    return in_order(case)


@st.composite
def with_later_records(draw, jurisdiction: str) -> tuple[dict, dict]:
    """A case file, and the same file with records dated after its as_of added."""
    case = draw(case_files(jurisdiction))
    pack = PACKS.get(jurisdiction)
    answered = {a["item"] for insp in case["inspections"] for a in insp["answers"]}
    items = sorted(answered or pack.checklist)
    as_of = date.fromisoformat(case["as_of"])
    later = Dates(draw, as_of, 1, 500)
    anytime = Dates(draw, as_of, -400, 500)
    more = copy.deepcopy(case)
    new_devices = [device(draw, f"XD-{i}", later) for i in range(draw(st.integers(0, 2)))]
    more["devices"] += new_devices
    device_ids = [d["id"] for d in more["devices"]]
    hauler_ids = [h["id"] for h in more["haulers"]]
    new_employees = [
        employee(draw, f"XE-{i}", later, later) for i in range(draw(st.integers(0, 2)))
    ]
    more["employees"] += new_employees
    employee_ids = [e["id"] for e in more["employees"]]
    if device_ids:
        more["services"] += [
            service(draw, f"XS-{i}", device_ids, hauler_ids, later)
            for i in range(draw(st.integers(0, 4)))
        ]
    more["yellow_grease_pickups"] += [{"date": later()} for _ in range(draw(st.integers(0, 2)))]
    more["trainings"] += [
        training(draw, f"XT-{i}", employee_ids, later) for i in range(draw(st.integers(0, 3)))
    ]
    more["inspections"] += [
        inspection(draw, f"XI-{i}", items, device_ids, later)
        for i in range(draw(st.integers(0, 3)))
    ]
    more["incidents"] += [
        incident(draw, f"XN-{i}", later, later) for i in range(draw(st.integers(0, 3)))
    ]
    more["enforcement"] += actions(
        draw, "XA", draw(st.integers(0, 3)), pack, later, anytime, more["enforcement"]
    )
    if "permit" not in more and draw(st.booleans()):
        more["permit"] = {
            "number": "XP-1",
            "holder": more["establishment"]["operator"]["name"],
            "issued_on": later(),
            "expires_on": later(lo=400),
        }
    est = more["establishment"]
    if not est.get("food_grinder") and draw(st.booleans()):
        est["food_grinder"] = True
        est["food_grinder_installed_on"] = later()
    return case, in_order(more)


@st.composite
def with_later_acts(draw, jurisdiction: str) -> tuple[dict, dict]:
    """A case file, and the same file with some absent act dates set after its as_of."""
    case = draw(case_files(jurisdiction))
    pack = PACKS.get(jurisdiction)
    as_of = date.fromisoformat(case["as_of"])
    later = Dates(draw, as_of, 1, 500)
    more = copy.deepcopy(case)

    def set_later(record: dict, name: str, value=None) -> None:
        if record.get(name) is None and draw(st.booleans()):
            record[name] = value or later()

    est = more["establishment"]
    for name in ("closed_on", "interceptor_plans_submitted_on"):
        set_later(est, name)
    for change in est.get("changes", []):
        set_later(change, "notified_on")
    if "permit" in more:
        for name in ("renewal_applied_on", "renewal_denied_on", "revoked_on"):
            set_later(more["permit"], name)
    for e in more["employees"]:
        set_later(e, "left_on")
    for n in more["incidents"]:
        set_later(n, "written_report_on")
        set_later(n, "clearance_inspection_on")
    for a in more["enforcement"]:
        spec = pack.actions[a["type"]]
        for name, fs in spec.fields.items():
            if fs.kind == "date" and not fs.required:
                set_later(a, name)
            elif fs.kind == "datetime" and not fs.required:
                set_later(a, name, later.at())
        for m in a.get("milestones", []):
            set_later(m, "met_on")
    return case, in_order(more)


def report(case: dict) -> dict:
    return evaluate(parse_case(case, packs=PACKS)).to_dict()


NESTED = {"trainings": ("attendees",), "inspections": ("measurements", "answers")}
TOP = (
    "devices",
    "haulers",
    "services",
    "yellow_grease_pickups",
    "employees",
    "trainings",
    "inspections",
    "incidents",
    "enforcement",
)


def shuffled(case: dict, rnd: random.Random) -> dict:
    out = copy.deepcopy(case)
    for name in TOP:
        rnd.shuffle(out[name])
        for record in out[name]:
            for inner in NESTED.get(name, ()):
                rnd.shuffle(record[inner])
            if isinstance(record.get("milestones"), list):
                rnd.shuffle(record["milestones"])
    rnd.shuffle(out["establishment"].get("changes", []))
    return out


# --- properties -----------------------------------------------------------------------------


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
@PROPERTY
@given(data=st.data())
def test_it_ignores_records_dated_after_as_of(jurisdiction, data):
    case, more = data.draw(with_later_records(jurisdiction))
    assert report(more) == report(case)


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
@PROPERTY
@given(data=st.data())
def test_it_ignores_acts_dated_after_as_of(jurisdiction, data):
    case, more = data.draw(with_later_acts(jurisdiction))
    assert report(more) == report(case)


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
@PROPERTY
@given(data=st.data(), rnd=st.randoms(use_true_random=False))
def test_it_does_not_depend_on_the_order_of_lists(jurisdiction, data, rnd):
    case = data.draw(case_files(jurisdiction))
    assert report(shuffled(case, rnd)) == report(case)


@pytest.mark.parametrize("jurisdiction", JURISDICTIONS)
@PROPERTY
@given(data=st.data())
def test_it_cites_a_pack_rule_for_every_finding(jurisdiction, data):
    case = data.draw(case_files(jurisdiction))
    pack = PACKS.get(jurisdiction)
    result = evaluate(parse_case(case, packs=PACKS))
    as_of = result.as_of
    for f in result.findings:
        assert f.citation.strip(), f
        assert f.rule in pack.rules or f.rule in pack.checklist, f
        expected = pack.rules[f.rule].severity if f.rule in pack.rules else "violation"
        assert f.severity == expected, f
        assert f.since <= as_of, f
        assert f.open == (f.resolved_on is None), f
        if not f.open:
            assert f.since <= f.resolved_on <= as_of, f
    for item in (*result.schedule, *result.deadlines):
        assert item.citation.strip(), item
    open_violation = any(f.open and f.severity == "violation" for f in result.findings)
    if result.status in ("exempt", "inactive"):
        assert result.findings == [] and result.schedule == []
    else:
        assert (result.status == "non_compliant") == open_violation


# --- the minimal counterexamples the order property found -----------------------------------


def outcome(case: dict) -> Any:
    """The report, or the input errors (either is an answer that must not depend on order)."""
    try:
        return report(case)
    except CaseFileError as e:
        return sorted(str(p) for p in e.problems)


ANSWERED_TWICE = {
    "jurisdiction": "san-clemente",
    "as_of": "2025-06-30",
    "establishment": {
        "id": "FSE-1",
        "opened_on": "2005-01-01",
        "operator": {"name": "Pier Foods LLC", "since": "2005-01-01"},
    },
    "permit": {
        "number": "SC-1",
        "holder": "Pier Foods LLC",
        "issued_on": "2024-01-01",
        "expires_on": "2028-12-31",
    },
    "inspections": [
        {
            "id": "I-1",
            "date": "2025-03-01",
            "answers": [{"item": "bmp.signage", "compliant": False}],
        },
        {
            "id": "I-2",
            "date": "2025-04-01",
            "answers": [
                {"item": "bmp.signage", "compliant": False},
                {"item": "bmp.signage", "compliant": True},
            ],
        },
    ],
}

MEASURED_TWICE = {
    **ANSWERED_TWICE,
    "devices": [
        {
            "id": "GI-1",
            "kind": "interceptor",
            "installed_on": "2025-05-01",
            "design_depth_inches": 40,
        }
    ],
    "inspections": [
        {
            "id": "I-1",
            "date": "2025-06-10",
            "measurements": [
                {"device": "GI-1", "fog_inches": 10, "solids_inches": 5},
                {"device": "GI-1", "fog_inches": 12, "solids_inches": 5},
            ],
        }
    ],
}


def test_it_does_not_depend_on_the_order_of_one_inspections_answers_to_an_item():
    flipped = copy.deepcopy(ANSWERED_TWICE)
    flipped["inspections"][1]["answers"].reverse()
    assert outcome(flipped) == outcome(ANSWERED_TWICE)


def test_it_does_not_depend_on_the_order_of_one_inspections_readings_of_a_device():
    flipped = copy.deepcopy(MEASURED_TWICE)
    flipped["inspections"][0]["measurements"].reverse()
    assert outcome(flipped) == outcome(MEASURED_TWICE)
