"""The staff pages of haulers and their service contracts: the list (searched, a page at a
time), a hauler's page (licence, customers, recent pump-outs), registering one, keeping its
name and licence current, and starting or ending a contract, from the hauler's page or the
establishment's. Haulers and contracts are the manager's records ("hauler")."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.maintenance.models import Service
from fogkeeper.registry.haulers import (
    CERTIFICATION,
    contract_end,
    contract_start,
    hauler_add,
    hauler_update,
)
from fogkeeper.registry.models import FoodServiceEstablishment, Hauler, ServiceContract

from ..common import policy
from ..common.forms import put_errors
from ..common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only, record_page
from .equipment import child_page, evaluated, form_page, may, today
from .equipment_forms import ContractEndForm, ContractForm, HaulerEditForm, HaulerRegisterForm

RECENT = 25


def hauler_page(kind: str | None):
    """A page of one of the agency's haulers (another agency's answers 404), then 403 when
    the person may not write a `kind` (None: a page that only reads)."""

    def decorate(view):
        @agency_page
        @wraps(view)
        def wrapper(request, hauler: str):
            found = get_object_or_404(Hauler, agency=request.agency, code=hauler)
            if kind is not None:
                policy.require_write(request.user, request.agency, kind)
            return view(request, found)

        return wrapper

    return decorate


@agency_page
@reads_only
def hauler_list(request):
    """The agency's haulers, searched by number, name or licence number."""
    query = request.GET.get("q", "").strip()
    on = page_as_of(request)
    running = Q(contracts__since__lte=on) & (
        Q(contracts__until__isnull=True) | Q(contracts__until__gte=on)
    )
    haulers = Hauler.objects.filter(agency=request.agency).annotate(
        customers=Count("contracts", filter=running, distinct=True)
    )
    if query:
        haulers = haulers.filter(
            Q(code__icontains=query) | Q(name__icontains=query) | Q(licence_number__icontains=query)
        )
    page = Paginator(haulers.order_by("name", "code"), PAGE_SIZE).get_page(request.GET.get("page"))
    query_string = request.GET.copy()
    query_string.pop("page", None)
    context = {
        "page": page,
        "q": query,
        "query": query_string.urlencode(),
        "on": on,
        "may": may(request, "hauler"),
    }
    return render(request, "web/registry/hauler_list.html", context)


@hauler_page(None)
@reads_only
def hauler_detail(request, hauler):
    """The hauler's licence, its customers (service contracts, running and ended) and its
    most recent pump-outs."""
    on = page_as_of(request)
    contracts = hauler.contracts.select_related("establishment").order_by("-since")
    services = (
        Service.objects.filter(hauler=hauler)
        .select_related("device__establishment")
        .order_by("-date", "-pk")[:RECENT]
    )
    expired = hauler.licence_expires_on is not None and hauler.licence_expires_on < on
    certification = _certification(request)
    lapsed = hauler.certification_expires_on is not None and hauler.certification_expires_on < on
    context = {
        "hauler": hauler,
        "contracts": contracts,
        "services": services,
        "on": on,
        "expired": expired,
        "may": may(request, "hauler"),
        "certification": certification,
        "lapsed": lapsed,
    }
    return render(request, "web/registry/hauler_detail.html", context)


def _certification(request) -> str | None:
    """The certification the agency's ordinance requires of haulers today, by its name."""
    return request.agency.get_pack().hauler_certification(page_as_of(request))


@agency_page
def hauler_register(request):
    policy.require_write(request.user, request.agency, "hauler")
    form = HaulerRegisterForm(request.POST or None, certification=_certification(request))
    if form.is_valid():
        try:
            hauler = hauler_add(agency=request.agency, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _to_hauler(request, hauler, f"{hauler.name} was registered.", [])
    context = {"form": form, "title": "Register a hauler", "certification": _certification(request)}
    return form_page(request, "hauler_form.html", context)


def _customers(hauler, on):
    return [
        c.establishment
        for c in hauler.contracts.select_related("establishment")
        if c.until is None or c.until >= on
    ]


def _to_hauler(request, hauler, message: str, establishments):
    if not establishments:
        messages.success(request, message)
        return redirect("web:hauler", hauler=hauler.code)
    return evaluated(request, *establishments, message=message, to="web:hauler", hauler=hauler.code)


@hauler_page("hauler")
def hauler_edit(request, hauler):
    """Keep the hauler's name and licence current; its customers are evaluated again, since
    a pump-out is judged by the licence on its date."""
    certification = _certification(request)
    fields: tuple[str, ...] = ("name", "licence_number", "licence_expires_on", "licensed")
    fields += CERTIFICATION if certification else ()
    initial = {f: getattr(hauler, f) for f in fields}
    form = HaulerEditForm(request.POST or None, initial=initial, certification=certification)
    if form.is_valid():
        try:
            hauler_update(hauler=hauler, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            message = f"The licence of {hauler.name} was saved."
            return _to_hauler(request, hauler, message, _customers(hauler, page_as_of(request)))
    context = {
        "form": form,
        "title": f"Edit {hauler.name}",
        "hauler": hauler,
        "certification": certification,
    }
    return form_page(request, "hauler_form.html", context)


@hauler_page("hauler")
def hauler_contract_start(request, hauler):
    """Start a contract with an establishment of the agency, named by its number."""
    form = ContractForm(request.POST or None, agency=request.agency, fixed="hauler")
    if form.is_valid():
        data = form.cleaned_data
        fse = FoodServiceEstablishment.objects.filter(
            agency=request.agency, code=data["establishment"].strip()
        ).first()
        if fse is None:
            form.add_error("establishment", "No establishment of the agency has this number.")
        else:
            return _start(request, form, hauler, fse, back="hauler")
    context = {
        "form": form,
        "title": f"Start a service contract of {hauler.name}",
        "hauler": hauler,
    }
    return form_page(request, "contract_form.html", context)


@record_page("hauler")
def contract_new(request, fse):
    """Start a contract of one of the agency's haulers with this establishment."""
    form = ContractForm(request.POST or None, agency=request.agency, fixed="establishment")
    if form.is_valid():
        return _start(request, form, form.cleaned_data["hauler"], fse, back="establishment")
    context = {"form": form, "title": "Start a service contract", "fse": fse}
    return form_page(request, "contract_form.html", context)


def _start(request, form, hauler, fse, back: str):
    try:
        contract_start(
            hauler=hauler,
            establishment=fse,
            since=form.cleaned_data["since"],
            today=today(),
            actor=request.user,
        )
    except ValidationError as e:
        put_errors(form, e)
        context = {
            "form": form,
            "title": "Start a service contract",
            "fse": fse,
            "hauler": hauler if back == "hauler" else None,
        }
        return form_page(request, "contract_form.html", context)
    message = f"{fse.name} is a customer of {hauler.name}."
    if back == "hauler":
        return evaluated(request, fse, message=message, to="web:hauler", hauler=hauler.code)
    return evaluated(request, fse, message=message, to="web:establishment", code=fse.code)


@child_page(ServiceContract, "contract", "hauler")
def contract_end_page(request, fse, contract):
    """End a contract: from then the establishment is no longer the hauler's customer."""
    form = ContractEndForm(request.POST or None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            contract_end(
                contract=contract,
                until=data["until"],
                today=today(),
                actor=request.user,
                reason=data["reason"],
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            message = f"The contract of {contract.hauler.name} with {fse.name} was ended."
            return evaluated(request, fse, message=message, to="web:establishment", code=fse.code)
    context = {
        "form": form,
        "fse": fse,
        "contract": contract,
        "title": f"End the service contract of {contract.hauler.name}",
    }
    return form_page(request, "contract_form.html", context)
