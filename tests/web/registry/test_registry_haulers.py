"""The hauler pages: list (searched, a page at a time), a hauler's page, registering and
editing one (the manager's), service contracts started and ended from either page."""

from datetime import date

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import Hauler, ServiceContract
from tests.compliance.records import make_pier_taqueria
from tests.records import make_establishment, make_hauler
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

H1 = "/registry/haulers/FSE-0042-H1/"


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    return sc, town


@pytest.fixture
def manager(client, agencies):
    user = make_user("mia", agencies[0], role="manager")
    client.force_login(user)
    return user


def rows():
    return Hauler.objects.count(), ServiceContract.objects.count(), AuditEvent.objects.count()


def test_the_list_searches_by_name_and_pages(client, manager, agencies):
    for i in range(30):
        make_hauler(agencies[0], f"X-{i:02}", name=f"Extra Pumping {i:02}")
    html = client.get("/registry/haulers/?q=coastal").content.decode()
    assert "Coastal Pumping" in html and "Rogue Vac" not in html
    page = client.get("/registry/haulers/?q=extra").content.decode()
    assert "Extra Pumping 24" in page and "Extra Pumping 25" not in page
    assert "Extra Pumping 25" in client.get("/registry/haulers/?q=extra&page=2").content.decode()


def test_it_registers_a_hauler_with_its_licence_expiry(client, manager):
    data = {
        "code": "H-9",
        "name": "Orange Pumping",
        "licence_number": "L-9",
        "licence_expires_on": "2027-06-30",
        "licensed": "on",
    }
    response = client.post("/registry/haulers/new/", data, follow=True)
    assert response.redirect_chain[-1][0] == "/registry/haulers/H-9/"
    assert "2027-06-30" in response.content.decode()
    assert AuditEvent.objects.filter(action="hauler.register", actor=manager).exists()


def test_a_duplicate_number_is_refused_keeping_what_was_typed(client, manager):
    before = rows()
    data = {"code": "FSE-0042-H1", "name": "Copy Pumping", "licence_number": "L-1"}
    response = client.post("/registry/haulers/new/", data)
    html = response.content.decode()
    assert (
        response.status_code == 400 and "already exists" in html and 'value="Copy Pumping"' in html
    )
    assert rows() == before


def test_it_edits_the_licence(client, manager):
    data = {
        "name": "Coastal Pumping",
        "licence_number": "L-77",
        "licence_expires_on": "2026-06-30",
        "licensed": "on",
    }
    html = client.post(f"{H1}edit/", data, follow=True).content.decode()
    assert Hauler.objects.get(code="FSE-0042-H1").licence_expires_on == date(2026, 6, 30)
    assert "expired on" in html
    assert AuditEvent.objects.get(action="hauler.update").before["licence_number"] == ""


def test_an_inspector_reads_the_hauler_but_may_not_edit_it(client, agencies):
    client.force_login(make_user("ines", agencies[0], role="inspector"))
    assert client.get(H1).status_code == 200
    assert client.post(f"{H1}edit/", {"name": "X"}).status_code == 403


def test_another_agencys_hauler_answers_404(client, manager, agencies):
    make_hauler(agencies[1], "T-H1")
    assert client.get("/registry/haulers/T-H1/").status_code == 404


def test_a_contract_started_from_the_hauler_page_lists_the_customer(client, manager):
    data = {"establishment": "FSE-0042", "since": "2026-01-01"}
    html = client.post(f"{H1}contracts/new/", data, follow=True).content.decode()
    assert "Pier Taqueria (FSE-0042)" in html and "2026-01-01" in html
    assert AuditEvent.objects.filter(action="contract.start").exists()


def test_another_agencys_establishment_is_refused_on_its_field(client, manager, agencies):
    make_establishment(agencies[1], code="T-1")
    before = rows()
    response = client.post(f"{H1}contracts/new/", {"establishment": "T-1", "since": "2026-01-01"})
    assert response.status_code == 400
    assert "No establishment of the agency has this number." in response.content.decode()
    assert rows() == before


def test_another_agencys_hauler_is_refused_from_the_establishment_page(client, manager, agencies):
    other = make_hauler(agencies[1], "T-H1")
    before = rows()
    url = "/establishments/FSE-0042/contracts/new/"
    response = client.post(url, {"hauler": str(other.pk), "since": "2026-01-01"})
    assert response.status_code == 400
    assert "That hauler is not one of this agency&#x27;s haulers." in response.content.decode()
    assert rows() == before


def test_a_contract_is_ended_from_the_establishment_page(client, manager):
    hauler = Hauler.objects.get(code="FSE-0042-H1")
    url = "/establishments/FSE-0042/contracts/new/"
    client.post(url, {"hauler": str(hauler.pk), "since": "2026-01-01"})
    contract = ServiceContract.objects.get()
    end = f"/establishments/FSE-0042/contracts/{contract.pk}/end/"
    refused = client.post(end, {"until": "2099-01-01"})
    assert refused.status_code == 400 and "in the future" in refused.content.decode()
    assert client.post(end, {"until": "2026-11-30"}).status_code == 302
    assert ServiceContract.objects.get().until == date(2026, 11, 30)


@pytest.fixture
def reach_town_manager(client, monkeypatch):
    """The manager of a pack that requires a FOG hauler certification beside the licence."""
    from pathlib import Path

    from tests.records import make_agency

    packs = Path(__file__).resolve().parents[2] / "rules" / "format_packs"
    monkeypatch.setenv("FOGKEEPER_PACKS", str(packs))
    agency = make_agency("reach-town")
    client.force_login(make_user("rita", agency, role="manager"))
    return agency


def test_a_haulers_certification_is_recorded_where_the_pack_requires_one(
    client, reach_town_manager
):
    form = client.get("/registry/haulers/new/").content.decode()
    assert "FOG hauler certification number" in form
    data = {
        "code": "H-9",
        "name": "Orange Pumping",
        "licence_number": "L-9",
        "licensed": "on",
        "certified": "on",
        "certification_number": " ",
    }
    response = client.post("/registry/haulers/new/", data)
    assert response.status_code == 400
    assert "A certified hauler needs its certification number." in response.content.decode()
    assert not Hauler.objects.filter(code="H-9").exists()
    data |= {"certification_number": "FOG-118", "certification_expires_on": "2026-03-31"}
    html = client.post("/registry/haulers/new/", data, follow=True).content.decode()
    hauler = Hauler.objects.get(code="H-9")
    assert (hauler.certification_number, str(hauler.certification_expires_on)) == (
        "FOG-118",
        "2026-03-31",
    )
    assert "<dt>FOG hauler certification</dt>" in html and "FOG-118" in html
    data |= {"certification_expires_on": "2027-03-31", "reason": "renewed"}
    client.post("/registry/haulers/H-9/edit/", data)
    hauler.refresh_from_db()
    assert str(hauler.certification_expires_on) == "2027-03-31"
    audit = AuditEvent.objects.get(action="hauler.update")
    assert audit.before["certification_expires_on"] == "2026-03-31"


def test_no_certification_is_asked_where_the_pack_requires_none(client, manager):
    assert "certification" not in client.get("/registry/haulers/new/").content.decode()
    assert "certification" not in client.get(H1).content.decode().lower()
