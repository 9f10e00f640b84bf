"""The hauler portal: its customers, its own pump-outs, and submitting them by form or file.

What the hauler reaches is policy.establishments (its current customers in the agency the
request acts for); any other establishment or device answers 404. Every submission goes
through maintenance's services, which evaluate the establishment again as they commit (a
file's customers together, on the workers: fogkeeper/reevaluation.py)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from rest_framework.authtoken.models import Token

from fogkeeper.api.services import token_rotate
from fogkeeper.maintenance.manifests import COLUMNS, ManifestImportError, manifests_import
from fogkeeper.maintenance.services import service_submit
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.web.common import policy
from fogkeeper.web.common.forms import put_errors
from fogkeeper.web.common.pages import reads_only

from ..access import portal_page
from . import selectors
from .forms import ManifestFileForm, PumpOutForm

PAGE_SIZE = 25
NEW_TOKEN = "hauler_new_api_token"


def _page(request, rows):
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return page, query.urlencode()


def _customer(request, code: str) -> FoodServiceEstablishment:
    fse = request.establishments.filter(code=code).first()
    if fse is None:
        raise Http404("no such customer")
    return fse


@portal_page("hauler")
@reads_only
def home(request):
    q = request.GET.get("q", "").strip()
    page, query = _page(request, selectors.customer_search(request.establishments, q))
    rows = selectors.customer_rows(
        establishments=page.object_list,
        hauler=request.membership.hauler,
        agency=request.agency,
        today=timezone.localdate(),
    )
    context = {"page": page, "rows": rows, "q": q, "query": query}
    return render(request, "portal/hauler/home.html", context)


@portal_page("hauler")
@reads_only
def customer(request, code: str):
    fse = _customer(request, code)
    hauler = request.membership.hauler
    (row,) = selectors.customer_rows(
        establishments=[fse], hauler=hauler, agency=request.agency, today=timezone.localdate()
    )
    services = selectors.own_services(hauler=hauler, establishments=request.establishments)
    page, query = _page(request, services.filter(device__establishment=fse))
    context = {"fse": fse, "row": row, "page": page, "query": query}
    return render(request, "portal/hauler/customer.html", context)


@portal_page("hauler")
def submit(request, code: str):
    """One pump-out of one of the customer's devices in place."""
    fse = _customer(request, code)
    policy.require_write(request.user, request.agency, "service")
    devices = GreaseControlDevice.objects.select_related("establishment__agency").filter(
        establishment=fse, removed_on__isnull=True
    )
    chosen = request.POST.get("device") or request.GET.get("device")
    if chosen and not (chosen.isdigit() and devices.filter(pk=int(chosen)).exists()):
        raise Http404("no such device")
    data = request.POST if request.method == "POST" else None
    form = PumpOutForm(data, devices=devices.order_by("code"), initial={"device": chosen})
    if form.is_valid():
        today = timezone.localdate()
        try:
            service, created = service_submit(
                hauler=request.membership.hauler,
                source="hauler_form",
                today=today,
                actor=request.user,
                **form.cleaned_data,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            if created:
                messages.success(
                    request, f"Manifest {service.manifest_number} recorded for {fse.name}."
                )
            else:
                messages.info(
                    request,
                    f"Manifest {service.manifest_number} was already recorded "
                    f"({service.device.code} on {service.date}); nothing was added.",
                )
            return redirect("portal:hauler_customer", code=fse.code)
    context = {"fse": fse, "form": form}
    status = 400 if form.is_bound else 200
    return render(request, "portal/hauler/submit.html", context, status=status)


@portal_page("hauler")
def upload(request):
    """A manifest file for many pump-outs: all rows are checked first and a file with any bad
    row adds nothing; the customers it adds pump-outs to are evaluated again."""
    policy.require_write(request.user, request.agency, "service")
    posted = request.method == "POST"
    form = ManifestFileForm(request.POST, request.FILES) if posted else ManifestFileForm()
    refused = None
    if form.is_valid():
        today = request.agency.today()
        file = form.cleaned_data["file"]  # no larger than FOGKEEPER_MANIFEST_MAX_BYTES
        try:
            result = manifests_import(
                agency=request.agency,
                data=file.read(),
                name=file.name,
                hauler=request.membership.hauler,
                actor=request.user,
                today=today,
                max_rows=settings.FOGKEEPER_MANIFEST_MAX_ROWS,
            )
        except ManifestImportError as e:
            refused = e
        else:
            messages.success(
                request,
                f"{result.file}: {result.rows} row{'s' if result.rows != 1 else ''}, "
                f"{result.created} pump-out{'s' if result.created != 1 else ''} added, "
                f"{result.already_imported} already recorded.",
            )
            return redirect("portal:hauler_submissions")
    context = {"form": form, "refused": refused, "columns": COLUMNS}
    status = 400 if form.is_bound else 200
    return render(request, "portal/hauler/upload.html", context, status=status)


@portal_page("hauler")
@reads_only
def submissions(request):
    q = request.GET.get("q", "").strip()
    rows = selectors.submissions(
        hauler=request.membership.hauler, establishments=request.establishments, query=q
    )
    page, query = _page(request, rows)
    return render(request, "portal/hauler/submissions.html", {"page": page, "q": q, "query": query})


@portal_page("hauler")
def api_token(request):
    """The hauler's API token for its own software: whether it has one, and a new one issued
    on request (the old one stops working at once), shown once, on the page the issue
    redirects to (kept in the server-side session for that one view, never in a cookie)."""
    if request.method == "POST":
        token = token_rotate(user=request.user, actor=request.user)
        request.session[NEW_TOKEN] = token.key
        return redirect("portal:hauler_api_token")
    issued = request.session.pop(NEW_TOKEN, None)
    current = Token.objects.filter(user=request.user).first()
    context = {"issued": issued, "current": current}
    return render(request, "portal/hauler/token.html", context)
