"""Case file loaders of what the registry keeps: the establishments, their operators and
changes of operation, permits, devices (with their approved exceptions) and the haulers
their records name. One query per kind of record for the whole batch."""

from __future__ import annotations

from collections import defaultdict

from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import (
    Agency,
    ApprovedException,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Hauler,
    IntervalApproval,
    OperationChange,
    OperatorTenure,
)

from .json_batch import _Batch, _Float, _iso_or_none, _put


def _establishments(agency: Agency, ids: list[int]) -> dict[int, dict]:
    default_category = agency.get_pack().default_category
    establishments: dict[int, dict] = {}
    for (
        pk,
        code,
        name,
        category,
        on_public_sewer,
        opened_on,
        closed_on,
        remodeled_on,
        food_grinder,
        food_grinder_installed_on,
        variance_granted,
        interceptor_exception,
        interceptor_plans_submitted_on,
    ) in (
        FoodServiceEstablishment.objects.filter(agency=agency, pk__in=ids)
        .order_by("pk")
        .values_list(
            "pk",
            "code",
            "name",
            "category",
            "on_public_sewer",
            "opened_on",
            "closed_on",
            "remodeled_on",
            "food_grinder",
            "food_grinder_installed_on",
            "variance_granted",
            "interceptor_exception",
            "interceptor_plans_submitted_on",
        )
    ):
        est = {
            "id": code,
            "name": name,
            "category": category or default_category,
            "on_public_sewer": on_public_sewer,
            "opened_on": opened_on.isoformat(),
        }
        _put(est, "closed_on", _iso_or_none(closed_on))
        est["operator"] = None  # keeps the field order of CASEFILE.md; filled below
        _put(est, "remodeled_on", _iso_or_none(remodeled_on))
        est["food_grinder"] = food_grinder
        _put(est, "food_grinder_installed_on", _iso_or_none(food_grinder_installed_on))
        est["variance_granted"] = variance_granted
        if interceptor_exception:
            est["interceptor_exception"] = interceptor_exception
        _put(est, "interceptor_plans_submitted_on", _iso_or_none(interceptor_plans_submitted_on))
        est["changes"] = []
        establishments[pk] = est
    return establishments


def _operators(batch: _Batch, establishments: dict[int, dict]) -> None:
    """The operator on as_of: the tenure begun last by then (the first one if none had)."""
    operators: dict[int, dict] = {}
    for est_id, name, since in (
        OperatorTenure.objects.filter(**batch.of_batch)
        .order_by("establishment_id", "since", "pk")
        .values_list("establishment_id", "operator__name", "since")
    ):
        if est_id not in operators or since <= batch.as_of:
            operators[est_id] = {"name": name, "since": since.isoformat()}
    for est_id, est in establishments.items():
        operator = operators.get(est_id)
        if operator is None:
            del est["operator"]  # a required field: the case file will say so
        else:
            est["operator"] = operator


def _changes(batch: _Batch, establishments: dict[int, dict]) -> None:
    for est_id, day, kind, notified_on in (
        OperationChange.objects.filter(**batch.of_batch)
        .order_by("date", "kind", "pk")
        .values_list("establishment_id", "date", "kind", "notified_on")
    ):
        change = {"date": day.isoformat(), "kind": kind}
        _put(change, "notified_on", _iso_or_none(notified_on))
        establishments[est_id]["changes"].append(change)


_PERMIT_DATES = (
    "renewal_applied_on",
    "renewal_denied_on",
    "suspended_from",
    "suspended_until",
    "revoked_on",
)


def _permits(batch: _Batch) -> dict[int, dict]:
    permits: dict[int, dict] = {}
    for est_id, number, holder, issued_on, expires_on, *dates, service, oil, limits in (
        Permit.objects.filter(issued_on__lte=batch.as_of, **batch.of_batch)
        .order_by("establishment_id", "issued_on", "pk")
        .values_list(
            "establishment_id",
            "number",
            "holder",
            "issued_on",
            "expires_on",
            *_PERMIT_DATES,
            "service_frequency_days",
            "yellow_grease_frequency_days",
            "discharge_limits",
        )
    ):
        permit = {
            "number": number,
            "holder": holder,
            "issued_on": issued_on.isoformat(),
            "expires_on": expires_on.isoformat(),
        }
        for name, value in zip(_PERMIT_DATES, dates, strict=True):
            _put(permit, name, _iso_or_none(value))
        _put(permit, "service_frequency_days", service)
        _put(permit, "yellow_grease_frequency_days", oil)
        if limits:
            permit["discharge_limits"] = limits
        permits[est_id] = permit  # the last issued wins
    return permits


def _devices(batch: _Batch) -> dict[int, list]:
    devices: dict[int, list] = defaultdict(list)
    by_pk: dict[int, dict] = {}
    for (
        pk,
        est_id,
        code,
        kind,
        installed_on,
        removed_on,
        capacity,
        depth,
        compartments,
        manhole,
        frequency,
        sizing,
    ) in (
        GreaseControlDevice.objects.filter(**batch.of_batch)
        .order_by("code", "pk")
        .values_list(
            "pk",
            "establishment_id",
            "code",
            "kind",
            "installed_on",
            "removed_on",
            _Float("capacity_gallons"),
            _Float("design_depth_inches"),
            "compartments",
            _Float("manhole_diameter_inches"),
            "service_frequency_days",
            "sizing_inputs",
        )
    ):
        if removed_on is not None and removed_on <= batch.as_of:
            batch.removed.add(pk)
            continue
        batch.device_codes[pk] = code
        device = {"id": code, "kind": kind, "installed_on": installed_on.isoformat()}
        _put(device, "capacity_gallons", capacity)
        _put(device, "design_depth_inches", depth)
        _put(device, "compartments", compartments)
        _put(device, "manhole_diameter_inches", manhole)
        _put(device, "service_frequency_days", frequency)
        if sizing:
            device["sizing_inputs"] = {k: float(v) for k, v in sizing.items()}
        devices[est_id].append(device)
        by_pk[pk] = device
    for device_id, name, approved_on, by, reference in (
        ApprovedException.objects.filter(device__establishment_id__in=batch.ids)
        .order_by("device_id", "field", "pk")
        .values_list("device_id", "field", "approved_on", "approved_by", "reference")
    ):
        if device_id in by_pk:
            exception = {"field": name, "approved_on": approved_on.isoformat()}
            _put(exception, "by", by or None)
            _put(exception, "reference", reference or None)
            by_pk[device_id].setdefault("approved_exceptions", []).append(exception)
    _approvals(batch, by_pk)
    return devices


def _approvals(batch: _Batch, by_pk: dict[int, dict]) -> None:
    """The longer pump-out intervals approved for the devices (`devices[].approvals`)."""
    for device_id, days, approved_on, by, reference, ends_on in (
        IntervalApproval.objects.filter(device__establishment_id__in=batch.ids)
        .order_by("device_id", "approved_on", "pk")
        .values_list("device_id", "days", "approved_on", "approved_by", "reference", "ends_on")
    ):
        if device_id in by_pk:
            approval = {
                "field": "service_frequency_days",
                "value": days,
                "approved_on": approved_on.isoformat(),
                "approved_by": by,
                "reference": reference,
            }
            _put(approval, "ends_on", ends_on.isoformat() if ends_on else None)
            by_pk[device_id].setdefault("approvals", []).append(approval)


def _haulers(batch: _Batch, *records: dict[int, list]) -> dict[int, dict]:
    """The haulers the batch's pump-outs and pickups name; their pks become codes."""
    haulers: dict[int, dict] = {}
    every_hauler = set().union(*batch.hauler_ids.values())
    if every_hauler:
        rows = Hauler.objects.filter(pk__in=every_hauler).values_list(
            "pk",
            "code",
            "name",
            "licensed",
            "licence_expires_on",
            "certified",
            "certification_expires_on",
        )
        for pk, code, name, licensed, expires, certified, cert_expires in rows:
            haulers[pk] = {"id": code, "name": name, "licensed": licensed}
            if expires is not None:
                haulers[pk]["licence_expires_on"] = expires
            if not certified:
                haulers[pk]["certified"] = False
            if cert_expires is not None:
                haulers[pk]["certification_expires_on"] = cert_expires
    for record in records:
        for items in record.values():
            for item in items:
                if "hauler" in item:
                    item["hauler"] = haulers[item["hauler"]]["id"]
    return haulers
