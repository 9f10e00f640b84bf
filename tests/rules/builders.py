"""Small case files for rule tests: a compliant establishment to change one thing of.

report = evaluate_case(sc_case(devices=[...]), as_of="2025-06-30")
f = one(report, "gcd.service_overdue", "GI-1")
"""

from __future__ import annotations

import copy
from datetime import date
from typing import Any

from fogkeeper.rules import Report, evaluate, parse_case

SC_BASE: dict[str, Any] = {
    "jurisdiction": "san-clemente",
    "as_of": "2025-06-30",
    "establishment": {
        "id": "FSE-1",
        "name": "Pier Taqueria",
        "opened_on": "2005-01-01",
        "operator": {"name": "Pier Foods LLC", "since": "2005-01-01"},
    },
    "permit": {
        "number": "SC-1",
        "holder": "Pier Foods LLC",
        "issued_on": "2024-01-01",
        "expires_on": "2028-12-31",
    },
    "inspections": [{"id": "I-0", "date": "2025-01-15"}],
}

TOWN_BASE: dict[str, Any] = {
    "jurisdiction": "town-10-02",
    "as_of": "2025-06-30",
    "establishment": {
        "id": "FSE-T",
        "name": "Mesa Wings",
        "opened_on": "2024-01-01",
        "operator": {"name": "Mesa Wings LLC", "since": "2024-01-01"},
    },
    "permit": {
        "number": "TW-1",
        "holder": "Mesa Wings LLC",
        "issued_on": "2025-01-01",
        "expires_on": "2025-12-31",
    },
    "devices": [
        {
            "id": "GI-1",
            "kind": "interceptor",
            "installed_on": "2025-02-15",
            "design_depth_inches": 48,
            "compartments": 2,
            "manhole_diameter_inches": 24,
        }
    ],
    "services": [{"id": "S-0", "device": "GI-1", "date": "2025-05-01"}],
    "inspections": [{"id": "I-0", "date": "2025-01-15"}],
}


def _merge(base: dict, changes: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def sc_case(**changes: Any) -> dict:
    """A compliant San Clemente case file with `changes` merged in (dicts merge, lists replace)."""
    return _merge(SC_BASE, changes)


def town_case(**changes: Any) -> dict:
    """A compliant Town case file with `changes` merged in (dicts merge, lists replace)."""
    return _merge(TOWN_BASE, changes)


def evaluate_case(case: dict, as_of: str | date | None = None) -> Report:
    if isinstance(as_of, str):
        as_of = date.fromisoformat(as_of)
    return evaluate(parse_case(case, as_of=as_of))


def found(report: Report, rule: str, subject: str | None = None) -> list:
    return [f for f in report.findings if f.rule == rule and subject in (None, f.subject)]


def one(report: Report, rule: str, subject: str | None = None):
    hits = found(report, rule, subject)
    assert len(hits) == 1, f"expected one {rule} finding for {subject}, got {hits}"
    return hits[0]


def deadline(report: Report, action: str, name: str, kind: str = "deadline"):
    hits = [d for d in report.deadlines if (d.action, d.name, d.kind) == (action, name, kind)]
    assert len(hits) == 1, f"expected one {kind} {name} of {action}, got {report.deadlines}"
    return hits[0].date


def scheduled(report: Report, obligation: str, subject: str | None = None) -> list:
    return [
        s.due
        for s in report.schedule
        if s.obligation == obligation and subject in (None, s.subject)
    ]


def d(text: str) -> date:
    return date.fromisoformat(text)
