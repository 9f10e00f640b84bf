"""The case workbench: staff take the next step of a case from its page, each through the
enforcement services (their cited guards, their audit rows), by the role ACCESS.md gives the
step (`policy.action_kind`). After each write the establishment is evaluated again and the
case page shows what happened and the deadlines the step set."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from functools import wraps
from typing import Any, Literal, overload

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.enforcement import services
from fogkeeper.enforcement.codes import action_code
from fogkeeper.enforcement.models import HEARING, EnforcementAction, EnforcementCase

from ..common import policy
from ..common.forms import DateTimeInput, put_errors
from ..common.pages import agency_page, page_as_of
from ..vocabulary import reference_words, text_words
from .forms import (
    ActionForm,
    AppealForm,
    CloseForm,
    ConcludeForm,
    FactForm,
    HearingForm,
    JudgmentForm,
    WaiverForm,
    label,
)


def case_step(kind_of):
    """A page taking a step on case `case` of establishment `code`: 404 for another agency's
    case, 403 when the person's role may not take it (`kind_of(request, case, **kwargs)` names the
    kind of write, a key of policy.WRITES)."""

    def decorate(view):
        @agency_page
        @wraps(view)
        def wrapper(request, code: str, case: str, **kwargs):
            found = get_object_or_404(
                EnforcementCase.objects.select_related("establishment"),
                establishment__agency=request.agency,
                establishment__code=code,
                code=case,
            )
            policy.require_write(request.user, request.agency, kind_of(request, found, **kwargs))
            try:
                return view(request, found, **kwargs)
            except Unnamed:
                context = {"case": found, "fse": found.establishment}
                return render(request, "web/enforcement/unnamed.html", context, status=400)

        return wrapper

    return decorate


@overload
def _refers_to(
    request: Any, case: EnforcementCase, required: Literal[True] = True
) -> EnforcementAction: ...
@overload
def _refers_to(request: Any, case: EnforcementCase, required: bool) -> EnforcementAction | None: ...
def _refers_to(request, case: EnforcementCase, required: bool = True) -> EnforcementAction | None:
    """The action of the case the step is on (`?refers_to=CODE`); another case's is 404."""
    code = request.POST.get("refers_to") or request.GET.get("refers_to", "")
    if not code:
        if required:
            raise Unnamed
        return None
    return get_object_or_404(EnforcementAction, case=case, code=code)


class Unnamed(Exception):
    """The step was asked for without the action it is on (a link not from the case page)."""


def _done(request, case: EnforcementCase, action: EnforcementAction | None, what: str):
    """Say what happened (the write evaluated the establishment again) and what comes next."""
    fse = case.establishment
    text = f"{what}; the establishment was evaluated again."
    if action is not None:
        ahead = _deadlines_of(fse, action.code)
        if ahead:
            text += " Next: " + "; ".join(ahead) + "."
        if action.letters.exists():
            text += " Its letter was issued and stored."
    messages.success(request, text)
    anchor = f"#action-{action.code}" if action is not None else ""
    day = request.GET.get("as_of")
    query = f"?{urlencode({'as_of': day})}" if day else ""
    return redirect(reverse("web:case", args=[fse.code, case.code]) + query + anchor)


def _deadlines_of(fse, code: str) -> list[str]:
    status = ComplianceStatus.objects.filter(establishment=fse).first()
    return [
        f"{d['name'].replace('_', ' ')} {'from' if d['kind'] == 'earliest' else 'by'} "
        f"{str(d['date'])[:16].replace('T', ' ')} ({d['citation']})"
        for d in (status.deadlines if status else [])
        if d["action"] == code
    ]


def _page(request, case, form, title: str, *, intro: Sequence[str] = (), preview: bool = False):
    context = {
        "case": case,
        "fse": case.establishment,
        "form": form,
        "title": title,
        "intro": intro,
        "preview": preview,
    }
    return render(
        request, "web/enforcement/step.html", context, status=400 if form.is_bound else 200
    )


# -- an action of the pack ----------------------------------------------------------------


def _action_kind(request, case, type: str) -> str:
    return policy.action_kind(type)


@case_step(_action_kind)
def take_action(request, case: EnforcementCase, type: str):
    """An action of the pack's procedure (`type`), with a preview of its letter."""
    pack = request.agency.get_pack()
    spec = pack.actions.get(type)
    if spec is None or type == "invoice":
        raise Http404("not an action of this ordinance")
    refers_to = _refers_to(request, case, required=False)
    as_of = page_as_of(request)
    form = ActionForm(
        request.POST or None, pack=pack, spec=spec, case=case, as_of=as_of, refers_to=refers_to
    )
    if form.is_valid():
        if "preview" in request.POST:
            return _preview(request, case, spec, form, refers_to)
        try:
            action = _take(request, case, type, form, refers_to)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _done(request, case, action, f"{spec.title} {action.code} taken")
    intro = [f"{spec.title}, {spec.citation}."]
    if refers_to is not None:
        intro.append(f"On {refers_to.code} ({label(refers_to.type)}).")
    return _page(request, case, form, spec.title, intro=intro, preview=spec.letter)


def _violation(case, form) -> Any:
    code = form.cleaned_data.get("violation")
    return case.violations.filter(code=code).first() if code else None


def _take(request, case, type, form, refers_to) -> EnforcementAction:
    data = form.cleaned_data
    return services.action_take(
        case=case,
        type=type,
        code=data["code"],
        fields=form.action_fields(),
        delivery=data.get("delivery", ""),
        certified_mail_number=data.get("certified_mail_number", ""),
        refers_to=refers_to,
        violation=_violation(case, form),
        actor=request.user,
    )


def _preview(request, case, spec, form, refers_to) -> HttpResponse:
    """The letter the action would send, marked as a preview and not stored."""
    from fogkeeper.enforcement import letters

    fields = services.filled_by_law(
        case.establishment,
        form.cleaned_data["code"],
        spec.type,
        services.plain_fields(form.action_fields()),
    )
    taken_on = date.fromisoformat(str(fields.get(spec.date_field, page_as_of(request)))[:10])
    action = EnforcementAction(
        case=case,
        establishment=case.establishment,
        code=form.cleaned_data["code"],
        type=spec.type,
        level=request.agency.get_pack()
        .procedure.get("levels", {})
        .get(spec.type, fields.get("issued_by", "")),
        taken_on=taken_on,
        cites=spec.citation,
        fields=fields,
        refers_to=refers_to,
        violation=_violation(case, form),
        taken_by=request.user,
        delivery=form.cleaned_data.get("delivery", ""),
        certified_mail_number=form.cleaned_data.get("certified_mail_number", ""),
    )
    deadlines = services.action_deadlines(
        case.establishment, action.code, spec.type, fields, taken_on
    )
    pdf = letters.preview_letter(action, [d.to_dict() for d in deadlines], request.user)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="preview-{action.code}.pdf"'
    return response


# -- hearings -----------------------------------------------------------------------------


@case_step(lambda request, case: "hearing")
def schedule_hearing(request, case: EnforcementCase):
    """A hearing on a notice, or (`refers_to` a hearing) a continuance of it; the engine's
    window for the first hearing is shown and enforced by the service."""
    on = _refers_to(request, case)
    continued = on if on.type == HEARING else None
    notice = on.refers_to if continued else on
    assert notice is not None  # a hearing is always on a notice (services.hearing_schedule)
    form = HearingForm(
        request.POST or None,
        initial={
            "code": action_code(case.establishment, "H"),
            "noticed_on": page_as_of(request),
            "place": (continued.fields.get("place", "") if continued else ""),
        },
    )
    if form.is_valid():
        try:
            hearing = services.hearing_schedule(
                notice=notice, continued_from=continued, actor=request.user, **form.cleaned_data
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            what = "Continuance" if continued else "Hearing"
            return _done(
                request,
                case,
                hearing,
                f"{what} {hearing.code} set for {hearing.fields['hearing_on']}",
            )
    pack = request.agency.get_pack()
    intro = [
        _continuance_words(notice, continued, pack) if continued else _window_words(notice, pack)
    ]
    title = (
        f"Continue the hearing {continued.code}"
        if continued
        else f"Schedule the hearing on {notice.code}"
    )
    return _page(request, case, form, title, intro=intro)


def _window_words(notice: EnforcementAction, pack) -> str:
    if notice.type not in services.HEARD:
        return f"Out of sequence: no hearing is held on {notice.code} ({label(notice.type)})."
    words = []
    for d in services.hearing_window(notice):
        day = str(d.date)[:16].replace("T", " ")
        words.append(f"{'not before' if d.kind == 'earliest' else 'by'} {day} ({d.citation})")
    title = pack.actions[notice.type].title
    if not words:
        return f"The {title} {notice.code} sets no window for its hearing."
    return f"The hearing on the {title} {notice.code} is held " + " and ".join(words) + "."


def _continuance_words(notice: EnforcementAction, continued: EnforcementAction, pack) -> str:
    """How far the hearing may be continued: the window bounds the first hearing only, a
    continuance the pack's limit counted from the first hearing (Town 10.02.260(B))."""
    spec = pack.actions[notice.type]
    window = spec.checks.get("hearing_window", {})
    first = notice.effective_fields().get(window.get("field", "hearing_on"))
    said = (
        f"The hearing on the {spec.title} {notice.code} was first held on {first}"
        if first
        else f"The hearing {continued.code} on the {spec.title} {notice.code} is set for "
        f"{continued.fields.get('hearing_on')}"
    )
    limit = (window.get("continuance") or {}).get("limit")
    if limit is None or limit not in pack.parameters:
        return f"{said}; the ordinance sets no limit on its continuances."
    value = pack.parameters[limit].value_on(max(services.day_of(notice.taken_on), pack.effective))
    total = text_words(pack, str(value.value))
    cited = reference_words(pack, value.reference)
    return f"{said}: it may be continued by no more than {total} in total ({cited})."


@case_step(lambda request, case: "hearing")
def conclude_hearing(request, case: EnforcementCase):
    hearing = _refers_to(request, case)
    form = ConcludeForm(
        request.POST or None, initial={"concluded_on": hearing.fields.get("hearing_on")}
    )
    if form.is_valid():
        try:
            services.hearing_conclude(hearing=hearing, actor=request.user, **form.cleaned_data)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _done(request, case, hearing.refers_to, f"Hearing {hearing.code} concluded")
    return _page(request, case, form, f"Record that the hearing {hearing.code} concluded")


@case_step(lambda request, case: "hearing")
def waive_hearing(request, case: EnforcementCase):
    """The charged party's written waiver of the hearing on a complaint: what follows the
    hearing may then follow the waiver."""
    notice = _refers_to(request, case)
    form = WaiverForm(
        request.POST or None,
        initial={"code": action_code(case.establishment, "W"), "waived_on": page_as_of(request)},
    )
    if form.is_valid():
        try:
            waiver = services.hearing_waive(notice=notice, actor=request.user, **form.cleaned_data)
        except ValidationError as e:
            put_errors(form, e)
        else:
            return _done(
                request, case, waiver, f"Waiver {waiver.code} of the hearing on {notice.code}"
            )
    spec = request.agency.get_pack().actions.get(notice.type)
    intro = [
        f"The charged party may waive in writing the hearing on the {label(notice.type)} "
        f"{notice.code}; the hearing is then not held ({spec.waiver if spec else ''})."
    ]
    title = f"Record a written waiver of the hearing on {notice.code}"
    return _page(request, case, form, title, intro=intro)


@case_step(lambda request, case: policy.action_kind("case_closure"))
def close_case(request, case: EnforcementCase):
    """The manager closes the case with a reason: nothing more is taken on it, and its dates
    leave the legal calendar."""
    form = CloseForm(
        request.POST or None,
        initial={"code": action_code(case.establishment, "CL"), "closed_on": page_as_of(request)},
    )
    if form.is_valid():
        try:
            closure = services.case_close(case=case, actor=request.user, **form.cleaned_data)
        except ValidationError as e:
            put_errors(form, e)
        else:
            reason = services.CLOSING_REASONS[closure.fields["reason"]].lower()
            return _done(request, case, None, f"Case {case.code} closed ({reason})")
    intro = [
        "Closing the case ends it: no further step is offered on it, and its dates leave the "
        "legal calendar. The violations stay on the establishment's record as the engine "
        "finds them."
    ]
    return _page(request, case, form, f"Close case {case.code}", intro=intro)


# -- appeals, facts, judgments ------------------------------------------------------------


@case_step(lambda request, case: "appeal")
def file_appeal(request, case: EnforcementCase):
    """An appeal of an action to the level (`?to=`) its pack routes it to, by its deadline."""
    appealed = _refers_to(request, case)
    to = request.POST.get("to") or request.GET.get("to", "")
    pack = request.agency.get_pack()
    form = AppealForm(
        request.POST or None,
        request.FILES or None,
        initial={"code": action_code(case.establishment, "AP"), "filed_on": page_as_of(request)},
    )
    if form.is_valid():
        try:
            appeal = services.appeal_file(
                appealed=appealed, to=to, actor=request.user, **form.cleaned_data
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            what = f"Appeal {appeal.code} of {appealed.code} to the {pack.level_title(to)}"
            if appeal.fields.get("rejected"):
                what += (
                    f" received and rejected as late: the last day to file it was "
                    f"{appeal.fields['last_day']} ({appeal.cites}); no date of {appealed.code} "
                    "changes"
                )
            else:
                what += " filed"
            return _done(request, case, appeal, what)
    title = f"Appeal {appealed.code} to the {pack.level_title(to)}"
    return _page(request, case, form, title, intro=[_appeal_words(pack, appealed, to)])


def _appeal_words(pack, appealed: EnforcementAction, to: str) -> str:
    """Who hears the appeal and by when, from the engine's deadlines of the action."""
    routes = pack.actions[appealed.type].appeal_routes() if appealed.type in pack.actions else {}
    status = ComplianceStatus.objects.filter(establishment=appealed.establishment).first()
    for d in status.deadlines if status else []:
        if d["action"] == appealed.code and routes.get(d["name"]) == to:
            return (
                f"The {pack.level_title(to)} hears an appeal of {appealed.code} filed by "
                f"{str(d['date'])[:10]} ({d['citation']})."
            )
    return (
        f"No deadline to appeal {appealed.code} to the {pack.level_title(to)} is open: the "
        "appeal will be refused unless the ordinance routes it there."
    )


def _fact_kind(request, case) -> str:
    code = request.GET.get("refers_to") or request.POST.get("refers_to", "")
    action = EnforcementAction.objects.filter(case=case, code=code).first()
    field = request.GET.get("field") or request.POST.get("field", "")
    return policy.fact_kind(action.type if action else "", field)


@case_step(lambda request, case: _fact_kind(request, case))
def record_fact(request, case: EnforcementCase):
    """A later fact about an action: its correction, a milestone met, the record requested
    or delivered (a date); a court's outcome (words)."""
    action = _refers_to(request, case)
    field = request.POST.get("field") or request.GET.get("field", "")
    form = FactForm(request.POST or None, initial={"value": page_as_of(request)})
    spec = request.agency.get_pack().actions.get(action.type)
    kind = spec.fields[field].kind if spec is not None and field in spec.fields else "date"
    if kind == "datetime":
        form.fields["value"] = forms.DateTimeField(widget=DateTimeInput)
    elif kind == "text":  # an outcome in words (a court's), not a date
        form = FactForm(request.POST or None)
        form.fields["value"] = forms.CharField(max_length=2000, widget=forms.Textarea)
    form.fields["value"].label = _fact_label(field)
    if form.is_valid():
        try:
            services.action_fact_record(
                action=action, field=field, value=form.cleaned_data["value"], actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e, {"field": "value"})
        else:
            what = f"{form.fields['value'].label} {form.cleaned_data['value']}"
            return _done(request, case, action, f"{action.code}: {what} recorded")
    return _page(request, case, form, f"{form.fields['value'].label}: {action.code}")


def _fact_label(field: str) -> str:
    """`milestones.M-1.met_on` -> "Milestone M-1 met on"; `corrected_on` -> "Corrected on"."""
    parts = field.split(".")
    if len(parts) == 3 and parts[0] == "milestones":
        return f"Milestone {parts[1]} {label(parts[2]).lower()}"
    return label(field) if field else "On"


@case_step(lambda request, case: policy.action_kind("court_judgment"))
def record_judgment(request, case: EnforcementCase):
    pack = request.agency.get_pack()
    form = JudgmentForm(
        request.POST or None,
        pack=pack,
        case=case,
        initial={"code": action_code(case.establishment, "CJ")},
    )
    if form.is_valid():
        data = form.cleaned_data
        cls = data["penalty_class"]
        unit = pack.court_classes()[cls]
        quantity: Any = data["quantity"] if unit == "gallons" else int(data["quantity"])
        try:
            judgment = services.court_judgment_record(
                case=case,
                code=data["code"],
                entered_on=data["entered_on"],
                violation=case.violations.get(code=data["violation"]),
                amount=data["amount"],
                penalty_class=cls,
                actor=request.user,
                **{unit: quantity},
            )
        except ValidationError as e:
            put_errors(form, e, {unit: "quantity"})
        else:
            return _done(request, case, judgment, f"Court judgment {judgment.code} recorded")
    return _page(request, case, form, "Record a court judgment")
