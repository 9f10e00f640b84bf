"""The agency's people in a real browser: the manager invites an inspector, who follows the
emailed link, sets a password, signs in and lands on the field list; the manager then changes
a clerk to auditor and ends a membership."""

import re

import pytest
from django.core import mail
from playwright.sync_api import expect

from fogkeeper.audit.models import AuditEvent
from fogkeeper.web.models import Membership
from tests.compliance.records import make_pier_taqueria
from tests.web.people import make_user, two_agencies

from .test_enrolment import label, look, sign_out

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def san_clemente(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    sc, _ = two_agencies()
    make_pier_taqueria(sc)
    maria = make_user("maria", sc, role="manager")
    maria.first_name, maria.last_name, maria.email = "Maria", "Lopez", "maria@city.example"
    maria.save()
    make_user("carl", sc, role="clerk")
    make_user("otto", sc, role="auditor")
    return sc


def test_a_manager_invites_an_inspector_who_sets_a_password_and_lands_on_the_field_list(
    page, live_server, sign_in, screenshot, san_clemente
):
    sign_in(page, "maria")
    page.get_by_role("link", name="People").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("People")
    expect(page.get_by_role("row", name=re.compile("Maria Lopez"))).to_contain_text(
        "Utilities Manager"
    )
    look(page, screenshot, "members")
    page.get_by_role("link", name="Invite a person").click()
    label(page, "Name").fill("Ines Park")
    label(page, "Email").fill("ines@city.example")
    label(page, "Role").select_option(label="Authorized Inspector")
    look(page, screenshot, "member-invite")
    page.get_by_role("button", name="Send the invitation").click()
    expect(page.get_by_role("status")).to_contain_text(
        "Ines Park now acts for City of San Clemente as Authorized Inspector"
    )
    expect(page.get_by_role("heading", level=1)).to_have_text("Ines Park")
    look(page, screenshot, "member")
    sign_out(page)

    link = re.search(r"https?://\S+/accounts/reset/\S+", mail.outbox[-1].body).group(0)
    page.goto(link)
    label(page, "New password").fill("ines checks traps 2026")
    label(page, "New password confirmation").fill("ines checks traps 2026")
    page.get_by_role("button", name="Set the password").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Password set")
    page.get_by_role("link", name="Sign in").last.click()
    page.get_by_label("Username").fill("ines@city.example")
    page.get_by_label("Password").fill("ines checks traps 2026")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Inspections in the field")


def test_a_manager_changes_a_clerk_to_auditor_and_ends_a_membership(
    page, live_server, sign_in, screenshot, san_clemente
):
    sign_in(page, "maria")
    page.goto(f"{live_server.url}/members/")
    page.get_by_role("link", name="carl").click()
    label(page, "New role").select_option("auditor")
    page.get_by_role("button", name="Change the role").click()
    expect(page.get_by_role("status")).to_contain_text("carl is now Auditor")
    expect(page.locator("#history")).to_contain_text(
        "Role changed from Clerk or hearing officer to Auditor"
    )
    assert Membership.objects.get(user__username="carl").role == "auditor"

    page.goto(f"{live_server.url}/members/")
    page.get_by_label("Role", exact=True).select_option("auditor")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator("#members tbody tr")).to_have_count(2)
    page.get_by_role("link", name="otto").click()
    page.get_by_text("End this membership", exact=False).click()
    label(page, "Reason").fill("left the department")
    page.get_by_role("button", name="End the membership").click()
    expect(page.get_by_role("status")).to_contain_text("otto no longer acts for City of San")
    expect(page.locator("#ended")).to_contain_text("left the department")
    look(page, screenshot, "members-ended")
    assert not Membership.objects.filter(user__username="otto").exists()
    assert AuditEvent.objects.get(action="membership.end").before["role"] == "auditor"
