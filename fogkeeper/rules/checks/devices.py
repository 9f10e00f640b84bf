"""Grease control devices: presence, design, service, the 25% rule (RULES.md 5)."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from datetime import date, timedelta
from operator import itemgetter
from typing import Any

from ..calendar import Duration
from ..context import ONE_DAY, Context
from ..declared import Rule
from ..formula import FormulaError, required_size
from ..records import Approval, Device, Hauler, Service

# a reading of a device: (date, record id, the service or measurement), as the context keeps it
Dated = tuple[Any, ...]

# The rules this module raises (fogkeeper.rules.declared): a pack lists those it enforces.
RULES = (
    Rule("gcd.missing", reads=("gcd.required_categories", "gcd.missing_scope")),
    Rule("gcd.trap_prohibited"),
    Rule("gcd.design_nonconforming"),
    Rule("gcd.undersized", reads=("gcd.sizing",)),
    Rule(
        "gcd.service_overdue",
        obligation="gcd.service",
        says="Pump-out of {subject}",
        reminded=True,
    ),
    Rule(
        "gcd.accumulation_over_limit",
        reads=("gcd.accumulation_limit", "gcd.accumulation_device_kinds"),
    ),
    Rule(
        "gcd.outlet_clearance", reads=("gcd.outlet_min_clearance_inches", "gcd.outlet_device_kinds")
    ),
    Rule("gcd.partial_pump_out"),
    Rule("gcd.unlicensed_hauler"),
    Rule("gcd.uncertified_hauler", reads=("hauler.certification",)),
    Rule(
        "gcd.trap_needs_interceptor",
        reads=(
            "gcd.trap_needs_interceptor_device_kinds",
            "gcd.trap_needs_interceptor_max_frequency_days",
        ),
    ),
    Rule(
        "gcd.frequency_review",
        reads=(
            "gcd.accumulation_limit",
            "gcd.allowed_frequencies_days",
            "gcd.frequency_review_min_intervals",
            "gcd.frequency_review_sample_intervals",
        ),
    ),
    Rule("gcd.frequency_invalid", reads=("gcd.allowed_frequencies_days",)),
)


def check(ctx: Context) -> None:
    triggers = _new_or_changed_on(ctx)
    _missing(ctx, triggers)
    for device in ctx.devices:
        services = ctx.services_by_device.get(device.id, ())
        full = [s for s in services if s.full_pump_out]
        full_dates = [s.date for s in full]
        freq, source = ctx.frequency(device)
        if triggers and device.kind in ctx.params.get("gcd.trap_prohibited_device_kinds", ()):
            ctx.finding(
                "gcd.trap_prohibited",
                device.id,
                max(max(triggers), device.installed_on),
                f"Grease trap {device.id} is not allowed at an establishment that opened, "
                f"changed operator or was remodeled after {ctx.effective}; an interceptor is.",
            )
        _design(ctx, device, triggers)
        _sizing(ctx, device)
        _service_gaps(ctx, device, freq, full_dates)
        readings = _readings(ctx, device, services, _reported_after(ctx, full_dates))
        over_limit = _accumulation(ctx, device, readings, full_dates)
        _outlet(ctx, device, readings, full_dates)
        _service_defects(ctx, device, services)
        _trap_needs_interceptor(ctx, device, freq, over_limit)
        _frequency_review(ctx, device, freq, full, full_dates)
        _frequency_invalid(ctx, device, freq, source)


def _new_or_changed_on(ctx: Context) -> list[date]:
    """Dates after the effective date on which the FSE opened, changed operator or remodeled."""
    est = ctx.est
    dates = (est.opened_on, est.operator.since, est.remodeled_on)
    return [d for d in dates if d is not None and ctx.effective < d <= ctx.as_of]


def _missing(ctx: Context, triggers: list[date]) -> None:
    if "gcd.missing" not in ctx.rules or not ctx.operating:
        return
    if ctx.category not in ctx.params["gcd.required_categories"]:
        return
    kinds = ctx.params.get("gcd.required_device_kinds")
    if ctx.params["gcd.missing_scope"] == "every_fse":
        if not [d for d in ctx.devices if kinds is None or d.kind in kinds]:
            ctx.finding(
                "gcd.missing",
                ctx.est_id,
                max(ctx.est.opened_on, ctx.effective),
                f"{ctx.est.name or ctx.est_id} has no grease control device.",
            )
        return
    has_required = any(kinds is None or d.kind in kinds for d in ctx.devices)
    if triggers and not has_required and not ctx.est.variance_granted:
        wanted = " or ".join(ctx.pack.kind_title(k).lower() for k in kinds or ctx.pack.device_kinds)
        ctx.finding(
            "gcd.missing",
            ctx.est_id,
            max(triggers),
            f"{ctx.est.name or ctx.est_id} opened, changed operator or was remodeled on "
            f"{max(triggers)} and has no {wanted}.",
        )


def _design(ctx: Context, device: Device, triggers: list[date]) -> None:
    if "gcd.design_nonconforming" not in ctx.rules:
        return
    since = _design_since(ctx, device, triggers)
    if since is None:
        return
    limits = (ctx.params.get("gcd.design_limits") or {}).get(device.kind) or {}
    failed = []
    for field, bound in limits.items():
        value = getattr(device, field)
        if value is None:
            continue
        if ("min" in bound and value < bound["min"]) or ("max" in bound and value > bound["max"]):
            failed.append(field)
    if not failed:
        return
    # From its approval an excepted field is not checked (RULES.md 11.11).
    approved: dict[str, date] = {}
    for e in device.approved_exceptions:
        on = ctx.act(e.approved_on)
        if on is not None and e.field in failed:
            approved[e.field] = min(on, approved.get(e.field, on))
    failing = [f for f in failed if f not in approved]
    resolved = None if failing else max(approved.values())
    if resolved is not None and resolved <= since:
        return
    shown = failing or failed
    ctx.finding(
        "gcd.design_nonconforming",
        device.id,
        since,
        f"{ctx.pack.kind_title(device.kind)} {device.id} does not meet the design standard: "
        + ", ".join(shown)
        + "."
        + ("" if failing else f" An exception was approved on {resolved}."),
        open=resolved is None,
        resolved_on=resolved,
        evidence={
            "failed": shown,
            "limits": {f: limits[f] for f in shown},
            "approved_exceptions": {f: d.isoformat() for f, d in approved.items()},
        },
    )


def _sizing(ctx: Context, device: Device) -> None:
    """A device smaller than the pack's sizing formula requires of it (`gcd.sizing`), from
    its installation or the chapter's effective date; exactly the size required is enough,
    and an approved exception on the field resolves it, as for the design limits."""
    rule = "gcd.undersized"
    spec = (ctx.params.get("gcd.sizing") or {}).get(device.kind) if rule in ctx.rules else None
    if spec is None:
        return
    field = spec.get("field", "capacity_gallons")
    size = getattr(device, field)
    try:
        required = required_size(spec, device.sizing_inputs)
    except FormulaError:
        return  # a division by zero with these inputs: no size can be required
    if size is None or required is None or size >= round(required, 6) - 1e-9:
        return
    approved = min(
        (
            on
            for e in device.approved_exceptions
            if e.field == field and (on := ctx.act(e.approved_on))
        ),
        default=None,
    )
    since = max(device.installed_on, ctx.effective)
    if approved is not None and approved <= since:
        return
    title = ctx.pack.kind_title(device.kind)
    ctx.finding(
        rule,
        device.id,
        since,
        f"{title} {device.id} has {field.replace('_', ' ')} {size:g}; the sizing rule "
        f"({spec['formula']}) requires {required:,.1f}."
        + ("" if approved is None else f" An exception was approved on {approved}."),
        open=approved is None,
        resolved_on=approved,
        evidence={
            "field": field,
            "size": size,
            "required": round(required, 4),
            "formula": spec["formula"],
            "inputs": dict(device.sizing_inputs),
        },
    )


def _design_since(ctx: Context, device: Device, triggers: list[date]) -> date | None:
    """The day the design limits first apply to the device, or None when they do not: in San
    Clemente only to devices installed under the chapter, from their installation whatever
    happened at the FSE later, or to an older device from the FSE's latest change (11.10)."""
    if ctx.params.get("gcd.design_limits_scope", "all") == "all":
        return max(device.installed_on, ctx.effective)
    if device.installed_on >= ctx.effective:
        return device.installed_on
    if triggers:
        return max(device.installed_on, max(triggers))
    return None


def _service_gaps(
    ctx: Context, device: Device, freq: Duration | None, full_dates: list[date]
) -> None:
    if freq is None or "gcd.service_overdue" not in ctx.rules:
        return
    due_after, effective = ctx.cal.sums(freq), ctx.effective
    # Only a gap closed within the look-back is reported: start from the first pump-out on
    # or after the cutoff, measured from the one before it.
    start = bisect_left(full_dates, ctx.cutoff)
    previous = full_dates[start - 1] if start else device.installed_on
    grace = _history_grace(ctx, device, full_dates)
    for served in full_dates[start:]:
        due = due_after[previous if previous >= effective else effective]
        if previous is device.installed_on and grace is not None and due < grace:
            due = grace
        due, approval = _approved_due(ctx, device, ctx.clamp(previous), due)
        if served > due:
            ctx.finding(
                "gcd.service_overdue",
                device.id,
                due + ONE_DAY,
                f"{device.id} was due for a full pump-out on {due} "
                f"({_every(freq, approval)}); it was serviced on {served}.",
                open=False,
                due=due,
                resolved_on=served,
                evidence=_gap_evidence(freq, approval),
            )
        previous = served
    due = due_after[ctx.clamp(previous)]
    if not full_dates and grace is not None and due < grace:
        due = grace  # no record yet: not overdue before the grace ends
    due, approval = _approved_due(ctx, device, ctx.clamp(previous), due)
    ctx.plan("gcd.service", device.id, due, "gcd.service_overdue")
    if ctx.as_of > due:
        ctx.finding(
            "gcd.service_overdue",
            device.id,
            due + ONE_DAY,
            f"{device.id} was due for a full pump-out on {due} ({_every(freq, approval)}).",
            due=due,
            evidence={
                **_gap_evidence(freq, approval),
                "last_full_service": previous.isoformat(),
            },
        )


def _approved_due(
    ctx: Context, device: Device, previous: date, due: date
) -> tuple[date, Approval | None]:
    """The due date under an approved longer interval, and the approval. An approval counts
    for a pump-out falling due on or after the day it was given and not after its end: the
    interval it approves then runs from the last pump-out, but no later than its last day.
    An approval given after the device fell due cures nothing before it."""
    for approval in reversed(device.approvals):
        if approval.field != "service_frequency_days" or not approval.in_force_on(due):
            continue
        longer = ctx.cal.add(previous, Duration(approval.value, "days"))
        if approval.ends_on is not None and longer > approval.ends_on:
            longer = approval.ends_on
        if longer > due:
            return longer, approval
    return due, None


def _every(freq: Duration, approval: Approval | None) -> str:
    """How often the device is due, and, under an approval, who approved it."""
    if approval is None:
        return f"every {freq}"
    until = f", until {approval.ends_on}" if approval.ends_on is not None else ""
    return (
        f"every {approval.value} days as approved by {approval.approved_by} on "
        f"{approval.approved_on}, {approval.reference}{until}"
    )


def _history_grace(ctx: Context, device: Device, full_dates: list[date]) -> date | None:
    """The day a device's first pump-out is due at the latest when the agency's pump-out
    history starts after it was installed and holds no full pump-out of it from before that
    day (CASEFILE.md `history`): its record is not yet kept, so it is not overdue before."""
    history = ctx.case.history
    if history is None or device.installed_on >= history.starts:
        return None
    if full_dates and full_dates[0] < history.starts:
        return None
    return history.starts + timedelta(days=history.grace_days)


def _gap_evidence(freq: Duration, approval: Approval | None = None) -> dict[str, Any]:
    if approval is None:
        return {"frequency": str(freq), "frequency_days": freq.days_equivalent()}
    return {
        "frequency": f"{approval.value} days",
        "frequency_days": approval.value,
        "approved_by": approval.approved_by,
        "approved_on": approval.approved_on.isoformat(),
        "approval_reference": approval.reference,
    }


def _reported_after(ctx: Context, full_dates: list[date]) -> date | None:
    """The last full pump-out before the look-back: an episode of readings up to that day is
    cured by then, so not reported, and leaves no episode open for the readings after it."""
    i = bisect_left(full_dates, ctx.cutoff)
    return full_dates[i - 1] if i else None


def _readings(
    ctx: Context, device: Device, services: Sequence[Service], after: date | None
) -> list[Dated]:
    """The device's measurements after `after` (all if None): pre-pump readings and
    inspection readings, by date."""
    measurements = ctx.measurements_by_device.get(device.id, ())
    if after is not None:
        services = services[bisect_right(services, after, key=_service_date) :]
        measurements = [m for m in measurements if m[0] > after]
    readings = [(s.date, s.id, s) for s in services]  # by (date, id), as the context keeps them
    if not measurements:
        return readings
    readings += measurements
    readings.sort(key=_by_record)
    if len(set(map(_by_record, readings))) < len(readings):
        # several readings of the device in one inspection: order them by value, so the
        # report never depends on the order of a list
        readings.sort(key=_by_value)
    return readings


_by_record = itemgetter(0, 1)  # a reading's (date, record id)


def _by_value(r: Dated) -> Dated:
    m = r[2]
    values = (m.fog_inches, m.solids_inches, m.final_chamber_floating_oil)
    return (r[0], r[1], *(-1 if v is None else v for v in (*values, m.sludge_to_outlet_inches)))


def _episodes(over: list[Dated], full_dates: list[date]) -> list[Dated]:
    """Group the readings over a limit into episodes, each cured by the first full service on
    or after the reading that began it: [(since, cured_on or None, first reading id, it)]."""
    episodes: list[Dated] = []
    cure = None
    for when, rid, reading in over:
        if episodes and (cure is None or when <= cure):
            continue
        i = bisect_left(full_dates, when)
        cure = full_dates[i] if i < len(full_dates) else None
        episodes.append((when, cure, rid, reading))
    return episodes


def _report_episodes(
    ctx: Context,
    rule: str,
    device: Device,
    episodes: list[Dated],
    message: Callable[[date, Any], str],
    evidence: Callable[[Any], dict[str, Any]],
) -> None:
    for since, cured, rid, reading in episodes:
        if cured is not None and cured < ctx.cutoff:
            continue  # cured before the look-back: not reported
        ctx.finding(
            rule,
            device.id,
            since,
            lambda: message(since, reading),  # noqa: B023 (called at once)
            open=cured is None,
            resolved_on=cured,
            evidence={"reading": rid, **evidence(reading)},
        )


def _accumulation(
    ctx: Context, device: Device, readings: list[Dated], full_dates: list[date]
) -> list[Dated]:
    rule = "gcd.accumulation_over_limit"
    if rule not in ctx.rules or device.kind not in ctx.params["gcd.accumulation_device_kinds"]:
        return []
    depth = device.design_depth_inches
    if not depth:
        return []
    limit = ctx.params["gcd.accumulation_limit"]
    allowed = limit * depth
    # "exceeding" the limit (over) or "reaching" it (at_or_over): the ordinance's own word.
    reaching = ctx.params.get("gcd.accumulation_comparator", "over") == "at_or_over"
    words = "at or over" if reaching else "over"

    # Off by more than 1e-6 either way is clear: rounding cannot change the sign.
    over = [
        t
        for t in readings
        if (fog := t[2].fog_inches) is not None
        and (solids := t[2].solids_inches) is not None
        and (
            (d := fog + solids - allowed) > 1e-6
            or (d >= -1e-6 and (round(d, 9) >= 0 if reaching else round(d, 9) > 0))
        )
    ]
    episodes = _episodes(over, full_dates)
    _report_episodes(
        ctx,
        rule,
        device,
        episodes,
        lambda since, r: (
            f"{device.id} held FOG and solids at {_ratio(r, depth):.1%} of its depth on "
            f"{since}, {words} the {limit:.0%} limit."
        ),
        lambda r: {
            "fog_inches": r.fog_inches,
            "solids_inches": r.solids_inches,
            "design_depth_inches": depth,
            "ratio": _ratio(r, depth),
            "limit": limit,
        },
    )
    return episodes


def _ratio(reading: Any, depth: float) -> float:
    ratio: float = round((reading.fog_inches + reading.solids_inches) / depth, 4)
    return ratio


def _outlet(ctx: Context, device: Device, readings: list[Dated], full_dates: list[date]) -> None:
    rule = "gcd.outlet_clearance"
    if rule not in ctx.rules or device.kind not in ctx.params["gcd.outlet_device_kinds"]:
        return
    clearance = ctx.params["gcd.outlet_min_clearance_inches"]

    over = [
        t
        for t in readings
        if t[2].final_chamber_floating_oil
        or ((sludge := t[2].sludge_to_outlet_inches) is not None and sludge <= clearance)
    ]
    _report_episodes(
        ctx,
        rule,
        device,
        _episodes(over, full_dates),
        lambda since, r: (
            f"{device.id} showed floating oil in the final chamber or sludge within "
            f"{clearance} inches of the outlet on {since}."
        ),
        lambda r: {
            "final_chamber_floating_oil": bool(r.final_chamber_floating_oil),
            "sludge_to_outlet_inches": r.sludge_to_outlet_inches,
        },
    )


def _service_defects(ctx: Context, device: Device, services: Sequence[Service]) -> None:
    partial = "gcd.partial_pump_out" in ctx.rules and device.kind in ctx.params.get(
        "gcd.partial_pump_out_device_kinds", ()
    )
    unlicensed = "gcd.unlicensed_hauler" in ctx.rules and ctx.lapsing_haulers
    certification = _certification(ctx)
    if not (partial or unlicensed or certification):
        return
    # Both findings are resolved on the service's day: none before the look-back is reported.
    for s in services[bisect_left(services, ctx.cutoff, key=_service_date) :]:
        if partial and not s.full_pump_out:
            ctx.finding(
                "gcd.partial_pump_out",
                device.id,
                s.date,
                f"Service {s.id} of {device.id} on {s.date} was not a full pump-out.",
                open=False,
                resolved_on=s.date,
                evidence={"service": s.id},
            )
        hauler = unlicensed.get(s.hauler) if unlicensed and s.hauler is not None else None
        if hauler is not None and not hauler.licensed_on(s.date):
            ctx.finding(
                "gcd.unlicensed_hauler",
                device.id,
                s.date,
                f"Service {s.id} of {device.id} on {s.date} was done by unlicensed hauler "
                f"{hauler.name or hauler.id}{_expired(hauler)}.",
                open=False,
                resolved_on=s.date,
                evidence={"service": s.id, "hauler": hauler.id},
            )
        if certification:
            _uncertified(ctx, device, s, certification)


def _certification(ctx: Context) -> str | None:
    """The name of the certification the ordinance requires of haulers beside their licence
    (hauler.certification), or None when it requires none or the pack does not check it."""
    if "gcd.uncertified_hauler" not in ctx.rules:
        return None
    spec = ctx.params.get("hauler.certification") or {}
    return spec.get("name") if spec.get("required") else None


def _uncertified(ctx: Context, device: Device, s: Service, name: str) -> None:
    """A service done by a hauler whose certification was not current on its day: none on
    record, or expired (the day of expiry is still certified), as for the licence."""
    hauler = ctx.haulers.get(s.hauler) if s.hauler is not None else None
    if hauler is None or hauler.certified_on(s.date):
        return
    expired = hauler.certified and hauler.certification_expires_on is not None
    ctx.finding(
        "gcd.uncertified_hauler",
        device.id,
        s.date,
        f"Service {s.id} of {device.id} on {s.date} was done by {hauler.name or hauler.id} "
        f"without a current {name}"
        + (f" (it expired on {hauler.certification_expires_on})." if expired else "."),
        open=False,
        resolved_on=s.date,
        evidence={"service": s.id, "hauler": hauler.id, "certification": name},
    )


def _service_date(s: Service) -> date:
    return s.date


def _expired(hauler: Hauler) -> str:
    if hauler.licensed and hauler.licence_expires_on is not None:
        return f" (its licence expired on {hauler.licence_expires_on})"
    return ""


def _trap_needs_interceptor(
    ctx: Context, device: Device, freq: Duration | None, over_limit: list[Dated]
) -> None:
    rule = "gcd.trap_needs_interceptor"
    if rule not in ctx.rules or freq is None:
        return
    if device.kind not in ctx.params["gcd.trap_needs_interceptor_device_kinds"]:
        return
    if freq.days_equivalent() > ctx.params["gcd.trap_needs_interceptor_max_frequency_days"]:
        return
    if ctx.est.interceptor_exception is not None:
        return
    recent = [
        since
        for since, cured, _, _ in over_limit
        if since <= ctx.as_of and (cured is None or cured >= ctx.cutoff)
    ]
    if not recent:
        return
    since = min(recent)
    plans = ctx.act(ctx.est.interceptor_plans_submitted_on)
    if plans is not None and plans < since:
        return
    ctx.finding(
        rule,
        device.id,
        since,
        f"{ctx.pack.kind_title(device.kind)} {device.id}, pumped every {freq}, went over the "
        f"accumulation limit on {since}: plans for a grease interceptor are required.",
        open=plans is None,
        resolved_on=plans,
    )


def _fill_rates(full: list[Service], full_dates: list[date], wanted: int) -> list[Dated]:
    """The last `wanted` measured intervals, oldest first: (inches a day, service) for each
    full pump-out with readings, over the days since the full pump-out of an earlier day."""
    rates = []
    for j in range(len(full) - 1, 0, -1):
        s = full[j]
        fog, solids = s.fog_inches, s.solids_inches
        if fog is None or solids is None:
            continue
        before = full_dates[j - 1]
        if before == s.date:  # another full pump-out that day: measure from an earlier day
            i = bisect_left(full_dates, s.date)
            if not i:
                continue
            before = full_dates[i - 1]
        rates.append(((fog + solids) / (s.date - before).days, s))
        if len(rates) == wanted:
            break
    rates.reverse()
    return rates


def _frequency_review(
    ctx: Context,
    device: Device,
    freq: Duration | None,
    full: list[Service],
    full_dates: list[date],
) -> None:
    rule = "gcd.frequency_review"
    depth = device.design_depth_inches
    if rule not in ctx.rules or not depth:
        return
    needed = ctx.params["gcd.frequency_review_min_intervals"]
    sample = ctx.params["gcd.frequency_review_sample_intervals"]
    measured = _fill_rates(full, full_dates, max(needed, sample))
    if len(measured) < needed:
        return
    last = measured[-sample:]
    rate = max([r for r, _ in last])
    allowed = sorted(ctx.params["gcd.allowed_frequencies_days"])
    limit = ctx.params["gcd.accumulation_limit"]
    if rate == 0:
        days_to_limit = None
        recommended = allowed[-1]
    else:
        days_to_limit = limit * depth / rate
        fitting = [a for a in allowed if a <= days_to_limit]
        recommended = fitting[-1] if fitting else allowed[0]
    current = freq.days_equivalent() if freq is not None else None
    if recommended == current:
        return
    since = last[-1][1].date
    ctx.finding(
        rule,
        device.id,
        since,
        f"{device.id} fills at up to {rate:.3f} in/day and would reach the limit in "
        + (f"{days_to_limit:.0f} days" if days_to_limit is not None else "no measurable time")
        + f"; a {recommended}-day frequency is recommended"
        + (f" instead of {freq}." if freq else "."),
        evidence={
            "r": round(rate, 4),
            "days_to_limit": None if days_to_limit is None else round(days_to_limit, 1),
            "recommended": recommended,
            "current": current,
            "intervals": len(last),
        },
    )


def _frequency_invalid(ctx: Context, device: Device, freq: Duration | None, source: str) -> None:
    rule = "gcd.frequency_invalid"
    if rule not in ctx.rules or source == "pack" or freq is None:
        return
    if freq.n in ctx.params["gcd.allowed_frequencies_days"]:
        return
    permit = ctx.permit
    base = permit.issued_on if source == "permit" and permit is not None else device.installed_on
    allowed = ", ".join(str(a) for a in ctx.params["gcd.allowed_frequencies_days"])
    ctx.finding(
        rule,
        device.id,
        max(base, ctx.effective),
        f"The {freq.n}-day service frequency set on the {source} for {device.id} is not one the "
        f"ordinance allows ({allowed} days).",
        evidence={"frequency_days": freq.n, "set_on": source},
    )
