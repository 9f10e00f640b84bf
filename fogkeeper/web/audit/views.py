"""The audit trail pages, for the manager and the auditor (policy.may_read_audit): every
audit row of the agency, or of one establishment and its records, filtered by who, what kind
of change, record and days, each with what it changed; exported as CSV or Excel with the same
filters. Nobody writes here: the trail is written by the services, in the transaction of each
change, and never changed."""

from __future__ import annotations

import re
from functools import wraps

from django import forms
from django.apps import apps
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from fogkeeper.audit import selectors
from fogkeeper.registry.models import FoodServiceEstablishment

from .. import vocabulary
from ..common import policy
from ..common.exports import export_response
from ..common.forms import DateInput, choice_field
from ..common.pages import PAGE_SIZE, agency_page, reads_only
from ..common.paging import list_page

PACK_KEY = re.compile(r"[a-z_]+\.[a-z_]+|[a-z]+_[a-z_]+")

# A kind of change (an action's prefix) in words, where neither its identifier nor the model
# it is named after (the admin's and a deletion's "greasecontroldevice.delete") says it.
KIND_WORDS = {
    "service": "Pump-out",
    "ciwqs": "CIWQS import",
    "api_token": "API token",
    "user": "Person",
    "fee_schedule": "Fee schedule",
    "generate": "Synthetic program",
    "demo": "Demo data",
}
COLUMNS = [
    "When",
    "Who",
    "What",
    "Action",
    "Record type",
    "Record id",
    "Establishment",
    "Before",
    "After",
    "Reason",
]


_MODEL_NAMES = {m._meta.model_name: m for m in apps.get_models()}


def kind_words(kind: str, titles: dict) -> str:
    if kind == "permit":
        return titles.get("permit", "Permit")
    if kind in KIND_WORDS:
        return KIND_WORDS[kind]
    model = _MODEL_NAMES.get(kind)
    name = str(model._meta.verbose_name) if model else kind.replace("_", " ")
    return name[:1].upper() + name[1:]


# An action's verb (the part after its kind: "permit.issue") as the past tense of a sentence;
# a verb not here is said as the kind and the verb in words ("Discharge Permit: modify").
VERBS = {
    "create": "Recorded",
    "record": "Recorded",
    "add": "Added",
    "install": "Installed",
    "update": "Changed",
    "change": "Changed",
    "edit": "Changed",
    "modify": "Changed",
    "delete": "Deleted",
    "remove": "Removed",
    "issue": "Issued",
    "start": "Started",
    "end": "Ended",
    "import": "Imported",
    "upload": "Uploaded",
    "approve": "Approved",
    "reject": "Refused",
    "revoke": "Revoked",
    "close": "Closed",
    "send": "Sent",
    "submit": "Submitted",
    "confirm": "Confirmed",
    "complete": "Completed",
    "load": "Loaded",
    "queue": "Queued",
    "requeue": "Queued again",
    "draft": "Drafted",
    "rotate": "Renewed",
    "leave": "Left",
    "renew": "Renewed",
    "void": "Voided",
    "pay": "Paid",
}


def sentence(event, titles: dict) -> str:
    """What a row did, in words: "Recorded an inspection (I-3) of Pier Taqueria (SC-1)";
    the record by its code or name, never its database id."""
    kind, _, verb = event.action.partition(".")
    thing = selectors.type_words(event.object_type).lower()
    if event.object_type == "permits.permit":
        thing = titles.get("permit", thing)  # the pack's own name for it
    label = selectors.label_of(event)
    fse = event.establishment
    about_itself = event.object_type == "registry.foodserviceestablishment"
    if about_itself and fse is not None:
        label = f"{fse.name} ({fse.code})"
    named = f"{thing} {label}".strip()
    of = f" of {fse.name} ({fse.code})" if fse is not None and not about_itself else ""
    if verb in VERBS:
        return f"{VERBS[verb]} {_article(named)} {named}{of}"
    return f"{action_words(event.action, titles)}: {named}{of}"


def _article(words: str) -> str:
    return "an" if words[:1].lower() in "aeiou" else "a"


def action_words(action: str, titles: dict) -> str:
    """An action in words: "permit.issue" -> "Discharge Permit: issue"."""
    kind, _, verb = action.partition(".")
    words = kind_words(kind, titles)
    return f"{words}: {verb.replace('_', ' ')}" if verb else words


class AuditFilterForm(forms.Form):
    """The trail's filters, every one may be left empty; a person or kind not of the agency,
    an impossible day or a range that ends before it starts is refused on its field."""

    who = forms.ChoiceField(required=False, label="Who")
    kind = forms.ChoiceField(required=False, label="What kind of change")
    object_type = forms.ChoiceField(required=False, label="Record type")
    record = forms.CharField(
        required=False, max_length=64, label="Record: its id, or an establishment's code"
    )
    date_from = forms.DateField(
        required=False,
        label="From",
        widget=DateInput,
        error_messages={"invalid": "From: give a real date, as YYYY-MM-DD."},
    )
    date_to = forms.DateField(
        required=False,
        label="To",
        widget=DateInput,
        error_messages={"invalid": "To: give a real date, as YYYY-MM-DD."},
    )

    def __init__(self, *args, agency, **kwargs):
        super().__init__(*args, **kwargs)
        titles = agency.get_pack().titles
        people = [(str(u.pk), selectors.person(u)) for u in selectors.actors(agency=agency)]
        choice_field(self, "who").choices = [
            ("", "Anyone"),
            (selectors.SYSTEM, "The system"),
            *people,
        ]
        kinds, types = selectors.kinds_and_types(agency=agency)
        choice_field(self, "kind").choices = [
            ("", "Any change"),
            *((k, kind_words(k, titles)) for k in kinds),
        ]
        choice_field(self, "object_type").choices = [
            ("", "Any record"),
            *((t, selectors.type_words(t)) for t in types),
        ]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and end < start:
            self.add_error("date_to", f"To ({end}) is before From ({start}).")
        return data


def audit_page(view):
    """A page of the audit trail: the manager's and the auditor's (403 for the other staff,
    who reach the agency but not its trail); GET only."""

    @agency_page
    @reads_only
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not policy.may_read_audit(request.user, request.agency):
            raise PermissionDenied("the audit trail is read by the manager and the auditor")
        return view(request, *args, **kwargs)

    return wrapper


@audit_page
def audit_list(request):
    """Every audit row of the agency, newest first."""
    rows = selectors.trail(agency=request.agency)
    return _trail_page(request, rows, filename=f"{request.agency.code}-audit-trail")


@audit_page
def establishment_audit(request, code: str):
    """The audit rows about one establishment and its records."""
    fse = get_object_or_404(FoodServiceEstablishment, agency=request.agency, code=code)
    rows = selectors.trail(agency=request.agency, establishment=fse)
    filename = f"{request.agency.code}-{fse.code}-audit-trail"
    return _trail_page(request, rows, filename=filename, fse=fse)


def _trail_page(request, rows, *, filename: str, fse=None):
    form = AuditFilterForm(request.GET or None, agency=request.agency)
    refused = form.is_bound and not form.is_valid()
    export = request.GET.get("export")
    if refused and export:
        return _refused(form)
    filters = {k: v for k, v in form.cleaned_data.items() if v} if form.is_bound else {}
    rows = selectors.filtered(rows, agency=request.agency, **filters)
    titles = request.agency.get_pack().titles
    if export:
        return export_response(
            export,
            filename=filename,
            sheet="Audit trail",
            columns=COLUMNS,
            rows=_export_rows(rows.iterator(chunk_size=2000), titles),
        )
    page = list_page(rows if not refused else rows.none(), PAGE_SIZE, request.GET.get("page"))
    query = request.GET.copy()
    for name in ("page", "export"):
        query.pop(name, None)
    shown = [_shown(event, titles) for event in page]
    selectors.name_related([row["all_changes"] for row in shown])
    _in_pack_words(request.agency.get_pack(), shown)
    context = {
        "form": form,
        "page": page,
        "fse": fse,
        "refused": refused,
        "query": query.urlencode(),
        "rows": shown,
    }
    return render(request, "web/audit/list.html", context, status=400 if refused else 200)


def _shown(event, titles: dict) -> dict:
    changes = selectors.changes(event)
    return {
        "event": event,
        "who": selectors.person(event.actor),
        "what": action_words(event.action, titles),
        "sentence": sentence(event, titles),
        "type": selectors.type_words(event.object_type),
        "all_changes": changes,
        "changes": [c for c in changes if not c.technical and _said(c, event)],
        "technical": [c for c in changes if c.technical],
        "created": event.before is None and event.after is not None,
        "deleted": event.after is None,
    }


def _in_pack_words(pack, shown: list[dict]) -> None:
    """A change's value that is one of the pack's keys (a rule, a checklist item, a category)
    in the pack's words, as every other page says it."""
    for change in (c for row in shown for c in row["changes"]):
        for side in ("old", "new"):
            value = getattr(change, side)
            if isinstance(value, str) and PACK_KEY.fullmatch(value):
                setattr(change, side, vocabulary.value_words(pack, value))


def _said(change, event) -> bool:
    """Whether a change is worth a line: a record created or deleted lists only the fields
    it had a value in."""
    if event.before is None:
        return change.new != "—"
    if event.after is None:
        return change.old != "—"
    return True


def _export_rows(events, titles: dict):
    for event in events:
        fse = event.establishment
        yield [
            timezone.localtime(event.at),
            selectors.person(event.actor),
            action_words(event.action, titles),
            event.action,
            selectors.type_words(event.object_type),
            event.object_id,
            fse.code if fse else "",
            selectors.json_text(event.before),
            selectors.json_text(event.after),
            event.reason,
        ]


def _refused(form) -> HttpResponse:
    text = " ".join(m for messages in form.errors.values() for m in messages)
    return HttpResponse(text, status=400, content_type="text/plain; charset=utf-8")
