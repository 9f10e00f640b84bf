"""The requests a pack's `requests.yaml` declares: what the ordinance lets a person ask of the
agency in writing (a revised pumping schedule, the record of a proceeding), each with its
title and section, who files it, what it is about, what the form asks for, how the agency
answers it and the days the text gives the agency to answer, each with its reference.

A pack without the file declares no request: its portal offers none. The pack check
(`packcheck.documents`) and fogkeeper/filings read the file through `requests_problems` and
`parse_requests`, so what the checker accepts the application can use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

FILE = "requests.yaml"
BY = ("operator",)
# what a request is about: the establishment's device, its current permit, or a hearing of
# one of its enforcement cases
ABOUT = ("device", "permit", "hearing")
# what the form may ask, with the words of its label
ASKS = {
    "frequency_days": "Requested frequency (days between pump-outs or collections)",
    "grounds": "Why (what shows the change will not cause non-compliance)",
    "accumulation": "Data: FOG and solids accumulation measured over time",
}
# how the agency answers: grant or deny with reasons; deliver (on a date, with a cost);
# acknowledge what was submitted
ANSWERS = ("decide", "deliver", "acknowledge")
# what a granted request changes on the record the engine reads: the device's service
# frequency, or a term of the permit (modified with the notice the pack requires)
GRANTED = ("device_frequency", "permit_frequency", "yellow_grease_frequency")
PERMIT_TERMS = {
    "permit_frequency": "service_frequency_days",
    "yellow_grease_frequency": "yellow_grease_frequency_days",
}
KEYS = (
    "title",
    "citation",
    "by",
    "about",
    "asks",
    "answer",
    "decided_by",
    "granted",
    "deliver_within",
    "cost",
    "review_extension",
)


@dataclass(frozen=True, slots=True)
class Days:
    days: int
    reference: str


@dataclass(frozen=True, slots=True)
class Extension:
    filed_within: int
    until: int
    reference: str


@dataclass(frozen=True, slots=True)
class RequestKind:
    key: str
    title: str
    citation: str
    by: str
    about: str
    asks: tuple[str, ...]
    answer: str
    decided_by: str
    granted: str = ""
    deliver_within: Days | None = None
    cost_reference: str = ""
    review_extension: Extension | None = None


def _text(v: Any) -> bool:
    return isinstance(v, str) and bool(v.strip())


def _cited_days(entry: Any, keys: tuple[str, ...]) -> list[str]:
    if not isinstance(entry, dict):
        return [f"expected {{{', '.join(keys)}, reference}}"]
    out = [f"{k}: not a whole number of days" for k in keys if not _whole(entry.get(k))]
    if not _text(entry.get("reference")):
        out.append("no reference (every value must cite its section)")
    return out


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


def _kind_problems(entry: Any) -> list[tuple[str, str]]:
    if not isinstance(entry, dict):
        return [("", "expected a mapping of title, citation, by, about, asks, answer...")]
    out = [(k, "not a key of a request") for k in entry if k not in KEYS]
    for key in ("title", "citation", "decided_by"):
        if not _text(entry.get(key)):
            out.append((key, "missing"))
    for key, allowed in (("by", BY), ("about", ABOUT), ("answer", ANSWERS)):
        if entry.get(key) not in allowed:
            out.append((key, f"{entry.get(key)!r} is not one of {', '.join(allowed)}"))
    asks = entry.get("asks")
    if not isinstance(asks, list) or not asks:
        out.append(("asks", f"expected a list of {', '.join(ASKS)}"))
    else:
        out += [("asks", f"{a!r} is not one of {', '.join(ASKS)}") for a in asks if a not in ASKS]
    granted = entry.get("granted")
    if granted is not None and granted not in GRANTED:
        out.append(("granted", f"{granted!r} is not one of {', '.join(GRANTED)}"))
    if granted and (entry.get("answer") != "decide" or "frequency_days" not in (asks or [])):
        out.append(("granted", "only a request decided that asks for frequency_days"))
    if granted == "device_frequency" and entry.get("about") != "device":
        out.append(("granted", "a device's frequency: the request must be about a device"))
    if granted in PERMIT_TERMS and entry.get("about") != "permit":
        out.append(("granted", "a term of the permit: the request must be about the permit"))
    for key, keys in (
        ("deliver_within", ("value",)),
        ("review_extension", ("filed_within", "until")),
    ):
        if key in entry:
            out += [(key, m) for m in _cited_days(entry[key], keys)]
    if "cost" in entry and not (
        isinstance(entry["cost"], dict) and _text(entry["cost"].get("reference"))
    ):
        out.append(("cost", "expected {reference}"))
    return out


def requests_problems(data: Any) -> list[tuple[str, str]]:
    """(key, message) for each thing wrong with a requests.yaml's content (none: usable)."""
    if not isinstance(data, dict) or set(data) - {"requests"}:
        return [("", "expected {requests: {key: {...}}}")]
    kinds = data.get("requests") or {}
    if not isinstance(kinds, dict):
        return [("requests", "expected a mapping of request keys")]
    return [
        (f"requests.{name}" + (f".{key}" if key else ""), message)
        for name, entry in kinds.items()
        for key, message in _kind_problems(entry)
    ]


def parse_requests(data: Any) -> dict[str, RequestKind]:
    """The requests of a requests.yaml whose content `requests_problems` accepted."""
    out = {}
    for name, e in ((data or {}).get("requests") or {}).items():
        within = e.get("deliver_within")
        ext = e.get("review_extension")
        out[name] = RequestKind(
            key=name,
            title=e["title"],
            citation=e["citation"],
            by=e["by"],
            about=e["about"],
            asks=tuple(e["asks"]),
            answer=e["answer"],
            decided_by=e["decided_by"],
            granted=e.get("granted") or "",
            deliver_within=Days(within["value"], within["reference"]) if within else None,
            cost_reference=(e.get("cost") or {}).get("reference", ""),
            review_extension=(
                Extension(ext["filed_within"], ext["until"], ext["reference"]) if ext else None
            ),
        )
    return out
