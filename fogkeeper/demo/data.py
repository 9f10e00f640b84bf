"""The demo program as plain data in the shape of CASEFILE.md (`Program`), and what the
builder is told of a device (`Device`) and of a written program's well-run establishment
(`Shape`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any


def _years(d: date, n: int) -> date:
    """d + n years, 29 February clamped to the 28th."""
    try:
        return d.replace(year=d.year + n)
    except ValueError:
        return d.replace(year=d.year + n, day=28)


@dataclass
class Device:
    """How a device is described and how its history is generated."""

    kind: str = "interceptor"
    capacity: float | None = None
    depth: float | None = None
    compartments: int | None = None
    manhole: float | None = None
    installed: date | None = None
    frequency: int | None = None  # set on the device itself
    last_service: int | None = None  # days before as_of
    serviced_every: int | None = None  # the pace of the pump-outs, if not the frequency
    rate: float = 1.0  # accumulation, relative to a rate that fits the frequency
    hauler: str | None = None


@dataclass
class Program:
    """One agency's demo program, as plain data."""

    pack_id: str
    as_of: date
    agency: dict
    owners: dict[str, dict] = field(default_factory=dict)
    parcels: dict[str, dict] = field(default_factory=dict)
    segments: list[dict] = field(default_factory=list)
    haulers: list[dict] = field(default_factory=list)
    establishments: list[dict] = field(default_factory=list)
    unmatched_incidents: list[dict] = field(default_factory=list)

    def case_files(self) -> list[dict]:
        """The establishments as case files (CASEFILE.md), as the engine reads them."""
        haulers = {h["id"]: h for h in self.haulers}
        out = []
        for rec in self.establishments:
            used = sorted(
                {s["hauler"] for s in rec["services"] if s.get("hauler")}
                | {p["hauler"] for p in rec["yellow_grease_pickups"] if p.get("hauler")}
            )
            case = {"jurisdiction": self.pack_id, "as_of": self.as_of}
            for key, value in rec.items():
                if key.startswith("_") or (key == "samples" and not value):
                    continue  # samples only where some were taken
                case[key] = [_bare(v) for v in value] if isinstance(value, list) else _bare(value)
            case["haulers"] = [
                {"id": h, "name": haulers[h]["name"], "licensed": haulers[h]["licensed"]}
                for h in used
            ]
            out.append(case)
        return out


_NOT_IN_CASE_FILES = ("notes", "cause", "fog_caused")


def _bare(item: Any) -> Any:
    """A record without what the database keeps beyond the case file (notes, causes)."""
    if not isinstance(item, dict):
        return item
    return {k: v for k, v in item.items() if not k.startswith("_") and k not in _NOT_IN_CASE_FILES}


@dataclass(frozen=True)
class Shape:
    """The well-run establishment of a written program (its file's `builder`): the numbers
    of its codes (`establishment_prefix`-NNNN from `first_number`, permits `permit_prefix`),
    how many days ago one opened and its permit was issued (a range drawn from), the permit's
    term in years and whether it sets a waste cooking oil frequency, the service frequency a
    permit sets (`permit_frequency`: `trap_only` days for traps alone and a `choose` list
    otherwise, always; or, with `chance`, one of `choose` for an establishment with a device
    of kind `with_kind`), the days between traps' pump-outs when set, the days between
    refresher trainings (a range), and the days after hiring a new employee is trained (a
    range drawn from, or a number)."""

    first_number: int
    establishment_prefix: str
    opened_days: tuple[int, int]
    permit_prefix: str
    permit_issued_days: tuple[int, int]
    permit_term_years: int
    permit_frequency: dict
    permit_yellow_grease: bool
    trap_frequency_days: int | None
    refresher_days: tuple[int, int]
    new_hire_training_days: int | list[int]

    @classmethod
    def read(cls, data: dict) -> Shape:
        ranges = ("opened_days", "permit_issued_days", "refresher_days")
        values: dict[str, Any] = {k: tuple(v) if k in ranges else v for k, v in data.items()}
        return cls(**values)
