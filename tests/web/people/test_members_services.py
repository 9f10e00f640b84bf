"""The members' services: inviting a person (a new account or an existing one), giving a
property owner an account, changing a role and ending a membership, each with its audit row,
and the refusals that change nothing."""

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import PropertyOwner
from fogkeeper.web.models import Membership
from fogkeeper.web.people.services import (
    membership_end,
    membership_invite,
    membership_link_owner,
    membership_role_change,
)
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db
SITE = "https://fog.example"


@pytest.fixture
def world():
    sc, town = two_agencies()
    return sc, town, make_user("mona", sc, role="manager")


def counts() -> tuple[int, int, int]:
    return Membership.objects.count(), User.objects.count(), AuditEvent.objects.count()


def invite(agency, actor, **changes):
    data = {"name": "Ines Park", "email": "Ines@City.example", "role": "inspector", **changes}
    return membership_invite(agency=agency, actor=actor, site=SITE, **data)


def refused(call, **kwargs) -> dict:
    before = counts()
    with pytest.raises(ValidationError) as e:
        call(**kwargs)
    assert counts() == before
    return e.value.message_dict


def test_it_creates_an_account_with_no_password_and_emails_the_link(
    world, django_capture_on_commit_callbacks
):
    sc, _, mona = world
    earlier = list(AuditEvent.objects.values_list("pk", flat=True))  # mona's own membership
    with django_capture_on_commit_callbacks(execute=True):
        m = invite(sc, mona)
    assert (m.user.username, m.user.email, m.role) == (
        "ines@city.example",
        "ines@city.example",
        "inspector",
    )
    assert not m.user.has_usable_password()
    assert [msg.to for msg in mail.outbox] == [["ines@city.example"]]
    assert f"{SITE}/accounts/reset/" in mail.outbox[0].body
    assert "Authorized Inspector" in mail.outbox[0].body
    rows = AuditEvent.objects.exclude(pk__in=earlier).order_by("pk")
    actions = list(rows.values_list("action", "actor", "agency"))
    assert actions == [("user.create", mona.pk, sc.pk), ("membership.create", mona.pk, sc.pk)]


def test_it_adds_the_agency_to_an_existing_account_of_the_same_email(world):
    sc, town, mona = world
    ines = User.objects.create_user("ines", email="ines@city.example", password="x" * 12)
    Membership.objects.create(user=ines, agency=town, role="clerk")
    m = invite(sc, mona)
    assert m.user == ines and User.objects.filter(email="ines@city.example").count() == 1
    assert not AuditEvent.objects.filter(action="user.create").exists()


def test_it_refuses_a_second_membership_of_the_same_person_in_the_agency(world):
    sc, _, mona = world
    invite(sc, mona)
    errors = refused(invite, agency=sc, actor=mona, role="clerk")
    assert "already acts for City of San Clemente as Authorized Inspector" in errors["email"][0]


def test_it_refuses_a_missing_name_a_bad_email_and_an_unknown_role(world):
    sc, _, mona = world
    errors = refused(invite, agency=sc, actor=mona, name=" ", email="not-an-email", role="boss")
    assert errors["name"] == ["Give the person's name."]
    assert errors["email"] == ["not-an-email is not an email address."]
    assert errors["role"][0].startswith("Pick one of the roles: Utilities Manager")


def test_it_refuses_an_operators_role_which_enrolment_gives(world):
    sc, _, mona = world
    assert "role" in refused(invite, agency=sc, actor=mona, role="operator")


def test_it_gives_a_property_owner_an_account_reaching_its_parcels(world):
    sc, _, mona = world
    owner = PropertyOwner.objects.create(agency=sc, name="Dana Point LLC", email="d@dp.example")
    m = membership_link_owner(owner=owner, actor=mona, site=SITE)
    assert (m.role, m.owner, m.user.email, m.user.first_name) == (
        "owner",
        owner,
        "d@dp.example",
        "Dana Point LLC",
    )


def test_it_refuses_an_owner_account_without_its_owner_or_with_another_agencys(world):
    sc, town, mona = world
    theirs = PropertyOwner.objects.create(agency=town, name="Town Holdings")
    assert "owner" in refused(invite, agency=sc, actor=mona, role="owner")
    errors = refused(invite, agency=sc, actor=mona, role="owner", owner=theirs)
    assert "belongs to another agency" in errors["owner"][0]


def test_a_role_change_is_audited_with_before_and_after(world):
    sc, _, mona = world
    carl = make_user("carl", sc, role="clerk").memberships.get()
    membership_role_change(membership=carl, role="auditor", actor=mona)
    assert Membership.objects.get(pk=carl.pk).role == "auditor"
    event = AuditEvent.objects.get(action="membership.role_change")
    assert (event.before["role"], event.after["role"], event.actor) == ("clerk", "auditor", mona)


def test_the_last_manager_may_not_demote_themselves(world):
    sc, _, mona = world
    own = mona.memberships.get()
    errors = refused(membership_role_change, membership=own, role="inspector", actor=mona)
    assert errors["role"][0].startswith("mona is City of San Clemente's only Utilities Manager")
    assert Membership.objects.get(pk=own.pk).role == "manager"


def test_a_manager_may_step_down_when_another_manages(world):
    sc, _, mona = world
    make_user("max", sc, role="manager")
    own = mona.memberships.get()
    assert membership_role_change(membership=own, role="inspector", actor=mona).role == "inspector"


def test_it_refuses_the_same_role_and_a_staff_role_for_an_owners_account(world):
    sc, _, mona = world
    carl = make_user("carl", sc, role="clerk").memberships.get()
    assert (
        "already is Clerk"
        in refused(membership_role_change, membership=carl, role="clerk", actor=mona)["role"][0]
    )
    owner = PropertyOwner.objects.create(agency=sc, name="Dana Point LLC")
    m = membership_link_owner(owner=owner, email="d@dp.example", actor=mona, site=SITE)
    assert (
        "invite the person as staff"
        in refused(membership_role_change, membership=m, role="auditor", actor=mona)["role"][0]
    )


def test_ending_a_membership_deletes_it_and_the_audit_row_keeps_whose_it_was(world):
    sc, town, mona = world
    carl = make_user("carl", sc, town, role="clerk")
    membership_end(membership=carl.memberships.get(agency=sc), actor=mona, reason="left")
    assert list(carl.memberships.values_list("agency", flat=True)) == [town.pk]
    event = AuditEvent.objects.get(action="membership.end")
    assert (event.before["username"], event.before["role"], event.after) == ("carl", "clerk", None)
    assert (event.reason, event.agency, event.actor) == ("left", sc, mona)


def test_the_last_manager_may_not_end_their_own_membership(world):
    _, _, mona = world
    errors = refused(membership_end, membership=mona.memberships.get(), actor=mona)
    assert "only Utilities Manager" in errors["membership"][0]
