"""parameters.yaml: every parameter the engine and the apps read by name (PARAMETERS),
with the shape of its value, and the check of each value; the rules that read one are
declared with the rules (Rule.reads)."""

from __future__ import annotations

import re
from typing import Any

from ..checks import declared
from .common import PENALTY_CAP, Checker, _date, _listed, _Pack, _text, _unknown_keys, placeholder
from .shapes import (
    Param,
    amount,
    backward_period,
    category_list,
    count,
    date_period,
    day_list,
    design_limits,
    device_kind_list,
    discharge_limits,
    duration,
    flag,
    fraction,
    hauler_certification,
    kind_frequencies,
    one_of,
    penalty_cap,
    sizing_rules,
    whole_days,
)

# Every parameter read by name (fogkeeper/rules unless noted). Periods that the actions of
# enforcement.yaml name (`add`, `within`, `limit`, `rate`, ...) are checked from there.
PARAMETERS: dict[str, Param] = {
    "report.lookback_days": Param(whole_days, always=True),
    "applicability.exempt_off_public_sewer": Param(flag, always=True),
    "applicability.exempt_categories": Param(category_list, always=True),
    "permit.renewal_pending_keeps_permit": Param(flag),
    "permit.renewal_application_lead": Param(backward_period),
    "permit.change_notice_lead": Param(backward_period),
    "permit.max_term": Param(date_period),
    "permit.term": Param(date_period),  # the term a new permit is issued for (permits app)
    "permit.modification_notice_period": Param(date_period),  # permits app
    "permit.modification_notice_inspection_period": Param(date_period),  # permits app
    "permit.holder_business_name": Param(flag),
    "gcd.default_service_frequency": Param(kind_frequencies),
    "gcd.required_categories": Param(category_list),
    "gcd.required_device_kinds": Param(device_kind_list),
    "gcd.trap_prohibited_device_kinds": Param(device_kind_list),
    "gcd.exceptions_allowed": Param(flag),
    "gcd.missing_scope": Param(one_of("every_fse", "new_or_changed")),
    "gcd.design_limits": Param(design_limits),
    "gcd.sizing": Param(sizing_rules),
    "gcd.design_limits_scope": Param(one_of("installed_under_chapter", "all")),
    "gcd.accumulation_limit": Param(fraction),
    "gcd.accumulation_comparator": Param(one_of("over", "at_or_over")),
    "gcd.accumulation_device_kinds": Param(device_kind_list),
    "gcd.outlet_min_clearance_inches": Param(amount),
    "gcd.outlet_device_kinds": Param(device_kind_list),
    "gcd.partial_pump_out_device_kinds": Param(device_kind_list),
    "hauler.certification": Param(hauler_certification),
    "gcd.trap_needs_interceptor_device_kinds": Param(device_kind_list),
    "gcd.trap_needs_interceptor_max_frequency_days": Param(whole_days),
    "gcd.allowed_frequencies_days": Param(day_list),
    "gcd.frequency_review_min_intervals": Param(count),
    "gcd.frequency_review_sample_intervals": Param(count),
    "discharge.limits": Param(discharge_limits),
    "inspection.annual_interval": Param(date_period),
    "inspection.annual_scope": Param(one_of("establishment", "device")),
    "food_grinder.scope": Param(one_of("all", "new_and_existing_after_grace")),
    "food_grinder.existing_grace": Param(
        date_period,
        when=("food_grinder.scope", "new_and_existing_after_grace"),
    ),
    "training.new_hire_window": Param(date_period),
    "training.refresher_interval": Param(date_period),
    "incident.overflow_open_until_clearance": Param(flag),
    "incident.written_report_period": Param(duration),
    "incident.repeat_window": Param(date_period),
    "incident.cost_recovery_period": Param(duration),  # billing
    "enforcement.hearing_continuance_limit": Param(duration),
    "enforcement.penalty_appeal_period": Param(duration),
    "records.retention": Param(backward_period),  # registry: no deletion inside it
}


def _needed_by() -> dict[str, list[str]]:
    """Parameter -> the rules that read it, as their check modules declare (Rule.reads)."""
    out: dict[str, list[str]] = {}
    for rule in declared().values():
        for name in rule.reads:
            out.setdefault(name, []).append(rule.id)
    return out


SUFFIXES: tuple[tuple[tuple[str, ...], Checker], ...] = (
    (("_days",), whole_days),
    (("_period", "_interval", "_window", "_lead", "_grace", "_term", "_limit"), duration),
)
# parameters.yaml


def _check_parameters(pk: _Pack, data: Any) -> None:
    f = "parameters.yaml"
    if data is None:
        return
    if not isinstance(data, dict):
        pk.add(f, "", "expected a mapping of parameter names to {description, values}")
        return
    for name, entry in data.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("values"), dict):
            pk.add(
                f, str(name), "expected {description, values} with values keyed by effective date"
            )
            continue
        _unknown_keys(pk, f, name, entry, ("description", "values"))
        if "description" in entry and not isinstance(entry["description"], str):
            pk.add(f, f"{name}.description", "expected text")
        if not entry["values"]:
            pk.add(f, f"{name}.values", "no values")
            continue
        values = []
        for eff, v in entry["values"].items():
            here = f"{name}.values.{eff}"
            on = _date(eff)
            if on is None:
                pk.add(f, here, f"not a date: {eff!r}")
            elif pk.effective is not None and on < pk.effective:
                pk.add(f, here, f"before the pack takes effect ({pk.effective})")
            if not isinstance(v, dict) or "value" not in v:
                pk.add(f, here, "expected {value, reference}")
                continue
            _unknown_keys(pk, f, here, v, ("value", "reference", "resolution"))
            pk.cited(f, here, v, "reference")
            _resolution(pk, f, here, v)
            values.append((on, eff, v["value"]))
        pk.parameters[name] = values


def _resolution(pk: _Pack, f: str, here: str, v: dict[Any, Any]) -> None:
    """A value set by council resolution names the resolution as it is cited."""
    if "resolution" in v and not _text(v["resolution"]):
        pk.add(
            f,
            f"{here}.resolution",
            f"{v['resolution']!r} is not a resolution's number, as 'Resolution 2024-17'",
        )


def _shape_of(name: str) -> Checker | None:
    if name.startswith(PENALTY_CAP):
        return penalty_cap
    if name in PARAMETERS:
        return PARAMETERS[name].check
    for suffixes, shape in SUFFIXES:
        if name.endswith(suffixes):
            return shape
    return None


def _check_values(pk: _Pack) -> None:
    """Each value against the shape the engine reads it in, and what the rules need."""
    f = "parameters.yaml"
    for name, values in pk.parameters.items():
        shapes: list[tuple[str, str | None, Checker]] = [
            (f, None, s) for s in [_shape_of(name)] if s is not None
        ]
        shapes += pk.uses.get(name, [])
        seen: set[str] = set()
        for _on, eff, value in values:
            if placeholder(value):
                continue
            key = name if len(values) == 1 else f"{name}.values.{eff}"
            for _file, _key, shape in shapes:
                for message in shape(value, pk):
                    if message not in seen:
                        seen.add(message)
                        pk.add(f, key, message)
        if name.startswith(PENALTY_CAP):
            units = {repr(v.get("per")) for _, _, v in values if isinstance(v, dict)}
            if len(units) > 1:
                pk.add(
                    f,
                    name,
                    f"per changes over time ({_listed(map(str, units))}): the engine counts "
                    "every order of the class in its first value's unit",
                )
    needed_by = _needed_by()
    for name, spec in PARAMETERS.items():
        wanted = [r for r in needed_by.get(name, ()) if r in pk.rules]
        if not (spec.always or wanted):
            continue
        if spec.when is not None:
            other, value = spec.when
            if value not in [v for _, _, v in pk.parameters.get(other, [])]:
                continue
            wanted = [f"{wanted[0]} (with {other} {value})"]
        why = (
            "the engine reads it on every evaluation"
            if spec.always
            else (f"rule {wanted[0]} reads it")
        )
        values = pk.parameters.get(name)
        if not values:
            pk.add(f, name, f"missing: {why}")
            continue
        first = min((on for on, _, _ in values if on is not None), default=None)
        if first is not None and pk.effective is not None and first > pk.effective:
            pk.add(
                f,
                name,
                f"in force only from {first}, after the pack takes effect ({pk.effective}): {why}",
            )
    caps = [n for n in pk.parameters if n.startswith(PENALTY_CAP)]
    for name in caps:
        cls = name[len(PENALTY_CAP) :]
        if not re.fullmatch(r"[a-z][a-z0-9_]*", cls):
            pk.add(f, name, f"class {cls!r}: lower-case letters, digits and underscores")
