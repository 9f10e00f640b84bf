"""Forms of the members' pages. They read what is typed; web.members_services decides what is
refused."""

from __future__ import annotations

from django import forms

from fogkeeper.registry.models import Agency, PropertyOwner

from .members_services import INVITED_ROLES, role_title
from .models import STAFF_ROLES


def _role_choices(agency: Agency, roles) -> list[tuple[str, str]]:
    return [(role, role_title(agency, role)) for role in roles]


class InviteForm(forms.Form):
    """Who is invited, by email, and in what role."""

    name = forms.CharField(max_length=150, label="Name",
                           error_messages={"required": "Give the person's name."})  # fmt: skip
    email = forms.EmailField(
        label="Email",
        help_text="The link to set a password is sent here; a person who already has an "
        "account with this email gets this agency added to it.",
        error_messages={"required": "Give the email address the sign-in link is sent to."},
    )
    role = forms.ChoiceField(label="Role", choices=())
    owner = forms.ModelChoiceField(
        queryset=PropertyOwner.objects.none(),
        required=False,
        label="Property owner on record",
        help_text="Only for a property owner's account: it reaches the establishments on this "
        "owner's parcels.",
    )

    def __init__(self, *args, agency: Agency, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = _role_choices(agency, INVITED_ROLES)
        self.fields["owner"].queryset = PropertyOwner.objects.filter(agency=agency)
        self.fields["owner"].empty_label = "None (a staff member)"


class RoleForm(forms.Form):
    role = forms.ChoiceField(label="New role", choices=())

    def __init__(self, *args, agency: Agency, **kwargs):
        super().__init__(*args, **kwargs)
        staff = [r for r in INVITED_ROLES if r in STAFF_ROLES]
        self.fields["role"].choices = _role_choices(agency, staff)


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
