"""Forms of the people pages: the members' (an invitation, a change of role, the end of a
membership; people.services decides what is refused) and enrolment's (the public request for
an account and the manager's decision on it; the services in portal.enrolment decide what is
refused). They read what is typed."""

from __future__ import annotations

import re
from typing import cast

from django import forms

from fogkeeper.portal.models import ENROLMENT_KINDS
from fogkeeper.registry.models import (
    Agency,
    FoodServiceEstablishment,
    Hauler,
    Operator,
    PropertyOwner,
)

from ..common.forms import DateInput, choice_field, model_choice_field
from ..common.lookups import LookupField
from ..models import STAFF_ROLES
from .services import INVITED_ROLES, role_title

# -- members --------------------------------------------------------------------------------


def _role_choices(agency: Agency, roles) -> list[tuple[str, str]]:
    return [(role, role_title(agency, role)) for role in roles]


class InviteForm(forms.Form):
    """Who is invited, by email, and in what role."""

    name = forms.CharField(
        max_length=150, label="Name", error_messages={"required": "Give the person's name."}
    )
    email = forms.EmailField(
        label="Email",
        help_text="The link to set a password is sent here; a person who already has an "
        "account with this email gets this agency added to it.",
        error_messages={"required": "Give the email address the sign-in link is sent to."},
    )
    role = forms.ChoiceField(label="Role", choices=())
    owner = LookupField(
        "owner",
        required=False,
        label="Property owner on record",
        help_text="Only for a property owner's account (type part of the owner's name and "
        "pick it): it reaches the establishments on this owner's parcels.",
    )

    def __init__(self, *args, agency: Agency, **kwargs):
        super().__init__(*args, **kwargs)
        choice_field(self, "role").choices = _role_choices(agency, INVITED_ROLES)
        model_choice_field(self, "owner").queryset = PropertyOwner.objects.filter(agency=agency)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label="New role", choices=())

    def __init__(self, *args, agency: Agency, **kwargs):
        super().__init__(*args, **kwargs)
        staff = [r for r in INVITED_ROLES if r in STAFF_ROLES]
        choice_field(self, "role").choices = _role_choices(agency, staff)


class EndForm(forms.Form):
    confirm = forms.BooleanField(
        label="End this membership: the person loses access to the agency at once",
        error_messages={"required": "Tick the box to confirm: the person loses access at once."},
    )
    reason = forms.CharField(
        required=False,
        max_length=500,
        label="Reason",
        help_text="Optional: kept in the audit trail (for example: left the department).",
    )


# -- enrolment ------------------------------------------------------------------------------


def split_codes(text: str) -> list[str]:
    return [c for c in re.split(r"[\s,;]+", text.strip().upper()) if c]


class EnrolmentForm(forms.Form):
    """What an operator or a hauler tells the agency when asking for an account."""

    kind = forms.ChoiceField(
        label="You are", choices=ENROLMENT_KINDS, widget=forms.RadioSelect, initial="operator"
    )
    business_name = forms.CharField(max_length=200, label="Business name")
    contact_name = forms.CharField(max_length=200, label="Your name")
    email = forms.EmailField(label="Email", help_text="The sign-in link is sent here.")
    phone = forms.CharField(max_length=40, label="Phone")
    mailing_address = forms.CharField(
        label="Mailing address", widget=forms.Textarea(attrs={"rows": 3})
    )
    establishments = forms.CharField(
        required=False,
        label="Establishments you run",
        help_text="For an FSE operator: each restaurant or kitchen's name and street address.",
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    establishment_codes = forms.CharField(
        required=False,
        max_length=400,
        label="Establishment numbers",
        help_text="Optional: the number the agency gives each establishment, as on your "
        "permit or a letter, separated by commas.",
    )
    service_area = forms.CharField(
        required=False,
        label="Service area",
        help_text="For a hauler: the cities or areas you pump out in.",
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    licence_number = forms.CharField(
        required=False, max_length=60, label="Hauler licence number", help_text="For a hauler."
    )
    licence_expires_on = forms.DateField(
        required=False,
        label="Licence expiry date",
        widget=DateInput,
        help_text="For a hauler.",
        error_messages={"invalid": "Give the licence expiry date as a real date (YYYY-MM-DD)."},
    )

    def request_fields(self) -> dict:
        data = dict(self.cleaned_data)
        data["establishment_codes"] = split_codes(data["establishment_codes"])
        return data


class CodesField(forms.CharField):
    """Establishment codes of the agency, separated by commas; each must be one."""

    def __init__(self, **kwargs):
        super().__init__(required=False, max_length=1000, **kwargs)
        self.agency: Agency | None = None

    def clean(self, value):
        codes = split_codes(super().clean(value) or "")
        found = {
            f.code.upper(): f
            for f in FoodServiceEstablishment.objects.filter(agency=self.agency, code__in=codes)
        }
        unknown = [c for c in codes if c not in found]
        if unknown:
            raise forms.ValidationError(f"No establishment has the number {', '.join(unknown)}.")
        return [found[c] for c in dict.fromkeys(codes)]


class OperatorApprovalForm(forms.Form):
    operator = LookupField(
        "operator",
        required=False,
        label="Operator on record",
        help_text="Type part of its name or address and pick it; leave empty to register a new "
        "operator.",
    )
    establishments = CodesField(
        label="Establishments it runs",
        help_text="Their numbers, separated by commas; the operator reaches these in the portal.",
    )
    change_on = forms.DateField(
        required=False,
        label="Took over on",
        widget=DateInput,
        help_text="Only if the operator does not run an establishment yet: the change of "
        "operator is recorded from this date, and the permit in force ends unless the "
        "ordinance keeps it (a permit is not transferable to a new operator).",
    )

    register = forms.BooleanField(
        required=False,
        label="Register this establishment",
        help_text="A new business's establishment, not on record yet: it is registered as run "
        "by the operator, with the number below, in the same approval.",
    )
    new_code = forms.CharField(
        required=False,
        max_length=40,
        label="Its establishment number",
        help_text="The agency's next number, made by its rule; change it if the agency uses "
        "another.",
    )
    new_name = forms.CharField(required=False, max_length=200, label="Its name")
    new_address = forms.CharField(required=False, max_length=200, label="Its street address")
    new_opened_on = forms.DateField(required=False, label="Opened on", widget=DateInput)

    def __init__(self, *args, agency: Agency, business_name: str, **kwargs):
        super().__init__(*args, **kwargs)
        model_choice_field(self, "operator").queryset = Operator.objects.filter(
            agency=agency
        ).order_by("name")
        self.fields["operator"].help_text = (
            "Type part of its name or address and pick it; leave empty to register a new "
            f"operator: {business_name}."
        )
        cast(CodesField, self.fields["establishments"]).agency = agency

    def clean(self):
        """The new establishment's fields, when it is registered, as the service's `register`;
        each is required then."""
        super().clean()
        data = self.cleaned_data
        new = {k: data.pop(f"new_{k}", None) for k in ("code", "name", "address", "opened_on")}
        if not data.pop("register", False):
            data["register"] = None
            return data
        for key, value in new.items():
            if value in (None, ""):
                label = str(self.fields[f"new_{key}"].label).lower()
                self.add_error(f"new_{key}", f"Give {label} to register the establishment.")
        data["register"] = new
        return data


class HaulerApprovalForm(forms.Form):
    hauler = LookupField("hauler", required=False, label="Hauler on record")
    hauler_code = forms.CharField(
        required=False,
        max_length=40,
        label="Code of the new hauler",
        help_text="When registering a new hauler: the agency's code for it.",
    )
    customers = CodesField(
        label="Customers",
        help_text="Optional: numbers of establishments whose service contract with this hauler "
        "starts; the hauler reaches its customers in the portal.",
    )
    contracts_since = forms.DateField(required=False, label="Contracts start on", widget=DateInput)

    def __init__(self, *args, agency: Agency, business_name: str, **kwargs):
        super().__init__(*args, **kwargs)
        model_choice_field(self, "hauler").queryset = Hauler.objects.filter(agency=agency).order_by(
            "name"
        )
        self.fields["hauler"].help_text = (
            f"Type part of its name or code and pick it; leave empty to register a new hauler: "
            f"{business_name}."
        )
        cast(CodesField, self.fields["customers"]).agency = agency


class RejectionForm(forms.Form):
    reason = forms.CharField(
        label="Reason",
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="Emailed to whoever asked.",
        error_messages={"required": "Say why the request is rejected: the email tells them."},
    )
