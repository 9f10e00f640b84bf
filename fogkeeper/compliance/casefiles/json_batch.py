"""What the case file loaders (json_registry.py, json_history.py) share: the batch of
establishments they read, with the codes they hand each other, and the reading of a row's
values into a case file's."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import FloatField
from django.db.models.expressions import BaseExpression
from django.db.models.functions import Cast

from fogkeeper.registry.models import Agency


class _Float(Cast):
    """A decimal column read as a float by the database itself: PostgreSQL and SQLite both
    hand back Python floats, so Django's per-value converter is not needed."""

    def __init__(self, column: str):
        super().__init__(column, FloatField())

    @property
    def convert_value(self):
        return BaseExpression._convert_value_noop  # type: ignore[attr-defined]  # Django's own, unstubbed


def _iso_or_none(value: date | None) -> str | None:
    """A date as the case file spells it; None stays None (and `_put` leaves it out)."""
    return None if value is None else value.isoformat()


def _put(item: dict, key: str, value: Any) -> None:
    if value is not None:
        item[key] = value


def _reading(item: dict, fog, solids, oil, sludge) -> dict:
    if fog is not None:
        item["fog_inches"] = fog
    if solids is not None:
        item["solids_inches"] = solids
    if oil is not None:
        item["final_chamber_floating_oil"] = oil
    if sludge is not None:
        item["sludge_to_outlet_inches"] = sludge
    return item


def _codes_of_others(model, codes: dict[int, str], pks: set[int]) -> None:
    """Adds to `codes` those of `pks` that are not there: records of another establishment,
    referred to by mistake. A query only when there are any; the case file will then name
    them as unknown."""
    missing = [pk for pk in pks if pk not in codes]
    if missing:
        codes.update(model.objects.filter(pk__in=missing).values_list("pk", "code"))


@dataclass
class _Batch:
    """The establishments of one batch, and the codes the loaders share."""

    agency: Agency
    ids: list[int]
    as_of: date
    device_codes: dict[int, str] = field(default_factory=dict)
    removed: set[int] = field(default_factory=set)  # devices removed on or before as_of
    employee_codes: dict[int, str] = field(default_factory=dict)
    hauler_ids: dict[int, set] = field(default_factory=lambda: defaultdict(set))

    @property
    def of_batch(self) -> dict:
        return {"establishment_id__in": self.ids}
