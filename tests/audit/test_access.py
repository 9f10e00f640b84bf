"""Every change of who may do what is an audit row: memberships, accounts, tokens, groups."""

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.urls import reverse
from rest_framework.authtoken.models import Token

from fogkeeper.web.models import Membership
from fogkeeper.web.people.services import membership_role_change
from tests.audit.people import events
from tests.records import make_agency

pytestmark = pytest.mark.django_db


@pytest.fixture
def clerk():
    user = User.objects.create_user("carol", email="carol@example.org", password="x" * 20)
    return Membership.objects.create(user=user, agency=make_agency(), role="clerk")


def _membership_form(m: Membership, **changes) -> dict:
    return {
        "user": m.user_id,
        "agency": m.agency_id,
        "role": m.role,
        "operator": "",
        "hauler": "",
        "owner": "",
        **changes,
    }


def _user_form(user: User, **changes) -> dict:
    data = {
        "username": user.username,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "is_active": "on",
        "date_joined_0": "2024-01-02",
        "date_joined_1": "09:00:00",
    }
    data.update(changes)
    return {k: v for k, v in data.items() if v is not False}


def test_it_audits_a_role_changed_in_the_admin(admin_client, admin_user, clerk):
    url = reverse("admin:web_membership_change", args=[clerk.pk])
    response = admin_client.post(url, _membership_form(clerk, role="manager"))
    assert response.status_code == 302
    (event,) = events("membership.role_change")
    assert (event.actor, event.agency, event.object_id) == (admin_user, clerk.agency, str(clerk.pk))
    assert (event.before["role"], event.after["role"]) == ("clerk", "manager")
    assert event.after["username"] == "carol"


def test_it_audits_a_membership_deleted_in_the_admin(admin_client, admin_user, clerk):
    url = reverse("admin:web_membership_delete", args=[clerk.pk])
    admin_client.post(url, {"post": "yes"})
    (event,) = events("membership.end")
    assert (event.actor, event.before["role"], event.after) == (admin_user, "clerk", None)
    assert not Membership.objects.exists()


def test_it_audits_a_membership_made_in_the_shell_as_by_the_system(clerk):
    (event,) = events("membership.create")
    assert (event.actor, event.after["role"], event.agency) == (None, "clerk", clerk.agency)


def test_it_writes_one_row_for_a_role_changed_on_the_members_pages(admin_user, clerk):
    membership_role_change(membership=clerk, role="inspector", actor=admin_user)
    (event,) = events("membership.role_change")
    memberships = [e.action for e in events() if e.object_type == "web.membership"]
    assert memberships == ["membership.create", "membership.role_change"]
    assert event.actor == admin_user


def test_it_audits_a_user_made_superuser_in_the_admin(admin_client, admin_user, clerk):
    url = reverse("admin:auth_user_change", args=[clerk.user_id])
    response = admin_client.post(url, _user_form(clerk.user, is_superuser="on"))
    assert response.status_code == 302
    (event,) = events("user.change")
    assert (event.actor, event.object_id) == (admin_user, str(clerk.user_id))
    assert (event.before["is_superuser"], event.after["is_superuser"]) == (False, True)


def test_it_records_a_password_changed_never_its_hash(admin_client, clerk):
    url = reverse("admin:auth_user_password_change", args=[clerk.user_id])
    words = "a new long passphrase"
    admin_client.post(url, {"password1": words, "password2": words})
    (event,) = events("user.password_change")
    clerk.user.refresh_from_db()
    assert event.after["password"] == "changed"
    assert clerk.user.password not in str(event.before) + str(event.after)


def test_it_audits_a_token_issued_and_revoked(admin_client, admin_user, clerk):
    token = Token.objects.create(user=clerk.user)
    admin_client.post(reverse("admin:api_apitoken_delete", args=[clerk.user_id]), {"post": "yes"})
    issued, revoked = events("api_token.issue") + events("api_token.revoke")
    assert (issued.actor, issued.object_id, revoked.actor) == (None, str(clerk.user_id), admin_user)
    assert token.key not in str(issued.after) + str(revoked.before)
    assert not Token.objects.exists()


def test_it_audits_a_permission_given_to_a_group(admin_user):
    group = Group.objects.create(name="Reviewers")
    group.permissions.add(Permission.objects.get(codename="view_membership"))
    (event,) = events("group.permissions_change")
    assert (event.before, event.after) == (
        {"permissions": []},
        {"permissions": ["web.view_membership"]},
    )
    assert [e.action for e in events()][-2:] == ["group.create", "group.permissions_change"]


def test_it_audits_a_group_given_to_a_user_from_the_groups_side(clerk):
    group = Group.objects.create(name="Reviewers")
    group.user_set.add(clerk.user)
    (event,) = events("user.groups_change")
    assert (event.object_id, event.after) == (str(clerk.user_id), {"groups": ["Reviewers"]})


def test_it_writes_no_row_for_a_sign_in(client, clerk):
    before = len(events())
    assert client.login(username="carol", password="x" * 20)
    assert len(events()) == before


def test_it_writes_no_row_for_a_password_hashed_anew_at_sign_in(clerk):
    before = len(events())
    clerk.user.set_password("x" * 20)  # what a stronger hasher does when the person signs in
    clerk.user.save(update_fields=["password"])
    assert len(events()) == before
