"""What the generator reads of the pack: its device kinds and their frequencies, its
categories, its permit term and which optional parts of a program it has at all."""

from __future__ import annotations

from datetime import date
from typing import Any

YEAR = 365  # days
# pump-out frequencies (days) where the pack sets no default for a kind: large, small devices
LARGE_FREQUENCIES = ((60, 0.15), (90, 0.45), (120, 0.25), (180, 0.15))
SMALL_FREQUENCIES = ((30, 0.5), (60, 0.5))
# around a default of D days: D itself mostly, sometimes more often
AROUND_DEFAULT = ((1, 0.6), (2 / 3, 0.25), (1 / 2, 0.15))
LARGE_SHARE = 0.83  # of the devices, those of the large kinds
OTHER_CATEGORIES_SHARE = 0.03  # of the establishments, those not in the pack's default category


def pack_value(pack, name: str, on: date, default: Any = None) -> Any:
    from fogkeeper.rules.errors import ParameterNotInForce

    try:
        return pack.param(name, on) if name in pack.parameters else default
    except ParameterNotInForce:
        return default


def _initials(title: str) -> str:
    """A device code's prefix from its kind's title: "Grease interceptor" -> "GI"."""
    words = [w for w in title.replace("-", " ").split() if w[:1].isalpha()]
    return "".join(w[0] for w in words[:3]).upper() or "D"


class Ordinance:
    """What the generator reads of the pack, in force on `as_of`: the device kinds (the large
    ones: those with design limits or required to have, else the first), their frequencies,
    the categories, the permit term and which optional parts of a program the pack has."""

    def __init__(self, pack, as_of: date):
        self.pack, self.on = pack, as_of
        kinds = list(pack.device_kinds)
        limits = pack_value(pack, "gcd.design_limits", as_of, {}) or {}
        required = pack_value(pack, "gcd.required_device_kinds", as_of, []) or []
        self.large = {k for k in kinds if k in limits or k in required} or {kinds[0]}
        small = [k for k in kinds if k not in self.large]
        large = [k for k in kinds if k in self.large]
        share = LARGE_SHARE if small else 1.0
        self.kinds = [(k, share / len(large)) for k in large]
        self.kinds += [(k, (1 - share) / len(small)) for k in small]
        partial = pack_value(pack, "gcd.partial_pump_out_device_kinds", as_of, None)
        self.fully_pumped = set(partial) if partial is not None else self.large
        self.frequencies = {k: self._frequencies(k) for k in kinds}
        self.prefix = {k: _initials(pack.kind_title(k)) for k in kinds}
        others = [c for c in pack.categories if c != pack.default_category]
        self.other_categories = others
        self.required_categories = pack_value(pack, "gcd.required_categories", as_of, None)
        term = self._duration("permit.term") or self._duration("permit.max_term")
        has_permits = any(rule.startswith("permit.") for rule in pack.rules)
        self.permit_term = term.days_equivalent() if term and has_permits else None
        lead = self._duration("permit.renewal_application_lead")
        self.renewal_lead = lead.days_equivalent() if lead else None
        self.yellow_grease = pack.has("yellow_grease.collection_overdue")
        self.changes = pack.has("permit.change_not_notified")
        self.exceptions = pack.has("gcd.trap_needs_interceptor")
        self.design_limits = limits
        self.discharge_limits: dict[str, Any] = {}
        if pack.has("discharge.limit_exceeded"):
            self.discharge_limits = pack_value(pack, "discharge.limits", as_of) or {}
        self.approves = pack.has("gcd.design_nonconforming") and bool(
            pack_value(pack, "gcd.exceptions_allowed", as_of, False)
        )

    def failing(self, kind: str, values: dict[str, float | int | None]) -> list[str]:
        """The design fields of a device of `kind` outside the pack's limits."""
        failed = []
        for name, bound in (self.design_limits.get(kind) or {}).items():
            value = values.get(name)
            if value is not None and (
                ("min" in bound and value < bound["min"])
                or ("max" in bound and value > bound["max"])
            ):
                failed.append(name)
        return failed

    def _duration(self, name: str):
        value = pack_value(self.pack, name, self.on)
        return self.pack.duration(name, value) if value is not None else None

    def days(self, name: str, default: int) -> int:
        d = self._duration(name)
        return d.days_equivalent() if d is not None else default

    def _frequencies(self, kind: str) -> tuple:
        """(days, probability) pairs of the kind's pump-out frequency, snapped down to the
        frequencies the pack allows, if it lists them."""
        default = self.pack.default_frequency(kind, self.on)
        if default is not None:
            base = default.days_equivalent()
            pairs = [(max(1, round(base * m)), p) for m, p in AROUND_DEFAULT]
        else:
            pairs = list(LARGE_FREQUENCIES if kind in self.large else SMALL_FREQUENCIES)
        allowed = sorted(pack_value(self.pack, "gcd.allowed_frequencies_days", self.on, []))
        if allowed:
            pairs = [(max([a for a in allowed if a <= f] or allowed[:1]), p) for f, p in pairs]
        return tuple(pairs)

    def kind(self, x: float) -> str:
        for kind, p in self.kinds:
            x -= p
            if x < 0:
                return kind
        return self.kinds[-1][0]

    def category(self, x: float) -> str:
        if not self.other_categories or x >= OTHER_CATEGORIES_SHARE:
            return self.pack.default_category
        share = OTHER_CATEGORIES_SHARE / len(self.other_categories)
        return self.other_categories[min(int(x / share), len(self.other_categories) - 1)]

    def needs_device(self, category: str) -> bool:
        return self.required_categories is None or category in self.required_categories
