"""Forms of the case workbench: one for any action of the pack, built from the action type's
fields as the pack declares them (so another ordinance's actions get their forms without
code), and the forms of hearings, appeals, later facts and court judgments."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django import forms

from fogkeeper.enforcement.codes import action_code, initials
from fogkeeper.enforcement.models import DELIVERY, EnforcementAction, EnforcementCase
from fogkeeper.enforcement.services import CLOSING_REASONS
from fogkeeper.formats import money, unit_one, unit_words
from fogkeeper.rules.calendar import Duration, add_months
from fogkeeper.rules.packs import PENALTY_UNITS, ActionSpec, Pack

from ..common.forms import DateInput, DateTimeInput, choice_field
from ..vocabulary import identifier_words, reference_words, violation_words

# Fields a later step records (a fact, a hearing, an appeal), or the service computes.
LATER = {
    "corrected_on",
    "hearing_on",
    "continued_to",
    "hearing_concluded_on",
    "hearing_concluded_at",
    "paid_on",
    "appealed_on",
    "appeal_decided_on",
    "record_requested_on",
    "record_delivered_on",
    "balance_due",
}
TEXT_LABELS = {
    "corrective_action": "Corrective action required",
    "decision": "Decision",
    "findings": "Findings",
    "reasons": "Reasons",
    "charges": "Charges (the acts or failures to act, and the provisions of law)",
}


def label(name: str) -> str:
    return TEXT_LABELS.get(name) or identifier_words(name)


class ActionForm(forms.Form):
    """An action of the pack on a case: its code, the fields the pack gives it that are known
    when it is taken, the violation it concerns, what it decides and how it was delivered."""

    code = forms.CharField(max_length=40, label="Action number")

    def __init__(
        self,
        data=None,
        *,
        pack: Pack,
        spec: ActionSpec,
        case: EnforcementCase,
        as_of: date,
        refers_to: EnforcementAction | None = None,
    ):
        super().__init__(data)
        self.pack, self.spec, self.case = pack, spec, case
        if case is None:  # a bulk notice: each establishment's number is the next free one
            del self.fields["code"]
        else:
            self.fields["code"].initial = action_code(case.establishment, initials(spec.title))
        by_law = {d.fills for d in spec.deadlines if d.fills}  # the service sets them
        for name, f in spec.fields.items():
            if name in LATER or name in PENALTY_UNITS or name in by_law:
                continue
            field = self._field(name, f.kind, f.required, f.choices, as_of)
            if field is not None:
                self.fields[name] = field
        if "class" in self.fields:
            self._quantities()
        if case is not None:
            self._violation()
        if refers_to is not None:
            self.fields["refers_to"] = forms.CharField(
                widget=forms.HiddenInput, initial=refers_to.code, required=False
            )
        if spec.letter and case is not None:
            self.fields["delivery"] = forms.ChoiceField(
                choices=[c for c in DELIVERY if c[0]], label="Delivered by", initial="mail"
            )
            self.fields["certified_mail_number"] = forms.CharField(
                required=False,
                max_length=40,
                label="Certified mail number",
                help_text="Required when mailed (certified mail).",
            )

    def _field(self, name, kind, required, choices, as_of) -> forms.Field | None:
        common = {"label": label(name), "required": required}
        if kind in ("date", "planned_date"):
            initial = as_of if name == self.spec.date_field else self._default_date(name, as_of)
            return forms.DateField(widget=DateInput, initial=initial, **common)
        if kind == "datetime":
            return forms.DateTimeField(widget=DateTimeInput, **common)
        if kind == "money":
            return forms.DecimalField(min_value=0, decimal_places=2, **common)
        if kind == "flag":
            return forms.BooleanField(required=False, label=label(name))
        if kind == "choice":
            blank = [] if required else [("", "—")]
            return forms.ChoiceField(
                choices=blank + [(c, self._level(c)) for c in choices], **common
            )
        if kind == "penalty_class":
            return forms.ChoiceField(choices=self._classes(as_of), **common)
        if kind == "count":
            return forms.IntegerField(min_value=0, **common)
        if kind == "quantity":
            return forms.DecimalField(min_value=0, **common)
        if kind == "text":
            return forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), **common)
        if kind == "milestones":
            return forms.CharField(
                widget=forms.Textarea(attrs={"rows": 4}),
                required=required,
                label="Milestones",
                help_text="One a line: its number, the date it is due and what must be done "
                "by then, e.g. M-1 2025-08-01 Install a 1,000-gallon grease interceptor.",
            )
        return None

    def _default_date(self, name: str, as_of: date) -> date | None:
        """The correct-by date the pack's correction period gives from `as_of`."""
        name_ = "enforcement.default_correction_period"
        if name != "correct_by" or name_ not in self.pack.parameters:
            return None
        period = Duration.parse(self.pack.param(name_, as_of))
        if period.unit in ("months", "years"):
            return add_months(as_of, period.n * (12 if period.unit == "years" else 1))
        return as_of + timedelta(days=period.days_equivalent())

    def _level(self, level: str) -> str:
        return self.pack.level_title(level)

    def _classes(self, as_of: date) -> list[tuple[str, str]]:
        """The administrative classes with their caps in force, e.g. "days (up to $1,000.00 a
        day)" (a court's classes are not the order's to impose)."""
        out = []
        for cls in self.pack.administrative_classes():
            cap = self.pack.penalty_cap(cls, as_of)
            if cap is None:
                continue
            what = f"{cap.description}: up to {money(cap.amount)} a {unit_one(cap.per)}"
            out.append((cls, f"{what} ({reference_words(self.pack, cap.reference)})"))
        return out

    def _quantities(self) -> None:
        units = sorted(set(self.pack.administrative_classes().values()))
        for unit in units:
            kind = self.spec.fields[unit].kind if unit in self.spec.fields else "count"
            field = forms.DecimalField if kind == "quantity" else forms.IntegerField
            self.fields[unit] = field(
                min_value=0,
                required=False,
                label=f"Number of {unit_words(unit)}",
                help_text="The quantity the class's cap is counted in.",
            )

    def _violation(self) -> None:
        found = self.case.violations.select_related("case__establishment")
        violations = list(found.order_by("code"))
        if violations:
            self.fields["violation"] = forms.ChoiceField(
                required=False,
                label="Violation",
                choices=[("", "All the case's violations")]
                + [(v.code, violation_words(self.pack, v)) for v in violations],
            )

    def clean_milestones(self) -> list[dict[str, str]]:
        out = []
        for n, line in enumerate(self.cleaned_data.get("milestones", "").splitlines(), start=1):
            parts = line.split(maxsplit=2)
            if not parts:
                continue
            try:
                due = date.fromisoformat(parts[1]) if len(parts) == 3 else None
            except ValueError:
                due = None
            if due is None:
                raise forms.ValidationError(
                    f"Line {n}: write the milestone's number, its due date (YYYY-MM-DD) and "
                    "what must be done by then."
                )
            out.append({"id": parts[0], "due": due.isoformat(), "what": parts[2].strip()})
        return out

    def action_fields(self) -> dict[str, Any]:
        """What the service takes as `fields`: the pack's fields, as given."""
        data = self.cleaned_data
        return {
            name: data[name]
            for name in self.spec.fields
            if name in data and data[name] not in (None, "", [])
        }


class HearingForm(forms.Form):
    code = forms.CharField(max_length=40, label="Hearing number")
    hearing_on = forms.DateField(widget=DateInput, label="Date of the hearing")
    place = forms.CharField(max_length=200, label="Place of the hearing")
    noticed_on = forms.DateField(widget=DateInput, label="Notice of the hearing given on")
    delivery = forms.ChoiceField(choices=[c for c in DELIVERY if c[0]], label="Delivered by")
    certified_mail_number = forms.CharField(
        required=False, max_length=40, label="Certified mail number"
    )


class ConcludeForm(forms.Form):
    concluded_on = forms.DateField(widget=DateInput, label="The hearing concluded on")


class CloseForm(forms.Form):
    code = forms.CharField(max_length=40, label="Closing number")
    closed_on = forms.DateField(widget=DateInput, label="Closed on")
    reason = forms.ChoiceField(
        label="Reason",
        choices=[("", "—"), *CLOSING_REASONS.items()],
    )
    note = forms.CharField(
        required=False,
        max_length=2000,
        label="Note",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="What the settlement provides, or why the case was withdrawn or opened in error.",
    )


class WaiverForm(forms.Form):
    code = forms.CharField(max_length=40, label="Waiver number")
    waived_on = forms.DateField(widget=DateInput, label="Written waiver received on")
    waived_by = forms.CharField(
        max_length=200,
        label="Waived by",
        help_text="The charged party, or its representative, who signed the waiver.",
    )


class AppealForm(forms.Form):
    code = forms.CharField(max_length=40, label="Appeal number")
    filed_on = forms.DateField(widget=DateInput, label="Appeal filed on")
    appellant = forms.CharField(
        max_length=200, label="Appealed by", help_text="Who filed the appeal, as it is signed."
    )
    grounds = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}), max_length=5000, label="Grounds of the appeal"
    )
    document = forms.FileField(
        required=False,
        label="The written appeal (PDF or image)",
        help_text="The appeal as received; a PDF, or a JPEG or PNG scan, up to 20 MB.",
    )


class FactForm(forms.Form):
    value = forms.DateField(widget=DateInput, label="On")


class JudgmentForm(forms.Form):
    code = forms.CharField(max_length=40, label="Judgment number")
    entered_on = forms.DateField(widget=DateInput, label="Judgment entered on")
    violation = forms.ChoiceField(label="Violation penalised")
    amount = forms.DecimalField(min_value=0, decimal_places=2, label="Civil penalty ($)")
    quantity = forms.DecimalField(min_value=0, label="Quantity (in the class's unit)")
    penalty_class = forms.ChoiceField(label="Penalty class")

    def __init__(self, data=None, *, pack: Pack, case: EnforcementCase, **kwargs):
        super().__init__(data, **kwargs)
        choice_field(self, "violation").choices = [
            (v.code, violation_words(pack, v, citation=False))
            for v in case.violations.select_related("case__establishment").order_by("code")
        ]
        today = case.establishment.agency.today()
        choice_field(self, "penalty_class").choices = [
            (c, _court_class_words(pack, c, per, today)) for c, per in pack.court_classes().items()
        ]


def _court_class_words(pack: Pack, cls: str, per: str, on: date) -> str:
    """A court's penalty class as the pack describes it, e.g. "Civil penalty a court may
    impose (counted in days)", never its key."""
    cap = pack.penalty_cap(cls, on)
    what = cap.description if cap is not None else cls.replace("_", " ")
    return f"{what} (counted in {unit_words(per)})"
