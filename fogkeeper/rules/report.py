"""What the engine returns (RULES.md section 2)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

import msgspec

STATUSES = ("non_compliant", "compliant", "exempt", "inactive")


def _json(value: Any) -> Any:
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    return value


class Finding(msgspec.Struct, gc=False):
    rule: str
    subject: str
    severity: str
    open: bool
    since: date
    citation: str
    message: str
    due: date | None = None
    resolved_on: date | None = None
    evidence: dict[str, Any] = {}

    def to_dict(self) -> dict[str, Any]:
        d = {
            "rule": self.rule,
            "subject": self.subject,
            "severity": self.severity,
            "open": self.open,
            "since": self.since.isoformat(),
        }
        if self.due is not None:
            d["due"] = self.due.isoformat()
        if self.resolved_on is not None:
            d["resolved_on"] = self.resolved_on.isoformat()
        d["citation"] = self.citation
        d["message"] = self.message
        d["evidence"] = _json(self.evidence)
        return d


class ScheduleItem(msgspec.Struct, gc=False):
    obligation: str
    subject: str
    due: date
    citation: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "obligation": self.obligation,
            "subject": self.subject,
            "due": self.due.isoformat(),
            "citation": self.citation,
        }


class Deadline(msgspec.Struct, gc=False):
    action: str
    name: str
    date: date | datetime
    kind: str
    citation: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "name": self.name,
            "date": self.date.isoformat(),
            "kind": self.kind,
            "citation": self.citation,
        }


class Accrual(msgspec.Struct, gc=False):
    action: str
    rule: str
    days: int
    rate: Decimal
    amount: Decimal
    citation: str
    start: date
    through: date

    def to_dict(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "rule": self.rule,
            "days": self.days,
            "rate": _json(self.rate),
            "amount": _json(self.amount),
            "from": self.start.isoformat(),
            "through": self.through.isoformat(),
            "citation": self.citation,
        }


class Report(msgspec.Struct):
    jurisdiction: str
    establishment: str
    name: str | None
    as_of: date
    status: str
    status_citation: str | None = None
    findings: list[Finding] = []
    schedule: list[ScheduleItem] = []
    deadlines: list[Deadline] = []
    accruals: list[Accrual] = []

    def open_violations(self) -> list[Finding]:
        return [f for f in self.findings if f.open and f.severity == "violation"]

    def to_dict(self) -> dict[str, Any]:
        return {
            "jurisdiction": self.jurisdiction,
            "establishment": self.establishment,
            "name": self.name,
            "as_of": self.as_of.isoformat(),
            "status": self.status,
            "status_citation": self.status_citation,
            "findings": [f.to_dict() for f in self.findings],
            "schedule": [s.to_dict() for s in self.schedule],
            "deadlines": [d.to_dict() for d in self.deadlines],
            "accruals": [a.to_dict() for a in self.accruals],
        }
