"""The members' pages: the agency's people, searched and filtered by role; the manager's
invitation, change of role and end of a membership; refusals that change nothing; another
agency's membership answering 404."""

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import PropertyOwner
from fogkeeper.web.models import Membership
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db
INVITE = {"name": "Ines Park", "email": "ines@city.example", "role": "inspector", "owner": ""}


@pytest.fixture
def world():
    sc, town = two_agencies()
    mona = make_user("mona", sc, role="manager")
    mona.first_name, mona.last_name, mona.email = "Mona", "Reyes", "mona@city.example"
    mona.save()
    carl = make_user("carl", sc, role="clerk")
    tess = make_user("tess", town, role="manager")
    return sc, town, mona, carl, tess


def counts() -> tuple[int, int, int]:
    return Membership.objects.count(), User.objects.count(), AuditEvent.objects.count()


def as_manager(client, world):
    client.force_login(world[2])
    return client


def test_the_list_shows_each_person_their_role_in_the_agencys_words_and_since_when(client, world):
    html = as_manager(client, world).get("/members/").content.decode()
    assert "Mona Reyes" in html and "mona@city.example" in html
    assert "Utilities Manager" in html and "Clerk" in html
    assert "The agency's staff" in html
    assert re.search(r"<td>\d{4}-\d\d-\d\d</td>", html)
    assert "tess" not in html


def test_the_list_is_searched_and_filtered_by_role(client, world):
    as_manager(client, world)
    html = client.get("/members/", {"q": "reyes"}).content.decode()
    assert "Mona Reyes" in html and "carl" not in html
    html = client.get("/members/", {"role": "clerk"}).content.decode()
    assert "carl" in html and "Mona Reyes" not in html


def test_the_list_says_what_an_owners_account_acts_for(client, world):
    sc = world[0]
    owner = PropertyOwner.objects.create(agency=sc, name="Dana Point LLC")
    Membership.objects.create(
        user=User.objects.create(username="dana"), agency=sc, role="owner", owner=owner
    )
    html = as_manager(client, world).get("/members/").content.decode()
    assert "Property owner Dana Point LLC" in html


def test_other_staff_read_the_list_but_are_offered_no_invitation(client, world):
    client.force_login(world[3])
    html = client.get("/members/").content.decode()
    assert "Mona Reyes" in html and ">People</a>" in html
    assert "Invite a person" not in html
    assert "Invite a person" in as_manager(client, world).get("/members/").content.decode()


def test_an_invitation_creates_the_membership_and_emails_the_link(
    client, world, django_capture_on_commit_callbacks
):
    as_manager(client, world)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/members/invite/", INVITE, follow=True)
    m = Membership.objects.get(user__email="ines@city.example")
    assert (m.agency, m.role) == (world[0], "inspector")
    assert "Ines Park now acts for City of San Clemente as Authorized Inspector" in (
        response.content.decode()
    )
    assert "http://testserver/accounts/reset/" in mail.outbox[0].body


def test_an_invitation_of_someone_already_a_member_is_refused_naming_the_email(client, world):
    as_manager(client, world)
    before = counts()
    response = client.post("/members/invite/", {**INVITE, "email": "mona@city.example"})
    assert response.status_code == 400
    assert "mona@city.example already acts for City of San Clemente" in response.content.decode()
    assert counts() == before


def test_an_invitation_with_a_bad_email_keeps_what_was_typed(client, world):
    as_manager(client, world)
    before = counts()
    response = client.post("/members/invite/", {**INVITE, "email": "ines at city"})
    assert response.status_code == 400
    assert 'value="Ines Park"' in response.content.decode()
    assert counts() == before


def test_the_invitation_of_a_property_owner_on_record_starts_filled_in(client, world):
    owner = PropertyOwner.objects.create(agency=world[0], name="Dana Point LLC", email="d@dp.ex")
    html = as_manager(client, world).get(f"/members/invite/?owner={owner.pk}").content.decode()
    assert 'value="Dana Point LLC"' in html and 'value="d@dp.ex"' in html
    assert re.search(r'<option value="owner" selected>', html)


def test_only_the_manager_invites(client, world):
    client.force_login(world[3])
    before = counts()
    assert client.post("/members/invite/", INVITE).status_code == 403
    assert counts() == before


def test_the_manager_changes_a_clerk_to_auditor(client, world):
    carl = world[3].memberships.get()
    response = as_manager(client, world).post(
        f"/members/{carl.pk}/role/", {"role": "auditor"}, follow=True
    )
    assert Membership.objects.get(pk=carl.pk).role == "auditor"
    html = response.content.decode()
    assert "carl is now Auditor (read only)" in html
    assert "Role changed from Clerk or hearing officer to Auditor (read only)" in html


def test_the_last_manager_demoting_themselves_is_refused_and_nothing_changes(client, world):
    own = world[2].memberships.get()
    before = counts()
    response = as_manager(client, world).post(f"/members/{own.pk}/role/", {"role": "auditor"})
    assert response.status_code == 400
    assert "Mona Reyes is City of San Clemente&#x27;s only Utilities Manager" in (
        response.content.decode()
    )
    assert counts() == before and Membership.objects.get(pk=own.pk).role == "manager"


def test_ending_needs_the_box_ticked(client, world):
    carl = world[3].memberships.get()
    before = counts()
    response = as_manager(client, world).post(f"/members/{carl.pk}/end/", {})
    assert response.status_code == 400 and "Tick the box to confirm" in response.content.decode()
    assert counts() == before


def test_an_ended_membership_ends_access_at_the_next_request(client, world):
    carl_user = world[3]
    carl = carl_user.memberships.get()
    response = as_manager(client, world).post(
        f"/members/{carl.pk}/end/", {"confirm": "on", "reason": "left the department"}, follow=True
    )
    html = response.content.decode()
    assert "carl no longer acts for City of San Clemente" in html
    assert "left the department" in html
    assert not Membership.objects.filter(pk=carl.pk).exists()
    client.force_login(carl_user)
    assert client.get("/members/").status_code == 403


def test_the_last_manager_ending_their_own_membership_is_refused(client, world):
    own = world[2].memberships.get()
    before = counts()
    response = as_manager(client, world).post(f"/members/{own.pk}/end/", {"confirm": "on"})
    assert response.status_code == 400 and "only Utilities Manager" in response.content.decode()
    assert counts() == before


def test_another_agencys_membership_answers_404_and_is_not_touched(client, world):
    tess = world[4].memberships.get()
    as_manager(client, world)
    before = counts()
    assert client.get(f"/members/{tess.pk}/").status_code == 404
    assert client.post(f"/members/{tess.pk}/role/", {"role": "clerk"}).status_code == 404
    assert client.post(f"/members/{tess.pk}/end/", {"confirm": "on"}).status_code == 404
    assert counts() == before


def test_an_inspector_reads_a_member_but_may_not_change_them(client, world):
    carl = world[3].memberships.get()
    client.force_login(make_user("ivan", world[0], role="inspector"))
    assert "Change the role" not in client.get(f"/members/{carl.pk}/").content.decode()
    assert client.post(f"/members/{carl.pk}/role/", {"role": "auditor"}).status_code == 403
    assert Membership.objects.get(pk=carl.pk).role == "clerk"
