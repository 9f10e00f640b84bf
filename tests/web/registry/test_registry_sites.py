"""The registry pages around an establishment: register, edit, close, reopen, changes of
operation, operators, parcels and owners, segments and laterals."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import (
    FoodServiceEstablishment,
    Lateral,
    OperationChange,
    Operator,
    Parcel,
    PropertyOwner,
    SewerSegment,
)
from tests.records import make_establishment, make_permit
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

AS_OF = "?as_of=2026-12-01"
NEW = "/registry/establishments/new/" + AS_OF


@pytest.fixture
def world():
    sc, town = two_agencies()
    make_establishment(sc, code="FSE-1")
    make_establishment(town, code="T-1", name="Town Diner", operator="Diner LLC")
    return sc, town


@pytest.fixture
def manager(client, world):
    client.force_login(make_user("maria", world[0], role="manager"))
    return client


def counts() -> list[int]:
    models = (FoodServiceEstablishment, Operator, Parcel, PropertyOwner, SewerSegment, Lateral)
    return [m.objects.count() for m in (*models, OperationChange, AuditEvent)]


def register_data(**kw) -> dict:
    data = {
        "code": "FSE-9",
        "name": "Dana Deli",
        "address": "1 Main St",
        "category": "fse",
        "opened_on": "2026-01-05",
        "new_operator": "Deli Co",
    }
    return {**data, **kw}


def test_it_registers_an_establishment_with_a_new_operator(manager):
    response = manager.post(NEW, register_data(category=""))
    assert response.status_code == 400  # a category is required
    response = manager.post(NEW, register_data(category=_category()))
    assert response.status_code == 302
    fse = FoodServiceEstablishment.objects.get(code="FSE-9")
    assert fse.current_tenure().operator.name == "Deli Co"
    assert AuditEvent.objects.filter(action="establishment.register", object_id=fse.pk).exists()


def _category() -> str:
    from fogkeeper.registry.models import Agency

    return Agency.objects.get(code="san-clemente").get_pack().default_category


def test_a_duplicate_code_is_refused_on_the_field_keeping_what_was_typed(manager):
    before = counts()
    response = manager.post(NEW, register_data(code="FSE-1", category=_category()))
    html = response.content.decode()
    assert response.status_code == 400
    assert 'id="id_code_error"' in html or "already exists" in html
    assert 'value="Dana Deli"' in html
    assert counts() == before


def test_a_future_opening_is_refused(manager):
    before = counts()
    response = manager.post(NEW, register_data(opened_on="2027-01-01", category=_category()))
    assert "2027-01-01 is in the future" in response.content.decode()
    assert counts() == before


def test_another_agencys_parcel_posted_is_the_parcels_error(manager, world):
    other = Parcel.objects.create(agency=world[1], apn="T-9", address="9 Elm")
    before = counts()
    response = manager.post(NEW, register_data(parcel=other.pk, category=_category()))
    assert response.status_code == 400
    assert "That parcel is not one of this agency&#x27;s parcels." in response.content.decode()
    assert counts() == before


def test_it_asks_for_an_operator(manager):
    response = manager.post(NEW, register_data(new_operator="", category=_category()))
    assert "Pick an operator above or name a new one." in response.content.decode()


def test_it_edits_an_establishment_and_links_its_parcel(manager, world):
    parcel = Parcel.objects.create(agency=world[0], apn="691-1", address="101 Avenida")
    data = {
        "name": "Pier Cantina",
        "address": "101 Avenida Del Mar",
        "category": _category(),
        "opened_on": "2005-01-01",
        "parcel": parcel.pk,
        "on_public_sewer": "on",
    }
    response = manager.post("/establishments/FSE-1/edit/" + AS_OF, data)
    assert response.status_code == 302
    fse = FoodServiceEstablishment.objects.get(code="FSE-1")
    assert (fse.name, fse.parcel) == ("Pier Cantina", parcel)
    assert AuditEvent.objects.get(action="establishment.update").before["name"] == "Pier Taqueria"


def test_it_closes_then_reopens(manager):
    response = manager.post("/establishments/FSE-1/close/" + AS_OF, {"closed_on": "2026-11-01"})
    assert response.status_code == 302
    assert str(FoodServiceEstablishment.objects.get(code="FSE-1").closed_on) == "2026-11-01"
    assert manager.post("/establishments/FSE-1/reopen/" + AS_OF, {}).status_code == 302
    assert FoodServiceEstablishment.objects.get(code="FSE-1").closed_on is None


def test_a_closing_in_the_future_is_refused(manager):
    before = counts()
    response = manager.post("/establishments/FSE-1/close/" + AS_OF, {"closed_on": "2026-12-02"})
    assert response.status_code == 400
    assert "is in the future" in response.content.decode()
    assert counts() == before


def test_reopening_an_open_establishment_is_refused(manager):
    response = manager.post("/establishments/FSE-1/reopen/" + AS_OF, {})
    assert response.status_code == 400
    assert "is not closed" in response.content.decode()


def test_the_town_change_form_cites_the_notice_its_ordinance_requires(client, world):
    client.force_login(make_user("charlie", world[1], role="inspector"))
    html = client.get("/establishments/T-1/changes/new/" + AS_OF).content.decode()
    assert "at least 60 days before it" in html and "10.02.150(A)" in html


def test_a_change_with_short_notice_is_recorded_and_said_to_be_short(client, world):
    client.force_login(make_user("charlie", world[1], role="inspector"))
    data = {"kind": "remodel", "date": "2026-12-20", "notified_on": "2026-11-01"}
    response = client.post("/establishments/T-1/changes/new/" + AS_OF, data, follow=True)
    html = response.content.decode()
    assert "Notice came 49 days ahead: short of the 60 days" in html
    assert str(FoodServiceEstablishment.objects.get(code="T-1").remodeled_on) == "2026-12-20"


def test_a_change_notified_in_the_future_is_refused(client, world):
    client.force_login(make_user("charlie", world[1], role="inspector"))
    before = counts()
    data = {"kind": "remodel", "date": "2027-03-01", "notified_on": "2026-12-05"}
    response = client.post("/establishments/T-1/changes/new/" + AS_OF, data)
    assert response.status_code == 400
    assert "is in the future" in response.content.decode()
    assert counts() == before


def test_the_establishment_page_shows_its_operator_and_registry_links(manager):
    html = manager.get("/establishments/FSE-1/" + AS_OF).content.decode()
    op = Operator.objects.get(name="Pier Foods LLC")
    assert f'href="/registry/operators/{op.pk}/">Pier Foods LLC</a>' in html
    for link in ("Edit", "Close", "Record a remodel or change of operation"):
        assert f">{link}</a>" in html


def test_an_auditor_sees_no_registry_links_and_may_not_post(client, world):
    client.force_login(make_user("audrey", world[0], role="auditor"))
    html = client.get("/establishments/FSE-1/").content.decode()
    assert "Record a remodel" not in html
    assert (
        client.post("/establishments/FSE-1/close/", {"closed_on": "2026-11-01"}).status_code == 403
    )


def test_another_agencys_establishment_is_404(manager):
    assert manager.get("/establishments/T-1/edit/").status_code == 404


def test_the_operator_change_form_warns_that_the_permit_ends(manager, world):
    fse = FoodServiceEstablishment.objects.get(code="FSE-1")
    make_permit(fse, "DP-1")
    url = "/establishments/FSE-1/record/operator-change/" + AS_OF
    html = manager.get(url).content.decode()
    assert "not transferable" in html and "13.30.050(A), (E)" in html and "DP-1" in html
    response = manager.post(url, {"operator": "Bay Grill", "on": "2026-06-01"}, follow=True)
    assert "DP-1 ended on 2026-06-01" in response.content.decode()
    assert Permit.objects.get(number="DP-1").status == "ended"


def test_the_operator_list_searches_and_the_detail_shows_tenures(manager):
    html = manager.get("/registry/operators/?q=pier").content.decode()
    assert "Pier Foods LLC" in html
    assert "Deli" not in manager.get("/registry/operators/?q=zzz").content.decode()
    op = Operator.objects.get(name="Pier Foods LLC")
    html = manager.get(f"/registry/operators/{op.pk}/").content.decode()
    assert "Pier Taqueria (FSE-1)</a>, since 2005-01-01" in html


def test_it_adds_and_edits_an_operator(manager):
    response = manager.post(
        "/registry/operators/new/", {"name": "Deli Co", "phone": "949 555 0100"}
    )
    op = Operator.objects.get(name="Deli Co")
    assert response.status_code == 302
    data = {"name": "Deli Company", "phone": "not a phone", "email": "", "mailing_address": ""}
    response = manager.post(f"/registry/operators/{op.pk}/edit/", data)
    assert response.status_code == 400 and "is not a phone number" in response.content.decode()
    op.refresh_from_db()
    assert op.name == "Deli Co"


def test_another_agencys_operator_is_404(manager):
    op = Operator.objects.get(name="Diner LLC")
    assert manager.get(f"/registry/operators/{op.pk}/").status_code == 404
    assert manager.post(f"/registry/operators/{op.pk}/edit/", {"name": "X"}).status_code == 404


def test_it_adds_an_owner_and_a_parcel_it_owns(manager):
    assert manager.post("/registry/owners/new/", {"name": "Harbor Holdings"}).status_code == 302
    owner = PropertyOwner.objects.get(name="Harbor Holdings")
    data = {"apn": "691-111-01", "address": "1 Main St", "owner": owner.pk}
    assert manager.post("/registry/parcels/new/", data).status_code == 302
    html = manager.get("/registry/parcels/?q=691").content.decode()
    assert "691-111-01" in html and "Harbor Holdings" in html


def test_a_duplicate_apn_is_refused_on_its_field(manager, world):
    Parcel.objects.create(agency=world[0], apn="691-111-01", address="1 Main St")
    before = counts()
    response = manager.post("/registry/parcels/new/", {"apn": "691-111-01", "address": "2 Main"})
    assert response.status_code == 400
    assert 'value="2 Main"' in response.content.decode()
    assert counts() == before


def test_a_segment_prone_to_blockage_without_a_frequency_is_refused(manager):
    before = counts()
    data = {"code": "S-1", "prone_to_blockage": "on", "cleaning_frequency_days": ""}
    response = manager.post("/registry/segments/new/", data)
    assert response.status_code == 400
    assert "needs its cleaning frequency" in response.content.decode()
    assert counts() == before


def test_a_negative_cleaning_frequency_is_refused(manager):
    data = {"code": "S-1", "cleaning_frequency_days": "-5"}
    response = manager.post("/registry/segments/new/", data)
    assert "Must be more than 0 (got -5)." in response.content.decode()


def test_an_inspector_adds_edits_and_removes_a_lateral(client, world):
    segment = SewerSegment.objects.create(agency=world[0], code="S-7")
    client.force_login(make_user("ines", world[0]))
    data = {"segment": segment.pk, "description": "rear", "last_inspected_on": "2026-10-01"}
    assert client.post("/establishments/FSE-1/laterals/new/" + AS_OF, data).status_code == 302
    lateral = Lateral.objects.get()
    html = client.get("/establishments/FSE-1/").content.decode()
    assert ">S-7</a>: rear, last inspected 2026-10-01" in html
    data["last_inspected_on"] = "2027-01-01"
    url = f"/establishments/FSE-1/laterals/{lateral.pk}/" + AS_OF
    assert client.post(url, data).status_code == 400
    url = f"/establishments/FSE-1/laterals/{lateral.pk}/remove/" + AS_OF
    assert client.post(url, {}).status_code == 302
    assert not Lateral.objects.exists()
    assert AuditEvent.objects.filter(action="lateral.delete").exists()


def test_another_agencys_segment_posted_for_a_lateral_is_the_segments_error(client, world):
    other = SewerSegment.objects.create(agency=world[1], code="T-S1")
    client.force_login(make_user("ines", world[0]))
    response = client.post("/establishments/FSE-1/laterals/new/", {"segment": other.pk})
    assert response.status_code == 400
    assert "That sewer segment is not one of this agency&#x27;s sewer segments." in (
        response.content.decode()
    )
    assert not Lateral.objects.exists()


def test_the_registry_index_links_the_lists(manager):
    html = manager.get("/registry/").content.decode()
    for name in ("Establishments", "Operators", "Parcels", "Property owners", "Sewer segments"):
        assert f">{name}</a>" in html
