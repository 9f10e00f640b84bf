"""The FSE operator's portal: its establishments as ACCESS.md lets it read them, and what it
may file itself (trainings, waste cooking oil receipts, permit applications, answers to
notices, its contact details). Another establishment's or agency's id answers 404."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone

from fogkeeper.billing.documents import how_to_pay
from fogkeeper.billing.models import Invoice
from fogkeeper.enforcement.codes import lock_codes
from fogkeeper.enforcement.models import EnforcementAction, Letter
from fogkeeper.enforcement.services import notice_answer
from fogkeeper.filings.kinds import request_kinds
from fogkeeper.maintenance.services import pickup_record
from fogkeeper.permits.models import PermitApplication
from fogkeeper.permits.requirements import application_spec
from fogkeeper.permits.selectors import establishment_current_permit
from fogkeeper.permits.services import permit_application_submit
from fogkeeper.registry.services import operator_contact_update
from fogkeeper.training.logs import training_log_attach
from fogkeeper.training.models import Employee, Training
from fogkeeper.training.services import employee_hire, employee_leave, training_record
from fogkeeper.web.billing.views import invoice_response
from fogkeeper.web.common import policy
from fogkeeper.web.common.forms import put_errors
from fogkeeper.web.common.pages import reads_only
from fogkeeper.web.people.enrolment import stream_log
from fogkeeper.web.registry.establishment_page import page_numbers, section_queries
from fogkeeper.web.vocabulary import action_words

from ..access import portal_page
from ..selectors import establishment_rows
from . import selectors
from .enforcement import enforcement_page
from .forms import (
    ContactForm,
    EmployeeHireForm,
    EmployeeLeaveForm,
    NoticeAnswerForm,
    PermitApplicationForm,
    PickupForm,
    TrainingUploadForm,
)

ROLE = "operator"
WRITES = (
    "training",
    "yellow_grease",
    "permit_application",
    "notice_answer",
    "contact",
    "employee",
    "request",
    "report",
)


def _today():
    return timezone.localdate()


def _writes(request) -> set[str]:
    return {k for k in WRITES if policy.may_write(request.user, request.agency, k)}


@portal_page(ROLE)
@reads_only
def home(request):
    rows = establishment_rows(request.establishments.order_by("name", "code"))
    return render(request, "portal/operator/home.html", {"rows": rows})


def establishment_page(view):
    """An operator page about one of its establishments (`code`): 404 for any other."""

    @portal_page(ROLE)
    @wraps(view)
    def wrapper(request, code: str, *args, **kwargs):
        fse = (
            request.establishments.filter(code=code)
            .select_related("agency", "compliance")  # its last stored evaluation, if any
            .first()
        )
        if fse is None:
            raise Http404("no such establishment")
        return view(request, fse, *args, **kwargs)

    return wrapper


def writes(kind: str):
    """An operator page that files a `kind` (policy.WRITES) for one of its establishments."""

    def decorate(view):
        @establishment_page
        @wraps(view)
        def wrapper(request, fse, *args, **kwargs):
            policy.require_write(request.user, request.agency, kind)
            return view(request, fse, *args, **kwargs)

        return wrapper

    return decorate


@establishment_page
@reads_only
def establishment(request, fse):
    sections = selectors.readable_sections(request.user, request.agency)
    pages = page_numbers(request.GET, selectors.PAGED)
    page = selectors.overview(establishment=fse, sections=sections, as_of=_today(), pages=pages)
    queries = section_queries(request.GET, selectors.PAGED)
    context = {
        "overview": page,
        "may": _writes(request),
        "queries": queries,
        "has_requests": bool(request_kinds(fse.agency.get_pack())),
        "asks_reports": bool(fse.agency.get_pack().reports),
    }
    return render(request, "portal/operator/establishment.html", context)


@establishment_page
@reads_only
def enforcement(request, fse):
    """The enforcement against the establishment as the operator may read it (the letters sent
    to it, its invoices): what was sent, what it must do and by when, what it owes."""
    letters = policy.may_read(request.user, request.agency, "letters")
    invoices = policy.may_read(request.user, request.agency, "invoices")
    if not (letters or invoices):
        raise Http404("no such page")
    page = enforcement_page(establishment=fse, as_of=_today(), letters=letters, invoices=invoices)
    pay = how_to_pay(request.agency) if invoices else None
    context = {"e": page, "fse": fse, "may": _writes(request), "pay": pay}
    return render(request, "portal/operator/enforcement.html", context)


@establishment_page
@reads_only
def letter_pdf(request, fse, letter: int):
    """A letter sent to the establishment, byte for byte as it was sent."""
    if not policy.may_read(request.user, request.agency, "letters"):
        raise Http404("no such letter")
    found = get_object_or_404(
        Letter.objects.select_related("action"), pk=letter, action__establishment=fse
    )
    response = HttpResponse(bytes(found.pdf), content_type="application/pdf")
    name = f"{fse.code}-{found.action.code}-{found.pk}.pdf"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@establishment_page
@reads_only
def invoice_pdf(request, fse, invoice: str):
    """An invoice sent to the establishment, as the bill mailed to it (PDF)."""
    if not policy.may_read(request.user, request.agency, "invoices"):
        raise Http404("no such invoice")
    found = get_object_or_404(
        Invoice.objects.select_related("establishment", "agency"),
        establishment=fse,
        code=invoice,
        noticed_on__lte=_today(),
    )
    return invoice_response(found, _today())


# -- what the operator files ----------------------------------------------------------------


def _filed(request, fse, what: str, page: str = "portal:operator_establishment", anchor=""):
    """Go back to the establishment's page (or `page` of it, at `anchor`), evaluated again
    by the write."""
    messages.success(request, f"{what} Your establishment's status was evaluated again.")
    url = reverse(page, kwargs={"code": fse.code})
    return redirect(f"{url}#{anchor}" if anchor else url)


def _form_page(request, fse, form, title: str, intro: str = "", template: str = "form.html"):
    context = {"fse": fse, "form": form, "title": title, "intro": intro}
    status = 400 if form.is_bound else 200
    return render(request, f"portal/operator/{template}", context, status=status)


def _training_code(fse, day) -> str:
    base = f"T-{day.isoformat()}"
    taken = set(
        Training.objects.filter(establishment=fse, code__startswith=base).values_list(
            "code", flat=True
        )
    )
    n, code = 1, base
    while code in taken:
        n += 1
        code = f"{base}-{n}"
    return code


@writes("training")
def training_upload(request, fse):
    form = TrainingUploadForm(
        request.POST or None, request.FILES or None, establishment=fse, today=_today()
    )
    if form.is_valid():
        data = form.cleaned_data
        try:
            training = _file_training(request, fse, form)
        except ValidationError as e:
            put_errors(form, e)
        else:
            n = len(data["attendees"])
            log = " and its signed log" if data["log"] else ""
            what = f"Training of {training.date} filed with {n} attendee(s){log}."
            return _filed(request, fse, what)
    return _form_page(request, fse, form, "File a BMP training", template="training.html")


def _file_training(request, fse, form) -> Training:
    """The training and its signed log together: a log refused files no training."""
    data = form.cleaned_data
    with transaction.atomic():
        lock_codes(fse)  # the next free code is read, then stored
        training = training_record(
            establishment=fse,
            code=_training_code(fse, data["date"]),
            date=data["date"],
            attendees=list(data["attendees"]),
            unsigned=form.unsigned(),
            topic=data["topic"],
            trainer=data["trainer"],
            actor=request.user,
        )
        if data["log"]:
            training_log_attach(training=training, log=data["log"], actor=request.user)
    return training


@establishment_page
@reads_only
def training_log(request, fse, training: int):
    """The signed attendance log of one of the establishment's trainings."""
    if not policy.may_read(request.user, request.agency, "trainings"):
        raise Http404("no such log")
    return stream_log(get_object_or_404(Training, establishment=fse, pk=training))


@establishment_page
@reads_only
def employees(request, fse):
    """The establishment's employees now on the roster, and who left in the last year."""
    if not policy.may_read(request.user, request.agency, "trainings"):
        raise Http404("no such page")
    rows = selectors.employee_roster(establishment=fse, as_of=_today())
    context = {"fse": fse, "roster": rows, "may": _writes(request)}
    return render(request, "portal/operator/employees.html", context)


def _employee_code(fse) -> str:
    taken = set(Employee.objects.filter(establishment=fse).values_list("code", flat=True))
    n = len(taken) + 1
    while f"E-{n}" in taken:
        n += 1
    return f"E-{n}"


@writes("employee")
def employee_add(request, fse):
    form = EmployeeHireForm(request.POST or None, today=_today())
    if form.is_valid():
        try:
            with transaction.atomic():
                lock_codes(fse)  # the next free code is read, then stored
                hired = employee_hire(
                    establishment=fse,
                    code=_employee_code(fse),
                    **form.cleaned_data,
                    actor=request.user,
                )
        except ValidationError as e:
            put_errors(form, e)
        else:
            what = f"{hired.name} added to the roster, hired on {hired.hired_on}."
            return _filed(request, fse, what, "portal:operator_employees")
    intro = "Kitchen staff hired need the BMP training: file it once it is held."
    return _form_page(request, fse, form, "Add an employee", intro)


@writes("employee")
def employee_left(request, fse, employee: int):
    person = get_object_or_404(Employee, establishment=fse, pk=employee, left_on__isnull=True)
    form = EmployeeLeaveForm(request.POST or None, today=_today())
    if form.is_valid():
        try:
            employee_leave(employee=person, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            what = f"{person.name} no longer works here from {person.left_on}."
            return _filed(request, fse, what, "portal:operator_employees")
    intro = f"{person.name}, hired on {person.hired_on.isoformat()}."
    return _form_page(request, fse, form, f"Record that {person.name} left", intro)


@writes("yellow_grease")
def yellow_grease(request, fse):
    form = PickupForm(request.POST or None, establishment=fse, today=_today())
    if form.is_valid():
        try:
            pickup = pickup_record(establishment=fse, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _filed(request, fse, f"Waste cooking oil pickup of {pickup.date} filed.")
    intro = "From the collector's receipt or manifest."
    return _form_page(request, fse, form, "File a waste cooking oil pickup", intro)


def _application_initial(fse, request) -> dict:
    """What the last application of the establishment said, else what the registry knows."""
    last = (
        PermitApplication.objects.filter(establishment=fse).order_by("-submitted_on", "-pk").first()
    )
    spec_names = application_spec(fse.agency.get_pack()).names
    if last is not None:
        return {name: getattr(last, name) for name in spec_names}
    operator = request.membership.operator
    return {
        "applicant_name": operator.name,
        "applicant_address": operator.mailing_address,
        "business_name": fse.name,
    }


@writes("permit_application")
def permit_application(request, fse):
    pack = fse.agency.get_pack()
    title = pack.titles.get("permit", "permit")
    spec = application_spec(pack)
    current = establishment_current_permit(establishment=fse)
    pending = (
        PermitApplication.objects.filter(establishment=fse, decided_on__isnull=True)
        .order_by("-submitted_on")
        .first()
    )
    form = PermitApplicationForm(
        request.POST or None,
        initial=None if request.method == "POST" else _application_initial(fse, request),
        spec=spec,
        permit_title=title,
        current=current,
    )
    if form.is_valid():
        if pending is not None:
            form.add_error(
                None,
                f"Your application of {pending.submitted_on} is still being decided; the "
                "agency will contact you if it needs more.",
            )
        else:
            try:
                permit_application_submit(
                    establishment=fse,
                    submitted_on=_today(),
                    renewal_of=form.renewal_of(),
                    **form.details(),
                    require_complete=True,
                    actor=request.user,
                )
            except ValidationError as e:
                put_errors(form, e)
            else:
                what = "renewal application" if form.renewal_of() else "application"
                return _filed(request, fse, f"Your {title} {what} was filed.")
    intro = (
        f"Applying for or renewing the {title}"
        + (f" ({spec.reference})" if spec.reference else "")
        + ". The agency reviews the application and may inspect before it decides."
    )
    context = {
        "fse": fse,
        "form": form,
        "title": f"Apply for or renew the {title}",
        "intro": intro,
        "current": current,
        "pending": pending,
    }
    status = 400 if form.is_bound else 200
    return render(request, "portal/operator/permit_application.html", context, status=status)


@writes("notice_answer")
def answer_notice(request, fse, action: str):
    """Answer an action sent to the establishment (one that has a letter)."""
    found = get_object_or_404(
        EnforcementAction.objects.filter(letters__isnull=False).distinct(),
        establishment=fse,
        code=action,
    )
    form = NoticeAnswerForm(request.POST or None)
    if form.is_valid():
        try:
            notice_answer(
                action=found,
                text=form.cleaned_data["text"],
                answered_on=_today(),
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            what = f"Your answer to {found.code} was filed."
            return _filed(request, fse, what, "portal:operator_enforcement", f"action-{found.code}")
    pack = fse.agency.get_pack()
    context = {
        "fse": fse,
        "form": form,
        "action": found,
        "action_title": action_words(pack, found.type),
        "answers": list(found.answers.all()),
        "title": f"Answer {found.code}",
    }
    status = 400 if form.is_bound else 200
    return render(request, "portal/operator/answer.html", context, status=status)


@portal_page(ROLE)
def contact(request):
    """The operator's phone, email and mailing address, as the agency keeps them."""
    policy.require_write(request.user, request.agency, "contact")
    operator = request.membership.operator
    initial = {
        "phone": operator.phone,
        "email": operator.email,
        "mailing_address": operator.mailing_address,
    }
    form = ContactForm(request.POST or None, initial=initial)
    if form.is_valid():
        try:
            changed = operator_contact_update(
                operator=operator, **form.cleaned_data, actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request, "Contact details saved." if changed else "Nothing was changed."
            )
            return redirect("portal:operator_contact")
    context = {"form": form, "operator": operator}
    status = 400 if form.is_bound else 200
    return render(request, "portal/operator/contact.html", context, status=status)
