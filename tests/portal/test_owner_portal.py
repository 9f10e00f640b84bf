"""The property owner reads the establishments on its parcels: status, findings, schedule,
permits; nothing else, and it writes nothing (ACCESS.md)."""

import pytest

from fogkeeper.audit.models import AuditEvent

pytestmark = pytest.mark.django_db

PIER = "/portal/owner/FSE-0042/"


@pytest.fixture
def as_dora(client, owner):
    client.force_login(owner)
    return client


def test_it_lists_the_establishments_on_the_owners_parcels(as_dora):
    html = as_dora.get("/portal/owner/").content.decode()
    assert "Pier Taqueria" in html and "692-01" in html
    assert "Harbor Grill" not in html


def test_it_sends_the_owner_from_the_portal_home_to_its_portal(as_dora):
    assert as_dora.get("/portal/").url == "/portal/owner/"


def test_it_shows_status_findings_schedule_and_permits(as_dora):
    html = as_dora.get(PIER).content.decode()
    assert "Not in compliance as of 2025-06-30" in html
    assert "Permit ended by a new Operator" in html and "13.30.050(A), (E)" in html
    assert "Pump-out of GI-1" in html
    assert "FSE-0042-P1" in html and "FSE-0042-P2" in html


def test_it_shows_nothing_the_owner_may_not_read(as_dora):
    html = as_dora.get(PIER).content.decode()
    for heading in (
        "Grease control devices",
        "Pump-outs",
        "BMP trainings",
        "Inspections",
        "Letters sent to you",
        "Invoices",
    ):
        assert heading not in html
    assert "File a BMP training" not in html


def test_it_refuses_every_write(as_dora):
    rows = AuditEvent.objects.count()  # the people's memberships
    assert as_dora.post(PIER, {"status": "compliant"}).status_code == 405
    assert as_dora.post("/portal/owner/", {}).status_code == 405
    assert AuditEvent.objects.count() == rows


def test_it_keeps_the_owner_out_of_the_operators_portal(as_dora):
    assert as_dora.get("/portal/operator/FSE-0042/").status_code == 404
    assert as_dora.get("/portal/operator/FSE-0042/training/").status_code == 404


def test_it_answers_404_for_an_establishment_on_another_parcel(as_dora):
    assert as_dora.get("/portal/owner/FSE-2/").status_code == 404
    assert as_dora.get("/portal/owner/T-1/").status_code == 404


def test_it_keeps_an_operator_out_of_the_owners_portal(as_olive):
    assert as_olive.get(PIER).status_code == 404
