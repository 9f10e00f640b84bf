"""Starting enforcement from the engine's findings: a case opened (or an open case added to)
from one establishment's open findings, and the pack's first notice sent to many
establishments at once, as background work whose progress the page shows."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.compliance.from_findings import bulk_notice_start, case_from_findings
from fogkeeper.compliance.models import Finding
from fogkeeper.enforcement.models import DELIVERY, BulkNotice
from fogkeeper.formats import counted
from fogkeeper.queue import beside, waiting

from ..common import policy
from ..common.forms import DateInput, choice_field, put_errors
from ..common.pages import agency_page, page_as_of, reads_only, record_page
from ..templatetags.words import pack_title
from ..vocabulary import finding_words
from .forms import ActionForm

BULK_PAGE = 50


class OpenCaseForm(forms.Form):
    findings = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple, label="Open findings")
    case = forms.ChoiceField(required=False, label="Case")
    opened_on = forms.DateField(widget=DateInput, label="Opened on")

    def __init__(self, data=None, *, fse, findings, as_of):
        super().__init__(data, initial={"opened_on": as_of})
        pack = fse.agency.get_pack()
        choice_field(self, "findings").choices = [
            (str(f.pk), finding_words(pack, f, fse)) for f in findings
        ]
        choice_field(self, "case").choices = [("", "A new case")] + [
            (c.code, f"Add to case {c.code} (opened {c.opened_on})")
            for c in fse.cases.order_by("-opened_on")
        ]


@record_page("notice")
def open_case(request, fse):
    """A case from open findings of the establishment (`?finding=` preselects ones)."""
    findings = list(Finding.objects.filter(establishment=fse, open=True).order_by("since", "rule"))
    form = OpenCaseForm(request.POST or None, fse=fse, findings=findings, as_of=page_as_of(request))
    form.fields["findings"].initial = request.GET.getlist("finding")
    if form.is_valid():
        chosen = [f for f in findings if str(f.pk) in form.cleaned_data["findings"]]
        case = fse.cases.filter(code=form.cleaned_data["case"]).first()
        try:
            case = case_from_findings(
                establishment=fse,
                findings=chosen,
                case=case,
                opened_on=form.cleaned_data["opened_on"],
                actor=request.user,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            more = counted(len(chosen), "more violation")
            messages.success(request, f"Case {case.code} holds {more}; take its first step below.")
            return redirect("web:case", fse.code, case.code)
    context = {"fse": fse, "form": form, "title": "Start a case from open findings"}
    status = 400 if form.is_bound else 200
    return render(request, "web/enforcement/open_case.html", context, status=status)


# -- the bulk notice ------------------------------------------------------------------------


def may_send_first_notice(request) -> bool:
    """Whether the person may send the pack's first notice in bulk (its kind of write): the
    dashboard and the establishment list offer the bulk notice then."""
    first = request.agency.get_pack().procedure.get("first_notice")
    return bool(first) and policy.may_write(request.user, request.agency, policy.action_kind(first))


def _first_notice_form(request, pack, as_of):
    spec = pack.actions[pack.procedure["first_notice"]]
    # no case yet: a first notice's form asks for no violation of one
    return ActionForm(request.POST or None, pack=pack, spec=spec, case=None, as_of=as_of)  # type: ignore[arg-type]


@agency_page
def bulk_notice(request):
    """The establishments with an open finding of a rule (`?rule=`), to send the pack's first
    notice to the ones chosen, each with its own case and letter."""
    pack = request.agency.get_pack()
    first = pack.procedure.get("first_notice")
    if not first:
        return render(request, "web/enforcement/bulk_notice.html", {"none": True})
    policy.require_write(request.user, request.agency, policy.action_kind(first))
    as_of = page_as_of(request)
    counts = (
        Finding.objects.filter(agency=request.agency, open=True)
        .values("rule")
        .annotate(n=Count("establishment", distinct=True))
        .order_by("rule")
    )
    rules = [(c["rule"], pack_title(pack, c["rule"]), c["n"]) for c in counts]
    rule = request.GET.get("rule") or request.POST.get("rule") or (rules[0][0] if rules else "")
    found = (
        Finding.objects.filter(agency=request.agency, open=True, rule=rule)
        .select_related("establishment")
        .order_by("establishment__code", "subject")
    )
    establishments = list({f.establishment.code: f.establishment for f in found}.values())
    form = _first_notice_form(request, pack, as_of)
    errors = []
    if request.method == "POST" and form.is_valid():
        try:
            run = _start(request, pack, form, rule, as_of)
        except ValidationError as e:
            errors = e.messages
        else:
            return redirect("web:bulk_notice_run", run.pk)
    context = {
        "rules": rules,
        "rule": rule,
        "establishments": establishments,
        "form": form,
        "errors": errors,
        "spec": pack.actions[pack.procedure["first_notice"]],
        "deliveries": [c for c in DELIVERY if c[0]],
    }
    return render(
        request,
        "web/enforcement/bulk_notice.html",
        context,
        status=400 if request.method == "POST" else 200,
    )


def _start(request, pack, form, rule, as_of) -> BulkNotice:
    fields = form.action_fields()
    run = bulk_notice_start(
        agency=request.agency,
        rule=rule,
        codes=request.POST.getlist("establishment"),
        fields=fields,
        delivery=request.POST.get("delivery", ""),
        first_certified=request.POST.get("first_certified", "").strip(),
        as_of=as_of,
        actor=request.user,
    )
    beside("fogkeeper.enforcement.bulk_notice", run.pk, record=run)  # its page follows it
    return run


@agency_page
@reads_only
def bulk_notice_run(request, pk: int):
    """How far a bulk notice got; what was sent (with its case) and what was refused, why."""
    run = get_object_or_404(BulkNotice, pk=pk, agency=request.agency)
    sent = Paginator(run.sent, BULK_PAGE).get_page(request.GET.get("page"))
    context = {
        "run": run,
        "sent": sent,
        "spec": request.agency.get_pack().actions[run.action_type],
        "rule": pack_title(request.agency.get_pack(), run.rule),
        "waiting": not run.finished_at and not run.done and waiting(run),
    }
    template = (
        "web/enforcement/_bulk_progress.html"
        if request.headers.get("HX-Request")
        else "web/enforcement/bulk_run.html"
    )
    return render(request, template, context)
