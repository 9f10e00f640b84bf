"""The requests a jurisdiction's pack declares (its requests.yaml, read once per pack folder):
a pack without the file offers none."""

from __future__ import annotations

from datetime import date
from functools import cache
from pathlib import Path

import yaml

from fogkeeper.rules.calendar import Duration
from fogkeeper.rules.errors import PackError
from fogkeeper.rules.requests import FILE, RequestKind, parse_requests, requests_problems
from fogkeeper.safeload import Refused, load_yaml


@cache
def _kinds(folder: str) -> dict[str, RequestKind]:
    path = Path(folder) / FILE
    if not path.exists():
        return {}
    try:
        data = load_yaml(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, Refused) as e:
        raise PackError(f"{path}: {e}") from None
    problems = requests_problems(data)
    if problems:
        key, message = problems[0]
        raise PackError(f"{path}: {key}: {message}")
    return parse_requests(data)


def request_kinds(pack) -> dict[str, RequestKind]:
    """The requests `pack` (a loaded rules.packs.Pack) lets an operator file, by key."""
    return _kinds(str(pack.source))


def request_kind(pack, key: str) -> RequestKind | None:
    return request_kinds(pack).get(key)


def due_on(pack, kind: RequestKind, filed_on: date) -> date | None:
    """The day the agency must deliver by, where the ordinance sets it (rolled past a
    holiday or weekend, as the pack's calendar rolls every deadline)."""
    if kind.deliver_within is None:
        return None
    period = Duration.parse(f"{kind.deliver_within.days} days")
    return pack.calendar.add(filed_on, period, roll=True)
