"""The forms of a communication: who it goes to (the establishment list's filters, field for
field: selectors.FILTERS, so that any filter of the list chooses recipients here too) and what
it says (kind, channel, subject, body with merge fields, an optional PDF)."""

from __future__ import annotations

from django import forms
from django.db.models import QuerySet

from fogkeeper.communications import merge
from fogkeeper.communications.models import Communication
from fogkeeper.communications.services import size_words
from fogkeeper.rules.checks import obligations
from fogkeeper.rules.report import STATUSES

from ..common.forms import DateInput, choice_field
from ..registry import selectors
from ..templatetags.words import pack_title, status_word


def _any(choices) -> list[tuple[str, str]]:
    return [("", "Any"), *choices]


class RecipientFilters(forms.Form):
    """The establishment list's filters (registry.selectors.FILTERS, read by establishment_list)."""

    q = forms.CharField(
        required=False, max_length=100, label="Name, address or permit number contains"
    )
    status = forms.ChoiceField(required=False, label="Status")
    rule = forms.ChoiceField(required=False, label="Open finding")
    device = forms.ChoiceField(required=False, label="Device kind")
    segment = forms.CharField(required=False, max_length=40, label="Sewer segment (its code)")
    due_by = forms.DateField(
        required=False,
        widget=DateInput,
        label="Next due on or before",
        help_text="A day before today chooses the establishments with something overdue.",
    )
    obligation = forms.ChoiceField(required=False, label="Something falls due")
    due_from = forms.DateField(required=False, widget=DateInput, label="…from")
    due_to = forms.DateField(required=False, widget=DateInput, label="…through")
    overflow_since = forms.DateField(
        required=False, widget=DateInput, label="An overflow or spill since"
    )

    def __init__(self, data=None, *, agency, **kwargs):
        super().__init__(data, **kwargs)
        self.agency = agency
        pack = agency.get_pack()
        choices = selectors.filter_choices(agency=agency)
        choice_field(self, "status").choices = _any((s, status_word(s)) for s in STATUSES)
        choice_field(self, "rule").choices = _any(choices["rules"])
        choice_field(self, "device").choices = _any(choices["device_kinds"])
        choice_field(self, "obligation").choices = _any(
            sorted(((o, pack_title(pack, o)) for o in obligations()), key=lambda c: c[1])
        )
        if titles := pack.titles.get("permit"):
            self.fields["q"].label = f"Name, address or {titles} number contains"

    def clean_segment(self) -> str:
        code = self.cleaned_data["segment"].strip()
        if code and not self.agency.sewer_segments.filter(code=code).exists():
            raise forms.ValidationError(f"No sewer segment of the agency has the code {code!r}.")
        return code

    def clean(self):
        super().clean()
        data = self.cleaned_data
        start, end = data.get("due_from"), data.get("due_to")
        if start and end and end < start:
            self.add_error("due_to", "The end of the range is before its start.")
        return data

    def filters(self) -> dict[str, str]:
        """The filters set, as the establishment list reads them from its query."""
        out = {}
        for name, value in self.cleaned_data.items():
            if value in (None, ""):
                continue
            out[name] = value.isoformat() if hasattr(value, "isoformat") else str(value)
        return out

    def words(self) -> list[str]:
        """Each filter set, as "Label: value" in words."""
        out = []
        for name, value in self.filters().items():
            field = self.fields[name]
            shown = dict(field.choices).get(value, value) if hasattr(field, "choices") else value
            out.append(f"{field.label}: {shown}")
        return out


def chosen(agency, filters: dict[str, str]) -> QuerySet:
    """The establishments the filters choose, by the establishment list's own selector."""
    params = {k: v for k, v in filters.items() if k in selectors.FILTERS}
    return selectors.establishment_list(agency=agency, params=params)


class CommunicationForm(forms.Form):
    kind = forms.ChoiceField(label="Kind", choices=Communication.KINDS, widget=forms.RadioSelect)
    channel = forms.ChoiceField(
        label="Sent as", choices=Communication.CHANNELS, widget=forms.RadioSelect
    )
    subject = forms.CharField(max_length=200, label="Subject (the heading of a letter)")
    body = forms.CharField(
        label="Text",
        widget=forms.Textarea(attrs={"rows": 12}),
        help_text=f"Plain text. Merge fields in single braces, such as {merge.EXAMPLE}, are "
        "replaced by each establishment's own value (the list below).",
    )
    attachment = forms.FileField(
        required=False,
        label="Attach a PDF",
        widget=forms.ClearableFileInput(attrs={"accept": ".pdf,application/pdf"}),
    )
    remove_attachment = forms.BooleanField(required=False, label="Remove the PDF attached")

    def __init__(self, *args, max_bytes: int, attached: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        hint = f"Optional, at most {size_words(max_bytes)}: attached to each email, enclosed "
        hint += "with each letter."
        if attached:
            hint += f" Attached now: {attached}."
        self.fields["attachment"].help_text = hint
        if not attached:
            del self.fields["remove_attachment"]
