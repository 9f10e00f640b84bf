"""Letters and emails to many establishments (Lists → Letters and emails): the agency's
communications; the form that chooses the establishments with the establishment list's own
filters and says what to write, with merge fields; a draft's preview of three real recipients
and the count, its confirmation; the sending followed to the end; each letter; and the public
page a newsletter's unsubscribe link opens.

Every staff role reads them; the manager and the clerk write ("communication", policy.py)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import get_valid_filename
from django.views.decorators.csrf import csrf_exempt

from fogkeeper.communications import merge, services, unsubscribe
from fogkeeper.communications.documents import letter_pdf
from fogkeeper.communications.models import Communication
from fogkeeper.formats import counted
from fogkeeper.registry.models import FoodServiceEstablishment

from ..common import jobs, policy
from ..common.forms import put_errors
from ..common.pages import agency_page, reads_only
from .forms import CommunicationForm, RecipientFilters, chosen

KIND = "communication"
RECIPIENTS_PER_PAGE = 50


def _words(comm: Communication) -> str:
    if comm.underway:
        return f"{comm.status_words()}: {comm.done} of {comm.total} done"
    if comm.is_draft:
        return comm.get_status_display()
    return (
        f"{comm.get_status_display()}: {comm.sent} sent, {comm.letter_only} letter only, "
        f"{comm.skipped} skipped, {comm.failed} failed"
    )


@agency_page
@reads_only
def communication_list(request):
    """The agency's communications, newest first."""
    comms = Communication.objects.filter(agency=request.agency).select_related("requested_by")
    context = {
        "page": jobs.runs_page(request, comms, _words),
        "may_write": policy.may_write(request.user, request.agency, KIND),
    }
    return render(request, "web/communications/list.html", context)


def _draft(request) -> Communication | None:
    pk = request.POST.get("draft") or request.GET.get("draft")
    if not pk or not str(pk).isdigit():
        return None
    return get_object_or_404(Communication, pk=pk, agency=request.agency, status="draft")


def _forms(request, draft: Communication | None):
    agency, limit = request.agency, services.max_attachment_bytes()
    attached = draft.attachment_name if draft else ""
    if request.method == "POST":
        filters = RecipientFilters(request.POST, agency=agency)
        form = CommunicationForm(request.POST, request.FILES, max_bytes=limit, attached=attached)
        return filters, form
    initial = {"kind": Communication.LEGAL_NOTICE, "channel": Communication.EMAIL}
    if draft is not None:
        initial = {
            "kind": draft.kind,
            "channel": draft.channel,
            "subject": draft.subject,
            "body": draft.body,
        }
        filters = RecipientFilters(draft.filters, agency=agency)
    else:
        filters = RecipientFilters(request.GET if request.GET else None, agency=agency)
    return filters, CommunicationForm(initial=initial, max_bytes=limit, attached=attached)


@agency_page
def communication_new(request):
    """Write a communication (or change a draft, `?draft=`); posted, it is checked and kept as
    a draft whose page previews it."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    policy.require_write(request.user, request.agency, KIND)
    draft = _draft(request)
    filters, form = _forms(request, draft)
    if request.method == "POST":
        comm = _save_draft(request, filters, form, draft)
        if comm is not None:
            return redirect("web:communication", pk=comm.pk)
    if filters.is_bound and request.method == "GET":
        filters.is_valid()  # show what is wrong with a filter given in the address
    context = {"filters": filters, "form": form, "draft": draft, "fields": merge.FIELDS}
    status = 400 if request.method == "POST" else 200
    return render(request, "web/communications/new.html", context, status=status)


def _save_draft(request, filters, form, draft) -> Communication | None:
    if not (filters.is_valid() & form.is_valid()):
        return None
    data = form.cleaned_data
    try:
        return services.communication_draft(
            agency=request.agency,
            kind=data["kind"],
            channel=data["channel"],
            subject=data["subject"],
            body=data["body"],
            filters=filters.filters(),
            chosen=chosen(request.agency, filters.filters()),
            attachment=data.get("attachment"),
            remove_attachment=data.get("remove_attachment"),
            draft=draft,
            site=request.build_absolute_uri("/"),
            as_of=request.agency.today(),
            actor=request.user,
        )
    except ValidationError as e:
        put_errors(form, e)
        return None


def _comm(request, pk: int) -> Communication:
    return get_object_or_404(
        Communication.objects.select_related("requested_by"), pk=pk, agency=request.agency
    )


@agency_page
@reads_only
def communication_detail(request, pk: int):
    """A draft with its preview and the button that sends it; then its sending, followed; then
    what was done for each establishment."""
    comm = _comm(request, pk)
    today = request.agency.today()
    filters = RecipientFilters(comm.filters, agency=request.agency)
    filters.is_valid()
    extra = {
        "status": _words(comm),
        "filter_words": filters.words(),
        "may_send": policy.may_write(request.user, request.agency, KIND),
    }
    if comm.is_draft:
        establishments = chosen(request.agency, comm.filters)
        extra |= {
            "reach": services.reach(establishments, today),
            "preview": services.preview(comm, establishments, today),
        }
    else:
        rows = comm.recipients.select_related("establishment").defer("letter_pdf", "body")
        extra["recipients"] = Paginator(rows, RECIPIENTS_PER_PAGE).get_page(request.GET.get("page"))
    return jobs.run_page(
        request,
        comm,
        kind=KIND,
        page="web/communications/communication.html",
        fragment="web/communications/_progress.html",
        **extra,
    )


@agency_page
def communication_send(request, pk: int):
    """Send the draft to the establishments its filters choose today."""
    comm = _comm(request, pk)  # another agency's is not found, whatever the method
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    policy.require_write(request.user, request.agency, KIND)
    try:
        comm = services.communication_send(
            communication=comm,
            chosen=chosen(request.agency, comm.filters),
            on=request.agency.today(),
            actor=request.user,
        )
    except ValidationError as e:
        for text in e.messages:
            messages.error(request, text)
    else:
        waits = "; it waits for the workers" if comm.waiting else ""
        queued = counted(comm.total, "establishment")
        messages.success(request, f"Queued for {queued}{waits}; this page follows the sending.")
    return redirect("web:communication", pk=pk)


@agency_page
def communication_requeue(request, pk: int):
    """Carry on a communication stalled or stopped: only those not sent to yet are sent."""
    comm = _comm(request, pk)  # another agency's is not found, whatever the method
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    policy.require_write(request.user, request.agency, KIND)
    if services.communication_resume(communication=comm, actor=request.user):
        messages.success(
            request, "Queued again: it carries on with the establishments not sent to yet."
        )
    else:
        messages.error(request, jobs.NOT_STALLED.format(what="communication"))
    return redirect("web:communication", pk=pk)


def _pdf(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition_header(True, get_valid_filename(name))
    response["Cache-Control"] = "private, max-age=3600"
    return response


@agency_page
@reads_only
def communication_attachment(request, pk: int):
    comm = _comm(request, pk)
    if not comm.attachment:
        raise Http404("no attachment")
    with comm.attachment.open("rb") as f:
        return _pdf(f.read(), comm.attachment_name or f"communication-{comm.pk}.pdf")


@agency_page
@reads_only
def communication_letter(request, pk: int, code: str):
    """The letter as it was made for the establishment `code`; for a draft, the letter it
    would get, marked PREVIEW — not sent."""
    comm = _comm(request, pk)
    fse = get_object_or_404(FoodServiceEstablishment, agency=request.agency, code=code)
    name = f"{fse.code}-communication-{comm.pk}.pdf"
    if not comm.is_draft:
        found = comm.recipients.filter(establishment=fse, letter=True).first()
        if found is None or found.letter_pdf is None:
            raise Http404("no letter for this establishment")
        return _pdf(bytes(found.letter_pdf), name)
    values = merge.values_for(request.agency, [fse.pk], request.agency.today())[fse.pk]
    pdf = letter_pdf(
        comm,
        fse,
        subject=merge.fill(comm.subject, values),
        body=merge.fill(comm.body, values),
        operator=values["operator_name"],
        preview=True,
    )
    return _pdf(pdf, f"preview-{name}")


@csrf_exempt  # the signed token is the authority (mail programs post it: RFC 8058)
def communication_unsubscribe(request, token: str):
    """A newsletter's unsubscribe link: what it does, and a button (or a mail program's
    one-click post) that records it. No sign-in: the signed link names the recipient."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    recipient = unsubscribe.recipient_of(token)
    if recipient is None or not recipient.communication.is_newsletter:
        return render(request, "web/communications/unsubscribe.html", {"invalid": True}, status=404)
    done = unsubscribe.opted_out(recipient)
    if request.method == "POST":
        done = unsubscribe.opt_out(recipient)
    context = {
        "recipient": recipient,
        "done": done,
        "token": token,
        "sender": recipient.communication.agency,
    }
    return render(request, "web/communications/unsubscribe.html", context)
