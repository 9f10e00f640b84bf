"""Money in the staff pages: the fee schedule by effective date, an establishment's account
(invoices, payments, voids and credits, delinquency and the Town's business license block,
liens), issuing an invoice, recording a payment, voiding or crediting an invoice, recording
and releasing a lien. The writes are the billing services'; who may is policy's ("fees",
"invoice", "payment"); another agency's record answers 404."""

from __future__ import annotations

import contextlib
from datetime import date
from decimal import Decimal

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import prefetch_related_objects
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import get_valid_filename

from fogkeeper.billing import selectors as money
from fogkeeper.billing.documents import how_to_pay, invoice_pdf
from fogkeeper.billing.models import (
    BASES,
    INVOICE_KINDS,
    PAYMENT_METHODS,
    FeeSchedule,
    Invoice,
    Lien,
)
from fogkeeper.billing.services import (
    fee_schedule_set,
    invoice_credit,
    invoice_issue,
    invoice_void,
    lien_record,
    lien_release,
    payment_record,
)
from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import FoodServiceEstablishment

from ..common import policy
from ..common.forms import DateInput, choice_field, put_errors
from ..common.pages import PAGE_SIZE, agency_page, page_as_of, reads_only, record_page
from ..templatetags.words import money as dollars

INPUT = {"class": "usa-input"}
SELECT = {"class": "usa-select"}
MONEY = {"class": "usa-input usa-input--small", "inputmode": "decimal", "step": "0.01"}
TEXTAREA = {"class": "usa-textarea", "rows": 2}
MAX_ROWS = 40


def _date(label: str, **kw) -> forms.DateField:
    return forms.DateField(label=label, widget=DateInput(attrs=INPUT), **kw)


def _money(label: str, **kw) -> forms.DecimalField:
    return forms.DecimalField(
        label=label, max_digits=12, decimal_places=2, widget=forms.NumberInput(attrs=MONEY), **kw
    )


def _text(label: str, max_length: int, **kw) -> forms.CharField:
    return forms.CharField(
        label=label, max_length=max_length, widget=forms.TextInput(attrs=INPUT), **kw
    )


def row_count(data, initial: int, extra: int = 3) -> int:
    """How many rows a form of rows shows: as many as were posted, else the prefilled ones
    and a few empty ones."""
    try:
        posted = int((data or {}).get("rows", ""))
    except ValueError:
        posted = initial + extra
    return max(1, min(posted, MAX_ROWS))


class RowsForm(forms.Form):
    """A form with numbered rows of the same fields (`ROW`: name -> field maker)."""

    ROW: dict = {}

    def __init__(self, *args, rows: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.row_count = rows
        self.rows = []
        for i in range(rows):
            for name, make in self.ROW.items():
                self.fields[f"{name}_{i}"] = make(i)
            self.rows.append([self[f"{name}_{i}"] for name in self.ROW])

    def filled_rows(self):
        """(row number, {name: value}) of each row with something typed in."""
        for i in range(self.row_count):
            values = {name: self.cleaned_data.get(f"{name}_{i}") for name in self.ROW}
            if any(v not in (None, "") for v in values.values()):
                yield i, values


class FeeScheduleForm(RowsForm):
    """A new fee schedule from a date, one row per fee."""

    ROW = {
        "code": lambda i: _text(f"Code of fee {i + 1}", 40, required=False),
        "description": lambda i: _text(f"Description of fee {i + 1}", 200, required=False),
        "amount": lambda i: _money(f"Amount of fee {i + 1} (empty at actual cost)", required=False),
        "basis": lambda i: forms.ChoiceField(
            label=f"Basis of fee {i + 1}",
            choices=[("", "—"), *BASES],
            required=False,
            widget=forms.Select(attrs=SELECT),
        ),
        "citation": lambda i: _text(f"Citation of fee {i + 1}", 120, required=False),
    }

    effective_on = _date("In force from")
    resolution = _text("Resolution", 120, required=False, help_text="e.g. Res. 2026-14")

    def items(self) -> list[dict]:
        return [values for _, values in self.filled_rows()]

    def error_fields(self) -> dict[str, str]:
        """The service's items[i] -> the code field of the i-th filled row."""
        return {f"items[{n}]": f"code_{i}" for n, (i, _) in enumerate(self.filled_rows())}


class InvoiceForm(RowsForm):
    """An invoice: fees of the schedule in force, extra lines, what it is for."""

    ROW = {
        "line_description": lambda i: _text(f"Line {i + 1}: description", 200, required=False),
        "line_amount": lambda i: _money(f"Line {i + 1}: amount", required=False),
        "line_citation": lambda i: _text(f"Line {i + 1}: citation", 120, required=False),
    }

    code = _text("Invoice number", 40)
    kind = forms.ChoiceField(label="Kind", choices=INVOICE_KINDS, widget=forms.Select(attrs=SELECT))
    noticed_on = _date("Date of notice (mailed)")
    description = _text("Description", 200, required=False)
    fees = forms.MultipleChoiceField(
        label="Fees from the schedule", required=False, widget=forms.CheckboxSelectMultiple
    )
    incident = forms.ChoiceField(
        label="Overflow whose costs are recovered",
        required=False,
        widget=forms.Select(attrs=SELECT),
    )
    enforcement_action = forms.ChoiceField(
        label="Penalty order, or action whose costs are invoiced",
        required=False,
        widget=forms.Select(attrs=SELECT),
    )

    def __init__(self, *args, fees, incidents, orders, **kwargs):
        super().__init__(*args, **kwargs)
        choice_field(self, "fees").choices = fees
        choice_field(self, "incident").choices = [("", "—"), *incidents]
        choice_field(self, "enforcement_action").choices = [("", "—"), *orders]

    def lines(self) -> list[dict]:
        return [
            {
                "description": v["line_description"] or "",
                "amount": v["line_amount"],
                "citation": v["line_citation"] or "",
            }
            for _, v in self.filled_rows()
        ]

    def error_fields(self) -> dict[str, str]:
        fields = {f"fees[{n}]": "fees" for n in range(len(self.cleaned_data.get("fees", [])))}
        for n, (i, _) in enumerate(self.filled_rows()):
            fields[f"lines[{n}]"] = f"line_description_{i}"
        return fields


class PaymentForm(forms.Form):
    paid_on = _date("Paid on")
    amount = _money("Amount paid")
    method = forms.ChoiceField(
        label="Method", choices=PAYMENT_METHODS, widget=forms.Select(attrs=SELECT)
    )
    reference = _text("Check or receipt number", 80, required=False)


class VoidForm(forms.Form):
    on = _date("Voided on")
    reason = forms.CharField(label="Why is the invoice void?", widget=forms.Textarea(TEXTAREA))


class CreditForm(forms.Form):
    on = _date("Credited on")
    amount = _money("Amount credited")
    reason = forms.CharField(label="Why is it credited?", widget=forms.Textarea(TEXTAREA))


class LienForm(forms.Form):
    penalty_order = forms.ChoiceField(label="Penalty order", widget=forms.Select(attrs=SELECT))
    recorded_on = _date("Recorded on")
    amount = _money("Amount of the lien")
    document_number = _text("Recorded document number", 80)

    def __init__(self, *args, orders, **kwargs):
        super().__init__(*args, **kwargs)
        choice_field(self, "penalty_order").choices = orders


class LienReleaseForm(forms.Form):
    released_on = _date("Released on")
    document_number = _text("Recorded document number of the release", 80)


# -- the fee schedule ------------------------------------------------------------------------


def _schedule_rows(schedule: FeeSchedule | None) -> dict[str, object]:
    """A fee schedule form's initial values: the rows of the schedule in force."""
    initial: dict[str, object] = {}
    for i, item in enumerate(schedule.items.all() if schedule else []):
        for name in FeeScheduleForm.ROW:
            initial[f"{name}_{i}"] = getattr(item, name)
    return initial


@agency_page
def fee_schedules(request):
    """The fee schedules by effective date; a manager sets a new one from a date."""
    may_set = policy.may_write(request.user, request.agency, "fees")
    if request.method == "POST":
        policy.require_write(request.user, request.agency, "fees")
    on = page_as_of(request)
    in_force = money.fee_schedule_in_force(agency=request.agency, on=on)
    initial = _schedule_rows(in_force)
    rows = row_count(request.POST if request.method == "POST" else None, len(initial) // 5)
    form = FeeScheduleForm(
        request.POST if request.method == "POST" else None,
        initial={**initial, "resolution": ""},
        rows=rows,
    )
    if form.is_valid():
        data = form.cleaned_data
        try:
            schedule = fee_schedule_set(
                agency=request.agency,
                effective_on=data["effective_on"],
                items=form.items(),
                resolution=data["resolution"],
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e, form.error_fields())
        else:
            messages.success(
                request,
                f"The fee schedule in force from {schedule.effective_on:%Y-%m-%d} was set: "
                "invoices noticed from that date charge its fees.",
            )
            return redirect("web:billing_fees")
    context = {
        "schedules": money.fee_schedules(request.agency),
        "in_force": in_force,
        "on": on,
        "form": form if may_set else None,
    }
    return render(request, "web/billing/fees.html", context, status=400 if form.is_bound else 200)


# -- the account -----------------------------------------------------------------------------


def _writes(request) -> dict[str, bool]:
    return {k: policy.may_write(request.user, request.agency, k) for k in ("invoice", "payment")}


@agency_page
@reads_only
def account(request, code: str):
    """The establishment's account statement: every invoice with what was paid, voided and
    credited, the balance, delinquency and the business license block, and liens."""
    fse = get_object_or_404(
        FoodServiceEstablishment.objects.select_related("agency"), agency=request.agency, code=code
    )
    on = page_as_of(request)
    late, block = money.money_standing(fse, on)
    found = money.account(fse, on)
    page = Paginator(found.invoices, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "fse": fse,
        "on": on,
        "page": page,
        "statement": found.statement,
        "balance": found.balance,
        "delinquent": late,
        "licence_block": block,
        "liens": Lien.objects.filter(establishment=fse).select_related("release"),
        "may": _writes(request),
    }
    return render(request, "web/billing/account.html", context)


# -- issuing an invoice ----------------------------------------------------------------------


def _fee_choices(agency, on) -> list[tuple[str, str]]:
    schedule = money.fee_schedule_in_force(agency=agency, on=on)
    items = schedule.items.all() if schedule else []
    return [
        (
            i.code,
            f"{i.code}: {i.description}, "
            f"{'at actual cost' if i.amount is None else dollars(i.amount)} ({i.citation})",
        )
        for i in items
    ]


def _orders_to_invoice(fse, pack) -> list[tuple[str, str]]:
    """The establishment's penalty orders not yet invoiced."""
    billed = set(
        Invoice.objects.filter(establishment=fse, kind="penalty").values_list(
            "enforcement_action", flat=True
        )
    )
    title = pack.actions["penalty_order"].title if "penalty_order" in pack.actions else ""
    costed = Invoice.objects.filter(establishment=fse, kind="action_costs")
    billed |= set(costed.values_list("enforcement_action", flat=True))
    return [
        (o.code, f"{o.code}: {title}, {dollars(o.fields.get('amount'))} ({o.taken_on:%Y-%m-%d})")
        for o in money.penalty_orders(fse)
        if o.code not in billed
    ] + [
        (a.code, f"{a.code}: {pack.actions[a.type].title} ({a.taken_on:%Y-%m-%d}), its costs")
        for a in money.costed_actions(fse, pack)
        if a.code not in billed
    ]


def _costs_initial(fse, pack, code: str) -> dict:
    """`?action=<code>` of an action whose pack invoices costs of it: a line for each cost
    it records, at the amount recorded, citing the section that puts them on the person."""
    action = next((a for a in money.costed_actions(fse, pack) if a.code == code), None)
    if action is None:
        return {}
    spec, fields = pack.actions[action.type], action.effective_fields()
    initial: dict = {"kind": "action_costs", "enforcement_action": action.code}
    costs = [name for name in spec.costs if fields.get(name)]
    for i, name in enumerate(costs):
        what = name.replace("_", " ").capitalize()
        initial[f"line_description_{i}"] = f"{what}: {spec.title} {action.code}"
        initial[f"line_amount_{i}"] = Decimal(str(fields[name]))
        initial[f"line_citation_{i}"] = spec.costs_citation
    return initial


def _penalty_initial(fse, pack, code: str) -> dict:
    """`?action=<code>`: a penalty invoice of that order, its amount as the first line."""
    order = money.penalty_orders(fse).filter(code=code).first()
    if order is None:
        return _costs_initial(fse, pack, code) if code else {}
    spec = pack.actions.get("penalty_order")
    return {
        "kind": "penalty",
        "enforcement_action": order.code,
        "line_description_0": f"{spec.title if spec else 'Penalty order'} {order.code}",
        "line_amount_0": Decimal(str(order.effective_fields().get("amount") or 0)),
        "line_citation_0": spec.citation if spec else "",
    }


def money_rows(initial: dict) -> list[str]:
    """The lines an initial invoice fills (line_amount_<n>)."""
    return [k for k in initial if k.startswith("line_amount_")]


def _invoice_form(request, fse):
    pack = request.agency.get_pack()
    on = page_as_of(request)
    data = request.POST if request.method == "POST" else None
    if data is not None:
        with contextlib.suppress(ValueError):
            on = date.fromisoformat(data.get("noticed_on", ""))
    initial = {"code": money.next_invoice_code(request.agency), "noticed_on": on}
    initial.update(_penalty_initial(fse, pack, request.GET.get("action", "")))
    incidents = [
        (str(i.pk), f"{i.code} ({i.date:%Y-%m-%d})")
        for i in Incident.objects.filter(establishment=fse).order_by("-date")
    ]
    return InvoiceForm(
        data,
        initial=initial,
        rows=row_count(data, max(1, len(money_rows(initial))), extra=2),
        fees=_fee_choices(request.agency, on),
        incidents=incidents,
        orders=_orders_to_invoice(fse, pack),
    )


@record_page("invoice")
def invoice_new(request, fse):
    """Issue an invoice to the establishment."""
    form = _invoice_form(request, fse)
    if form.is_valid():
        data = form.cleaned_data
        incident = (
            Incident.objects.filter(pk=data["incident"]).first() if data["incident"] else None
        )
        try:
            invoice = invoice_issue(
                establishment=fse,
                code=data["code"],
                kind=data["kind"],
                noticed_on=data["noticed_on"],
                fees=data["fees"],
                lines=form.lines(),
                description=data["description"],
                incident=incident,
                enforcement_action=data["enforcement_action"],
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e, form.error_fields())
        else:
            messages.success(
                request,
                f"Invoice {invoice.code} for {dollars(invoice.total())} was issued, noticed "
                f"{invoice.noticed_on:%Y-%m-%d}. Record payments against it here.",
            )
            return redirect("web:invoice", code=fse.code, invoice=invoice.code)
    context = {"fse": fse, "form": form}
    return render(request, "web/billing/invoice_new.html", context, status=_status(form))


def _status(*forms_) -> int:
    return 400 if any(f.is_bound for f in forms_ if f is not None) else 200


# -- one invoice: payments, voids, credits ---------------------------------------------------

INVOICE_FORMS = {
    "payment": (PaymentForm, "payment"),
    "void": (VoidForm, "invoice"),
    "credit": (CreditForm, "invoice"),
}


def _save(action: str, invoice, data, actor):
    if action == "payment":
        payment_record(invoice=invoice, actor=actor, **data)
        return f"A payment of {dollars(data['amount'])} was recorded."
    if action == "void":
        void = invoice_void(invoice=invoice, actor=actor, **data)
        return (
            f"Invoice {invoice.code} is void: {dollars(void.amount)} was credited; "
            "nothing more is owed."
        )
    invoice_credit(invoice=invoice, actor=actor, **data)
    return f"{dollars(data['amount'])} of invoice {invoice.code} was credited."


@agency_page
def invoice_detail(request, code: str, invoice: str):
    """One invoice with its lines, payments, voids and credits; forms to record a payment,
    void it or credit it (each posted with `action`)."""
    found = get_object_or_404(
        Invoice.objects.select_related("establishment", "agency", "incident"),
        agency=request.agency,
        establishment__code=code,
        code=invoice,
    )
    action = request.POST.get("action", "payment") if request.method == "POST" else None
    if action is not None:
        policy.require_write(
            request.user, request.agency, INVOICE_FORMS.get(action, ("", "payment"))[1]
        )
    on = page_as_of(request)
    forms_ = {
        name: cls(
            request.POST if name == action else None, prefix=name, initial={"paid_on": on, "on": on}
        )
        for name, (cls, kind) in INVOICE_FORMS.items()
        if policy.may_write(request.user, request.agency, kind)
    }
    bound = forms_.get(action) if action is not None else None
    if action is not None and bound is not None and bound.is_valid():
        try:
            done = _save(action, found, bound.cleaned_data, request.user)
        except ValidationError as e:
            put_errors(bound, e)
        else:
            messages.success(request, done)
            return redirect("web:invoice", code=code, invoice=found.code)
    prefetch_related_objects([found], "lines", "payments", "adjustments")
    (row,) = money.invoice_rows([found], max(on, found.noticed_on))
    context = {
        "fse": found.establishment,
        "row": row,
        "forms": forms_,
        "owed": row["owed"],
        "pay": how_to_pay(request.agency),
    }
    return render(request, "web/billing/invoice.html", context, status=_status(bound))


@agency_page
@reads_only
def invoice_document(request, code: str, invoice: str):
    """The invoice as the bill mailed to the operator (PDF), with what is owed on the page's
    day."""
    found = get_object_or_404(
        Invoice.objects.select_related("establishment", "agency"),
        agency=request.agency,
        establishment__code=code,
        code=invoice,
    )
    return invoice_response(found, max(page_as_of(request), found.noticed_on))


def invoice_response(invoice, on) -> HttpResponse:
    """The bill of `invoice` as a PDF download named by the establishment and invoice."""
    name = get_valid_filename(f"{invoice.establishment.code}-invoice-{invoice.code}.pdf")
    response = HttpResponse(invoice_pdf(invoice, on), content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response


# -- liens -----------------------------------------------------------------------------------


def _lien_orders(fse, on) -> list[dict]:
    """Each penalty order of the establishment with the engine's lien-eligible date and what
    is still owed on it on `on`."""
    return [
        {
            "order": o,
            "eligible": money.lien_eligibility(fse, o.code, on),
            "owed": money.penalty_owed(fse, o, on),
        }
        for o in money.penalty_orders(fse)
    ]


@record_page("invoice")
def lien_new(request, fse):
    """Record a lien for the unpaid penalty of a penalty order."""
    on = page_as_of(request)
    orders = _lien_orders(fse, on)
    choices = [(r["order"].code, r["order"].code) for r in orders]
    first = next((r for r in orders if r["owed"] > 0), None)
    initial = {
        "recorded_on": on,
        "amount": first["owed"] if first else None,
        "penalty_order": first["order"].code if first else "",
    }
    form = LienForm(request.POST or None, orders=choices, initial=initial)
    if form.is_valid():
        try:
            lien = lien_record(establishment=fse, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request,
                f"Lien {lien.document_number} for {dollars(lien.amount)} "
                f"({lien.enforcement_action}) was recorded on {lien.recorded_on:%Y-%m-%d}. "
                "Record its release once paid.",
            )
            return redirect("web:account", code=fse.code)
    context = {
        "fse": fse,
        "form": form,
        "orders": orders,
        "on": on,
        "citation": money.lien_citation(request.agency.get_pack()),
    }
    return render(request, "web/billing/lien_new.html", context, status=_status(form))


@agency_page
def lien_release_page(request, code: str, pk: int):
    """Record the release of a lien."""
    lien = get_object_or_404(
        Lien.objects.select_related("establishment"),
        agency=request.agency,
        establishment__code=code,
        pk=pk,
    )
    policy.require_write(request.user, request.agency, "invoice")
    form = LienReleaseForm(request.POST or None, initial={"released_on": page_as_of(request)})
    if form.is_valid():
        try:
            lien_release(lien=lien, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(request, f"The release of lien {lien.document_number} was recorded.")
            return redirect("web:account", code=code)
    context = {"fse": lien.establishment, "lien": lien, "form": form}
    return render(request, "web/billing/lien_release.html", context, status=_status(form))
