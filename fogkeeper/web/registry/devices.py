"""The staff pages of grease control devices and food grinders: install a device with its
design data, its page (services, inspections' measurements, approved exceptions), correct
its design data, replace it, remove it, set its service frequency (the manager's: the Town
allows only the frequencies of 10.02.130(B)), approve a design exception, and record an
establishment's food grinder installed or removed."""

from __future__ import annotations

from functools import wraps

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import render

from fogkeeper.inspections.models import Measurement
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.devices import (
    DESIGN,
    allowed_frequencies,
    device_add,
    device_frequency_set,
    device_replace,
    device_sizing_set,
    device_take_out,
    device_update,
    food_grinder_install,
    food_grinder_remove,
    sizing_required,
    sizing_rule,
)
from fogkeeper.registry.models import GreaseControlDevice
from fogkeeper.registry.services import device_exception_approve, device_interval_approve

from ..common import policy
from ..common.forms import put_errors
from ..common.pages import page_as_of, reads_only, record_page
from .equipment import child_page, evaluated, form_page, may, today
from .equipment_forms import (
    DeviceEditForm,
    DeviceInstallForm,
    DeviceRemoveForm,
    DeviceReplaceForm,
    ExceptionForm,
    FrequencyForm,
    GrinderInstallForm,
    GrinderRemoveForm,
    IntervalApprovalForm,
    SizingForm,
)

device_page = child_page(GreaseControlDevice, "device", None)


def _device_form(request, fse, form, title: str, intro: str, device=None):
    context = {"fse": fse, "device": device, "form": form, "title": title, "intro": intro}
    return form_page(request, "device_form.html", context)


def _to_device(request, device, message: str):
    return evaluated(
        request,
        device.establishment,
        message=message,
        to="web:device",
        code=device.establishment.code,
        device=device.pk,
    )


@record_page("device")
def device_install(request, fse):
    pack = fse.agency.get_pack()
    form = DeviceInstallForm(request.POST or None, pack=pack)
    if form.is_valid():
        data = form.cleaned_data
        try:
            device = device_add(
                establishment=fse,
                code=data["code"],
                kind=data["kind"],
                installed_on=data["installed_on"],
                today=today(),
                actor=request.user,
                **form.design(),
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _to_device(request, device, f"{device.code} was installed.")
    intro = "The design data are checked against the ordinance's design limits at once."
    return _device_form(request, fse, form, "Install a grease control device", intro)


def exceptions_allowed(pack, on) -> bool:
    """Whether the ordinance lets the agency approve a device below a design limit on `on`
    (`gcd.exceptions_allowed`; a pack that does not say allows none, RULES.md 11.11)."""
    return bool(pack.params_on(max(on, pack.effective)).get("gcd.exceptions_allowed", False))


def _where_exceptions_allowed(view):
    """The design exception page answers only where the ordinance allows exceptions;
    elsewhere it says so (404) before anything else, as the device page offers none."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        agency = policy.current_agency(request) if request.user.is_authenticated else None
        if agency is not None and not exceptions_allowed(agency.get_pack(), today()):
            raise Http404(
                f"The ordinance of {agency.name} allows no exceptions to its design limits."
            )
        return view(request, *args, **kwargs)

    return wrapper


def _effective_frequency(device, permit) -> str:
    """The frequency the device is serviced at, and where it comes from (RULES.md 5)."""
    if device.service_frequency_days:
        return f"every {device.service_frequency_days} days (set for this device)"
    if permit is not None and permit.service_frequency_days:
        return f"every {permit.service_frequency_days} days (permit {permit.number})"
    pack = device.establishment.agency.get_pack()
    default = pack.default_frequency(device.kind, max(today(), pack.effective))
    return f"every {default} (the ordinance's default)" if default else "none set"


@device_page
@reads_only
def device_detail(request, fse, device):
    """The device's design data and history: its services, the inspections' measurements
    of it and the design exceptions approved for it."""
    from fogkeeper.permits.models import Permit

    from ..common.paging import section
    from .establishment_page import section_queries

    permit = Permit.objects.filter(establishment=fse, status="active").order_by("-issued_on")
    context = {
        "fse": fse,
        "device": device,
        "frequency": _effective_frequency(device, permit.first()),
        "services": section(
            Service.objects.filter(device=device).select_related("hauler").order_by("-date", "-pk"),
            request.GET.get("services_page"),
        ),
        "measurements": section(
            Measurement.objects.filter(device=device)
            .select_related("inspection")
            .order_by("-inspection__date", "-pk"),
            request.GET.get("measurements_page"),
        ),
        "queries": section_queries(request.GET, ("services", "measurements")),
        "exceptions": device.approved_exceptions.order_by("approved_on"),
        "approvals": device.interval_approvals.order_by("approved_on", "pk"),
        "may": may(request, "device", "frequency", "permit"),
        "exceptions_allowed": exceptions_allowed(fse.agency.get_pack(), page_as_of(request)),
        "sizing": _sizing(device, page_as_of(request)),
    }
    return render(request, "web/registry/device_detail.html", context)


def _sizing(device, on) -> dict | None:
    """What the page shows of the ordinance's sizing rule: the formula, each input with its
    value, and the size required beside the device's own (None: no rule for its kind)."""
    spec = sizing_rule(device, max(on, device.establishment.agency.get_pack().effective))
    if spec is None:
        return None
    field = spec.get("field", "capacity_gallons")
    size = getattr(device, field)
    required = sizing_required(device, max(on, device.establishment.agency.get_pack().effective))
    given = device.sizing_inputs or {}
    return {
        "formula": spec["formula"],
        "constants": spec.get("constants") or {},
        "inputs": [(label, given.get(name)) for name, label in (spec.get("inputs") or {}).items()],
        "field": field.replace("_", " "),
        "required": required,
        "undersized": required is not None
        and size is not None
        and float(size) < round(required, 6) - 1e-9,
    }


@child_page(GreaseControlDevice, "device", "device")
def device_sizing(request, fse, device):
    on = max(page_as_of(request), fse.agency.get_pack().effective)
    spec = sizing_rule(device, on)
    inputs = (spec or {}).get("inputs") or {}
    initial = dict(device.sizing_inputs or {})
    form = SizingForm(request.POST or None, inputs=inputs, initial=initial)
    if spec is not None and form.is_valid():
        try:
            device_sizing_set(device=device, inputs=form.cleaned_data, on=on, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _to_device(request, device, f"The sizing inputs of {device.code} were saved.")
    intro = (
        f"The ordinance requires {spec['formula']}."
        if spec is not None
        else "The ordinance sizes no device of this kind by a formula."
    )
    return _device_form(request, fse, form, f"Sizing inputs of {device.code}", intro, device)


@child_page(GreaseControlDevice, "device", "device")
def device_edit(request, fse, device):
    pack = fse.agency.get_pack()
    initial = {name: getattr(device, name) for name in ("kind", "installed_on", *DESIGN)}
    form = DeviceEditForm(request.POST or None, pack=pack, initial=initial)
    if form.is_valid():
        data = form.cleaned_data
        try:
            device_update(
                device=device,
                kind=data["kind"],
                installed_on=data["installed_on"],
                today=today(),
                actor=request.user,
                reason=data["reason"],
                **form.design(),
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _to_device(request, device, f"The design data of {device.code} were saved.")
    intro = "Correct what was recorded wrongly; the record keeps what it said before."
    return _device_form(request, fse, form, f"Design data of {device.code}", intro, device)


@child_page(GreaseControlDevice, "device", "device")
def device_replace_page(request, fse, device):
    pack = fse.agency.get_pack()
    form = DeviceReplaceForm(request.POST or None, pack=pack, initial={"kind": device.kind})
    if form.is_valid():
        data = form.cleaned_data
        try:
            new = device_replace(
                device=device,
                on=data["on"],
                code=data["code"],
                kind=data["kind"],
                today=today(),
                actor=request.user,
                reason=data["reason"],
                **form.design(),
            )
        except ValidationError as e:
            put_errors(form, e, {"removed_on": "on", "installed_on": "on"})
        else:
            message = f"{device.code} was removed and {new.code} installed in its place."
            return _to_device(request, new, message)
    intro = (
        f"{device.code} is removed on the day and the new device installed the same day; "
        f"{device.code} stays on record with its services."
    )
    return _device_form(request, fse, form, f"Replace {device.code}", intro, device)


@child_page(GreaseControlDevice, "device", "device")
def device_remove(request, fse, device):
    form = DeviceRemoveForm(request.POST or None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            device_take_out(
                device=device,
                removed_on=data["removed_on"],
                today=today(),
                actor=request.user,
                reason=data["reason"],
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            message = f"{device.code} was recorded as removed; it stays on record."
            return _to_device(request, device, message)
    intro = "A removed device stays on record with its services and inspections."
    return _device_form(request, fse, form, f"Remove {device.code}", intro, device)


def _frequency_hint(pack, on) -> str:
    allowed = allowed_frequencies(pack, on)
    if allowed is None:
        return "Any whole number of days."
    days = ", ".join(str(n) for n in allowed[0])
    return f"{pack.name} allows {days} days ({allowed[1]})."


@child_page(GreaseControlDevice, "device", "frequency")
def device_frequency(request, fse, device):
    pack = fse.agency.get_pack()
    initial = {"service_frequency_days": device.service_frequency_days}
    form = FrequencyForm(request.POST or None, initial=initial)
    if form.is_valid():
        data = form.cleaned_data
        try:
            device_frequency_set(
                device=device,
                service_frequency_days=data["service_frequency_days"],
                on=page_as_of(request),
                actor=request.user,
                reason=data["reason"],
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _to_device(request, device, f"The service frequency of {device.code} was set.")
    intro = f"{_frequency_hint(pack, page_as_of(request))} It overrides the permit's frequency."
    return _device_form(request, fse, form, f"Service frequency of {device.code}", intro, device)


@_where_exceptions_allowed
@child_page(GreaseControlDevice, "device", "permit")
def device_exception(request, fse, device):
    form = ExceptionForm(request.POST or None)
    if form.is_valid():
        try:
            device_exception_approve(device=device, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            message = f"The design exception of {device.code} was recorded."
            return _to_device(request, device, message)
    intro = "From the day approved, the engine no longer checks that design limit."
    return _device_form(
        request, fse, form, f"Approve a design exception for {device.code}", intro, device
    )


@child_page(GreaseControlDevice, "device", "frequency")
def device_interval_approval(request, fse, device):
    """Record a longer pump-out interval approved for the device, by whom, when, under what
    letter or resolution, and until when."""
    form = IntervalApprovalForm(request.POST or None)
    if form.is_valid():
        try:
            device_interval_approve(device=device, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            message = f"The approved interval of {device.code} was recorded."
            return _to_device(request, device, message)
    intro = (
        "A pump-out falling due from the day approved through its last day is due after the "
        "interval approved; the overdue finding names this approval."
    )
    return _device_form(
        request, fse, form, f"Approve a longer interval for {device.code}", intro, device
    )


@record_page("device")
def food_grinder(request, fse):
    """Record the establishment's food grinder installed, or removed when it has one."""
    removing = fse.food_grinder
    form = (GrinderRemoveForm if removing else GrinderInstallForm)(request.POST or None)
    if form.is_valid():
        on = next(iter(form.cleaned_data.values()))
        try:
            if removing:
                food_grinder_remove(
                    establishment=fse, removed_on=on, today=today(), actor=request.user
                )
            else:
                food_grinder_install(
                    establishment=fse, installed_on=on, today=today(), actor=request.user
                )
        except ValidationError as e:
            put_errors(form, e)
        else:
            done = "removed" if removing else "installed"
            return evaluated(
                request,
                fse,
                message=f"The food grinder was recorded as {done}.",
                to="web:establishment",
                code=fse.code,
            )
    title = "Record the food grinder removed" if removing else "Record a food grinder installed"
    rule = fse.agency.get_pack().rules.get("food_grinder.prohibited")
    context = {"fse": fse, "form": form, "title": title, "removing": removing, "rule": rule}
    return form_page(request, "grinder_form.html", context)
