"""Choices that search as one types (fogkeeper/web/common/lookups.py): the endpoint answers
only the agency's own records, to the roles that fill the forms offering the choice, and the
forms render the one record chosen, not whole tables, yet refuse any other in words."""

import pytest

from fogkeeper.registry.models import FoodServiceEstablishment, Hauler, Operator, Parcel
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

NEW = "/registry/establishments/new/?as_of=2026-12-01"


@pytest.fixture
def world():
    sc, town = two_agencies()
    make_establishment(sc, code="FSE-1", name="Harbor Grill", operator="Harbor Foods LLC")
    make_establishment(town, code="T-1", name="Harbor Diner", operator="Harbor Diner Inc")
    return sc, town


def signed_in(client, agency, role="manager"):
    client.force_login(make_user(role, agency, role=role))
    return client


def test_it_answers_the_agencys_own_matches_only(client, world):
    sc, town = world
    Parcel.objects.create(agency=sc, apn="123-45", address="9 Harbor Way")
    Parcel.objects.create(agency=town, apn="123-46", address="10 Harbor Way")
    signed_in(client, sc)
    operators = client.get("/lookup/operator/?q=harbor").json()["results"]
    assert [r["label"] for r in operators] == ["Harbor Foods LLC"]
    parcels = client.get("/lookup/parcel/?q=harbor way").json()["results"]
    assert [r["key"] for r in parcels] == ["123-45"]
    establishments = client.get("/lookup/establishment/?q=harbor").json()["results"]
    assert [r["key"] for r in establishments] == ["FSE-1"]


def test_it_lists_at_most_twenty(client, world):
    sc = world[0]
    Hauler.objects.bulk_create(
        Hauler(agency=sc, code=f"H-{n:02}", name=f"Pumper {n}") for n in range(30)
    )
    signed_in(client, sc)
    results = client.get("/lookup/hauler/?q=pumper").json()["results"]
    assert len(results) == 20 and results[0] == {
        "id": Hauler.objects.get(code="H-00").pk,
        "key": "H-00",
        "label": "Pumper 0 (H-00)",
    }


def test_it_is_refused_to_whoever_does_not_fill_the_forms(client, world):
    sc = world[0]
    for answer in (client.get("/lookup/operator/?q=harbor"), client.post("/lookup/operator/")):
        assert answer.status_code == 302  # to the sign-in
    signed_in(client, sc, role="clerk")
    assert client.get("/lookup/operator/?q=harbor").status_code == 403
    assert client.get("/lookup/nothing/?q=harbor").status_code == 404


def test_the_register_form_renders_the_operator_chosen_not_every_operator(client, world):
    sc = world[0]
    Operator.objects.bulk_create(Operator(agency=sc, name=f"Operator {n}") for n in range(2000))
    Parcel.objects.bulk_create(
        Parcel(agency=sc, apn=f"P-{n}", address=f"{n} Main St") for n in range(2000)
    )
    signed_in(client, sc)
    html = client.get(NEW).content.decode()
    assert "Operator 1999" not in html and "P-1999" not in html
    assert len(html) < 40_000
    assert 'data-lookup="/lookup/operator/"' in html and 'data-lookup="/lookup/parcel/"' in html


def _register(client, **data):
    form = {
        "code": "FSE-9",
        "name": "Dana Deli",
        "address": "1 Main St",
        "opened_on": "2026-01-05",
        "category": _category(),
        **data,
    }
    return client.post(NEW, form)


def _category() -> str:
    from fogkeeper.registry.models import Agency

    return Agency.objects.get(code="san-clemente").get_pack().default_category


def test_a_forged_operator_is_refused_in_words_and_nothing_is_stored(client, world):
    sc, town = world
    stranger = Operator.objects.get(agency=town, name="Harbor Diner Inc")
    signed_in(client, sc)
    before = FoodServiceEstablishment.objects.count(), Operator.objects.count()
    response = _register(client, operator=str(stranger.pk))
    assert response.status_code == 400
    html = response.content.decode()
    assert "That operator is not one of this agency&#x27;s operators." in html
    response = _register(client, operator="Harbor Diner Inc")
    assert "“Harbor Diner Inc” is not one of this agency&#x27;s operators." in (
        response.content.decode()
    )
    assert (FoodServiceEstablishment.objects.count(), Operator.objects.count()) == before


def test_an_operator_is_chosen_by_its_id_or_by_its_name_typed(client, world):
    sc = world[0]
    harbor = Operator.objects.get(agency=sc, name="Harbor Foods LLC")
    signed_in(client, sc)
    assert _register(client, operator=str(harbor.pk)).status_code == 302
    response = _register(client, code="FSE-10", operator="harbor foods llc")
    assert response.status_code == 302
    for code in ("FSE-9", "FSE-10"):
        fse = FoodServiceEstablishment.objects.get(agency=sc, code=code)
        assert fse.current_tenure().operator == harbor


def test_a_form_shows_the_record_chosen_by_its_code_and_words(client, world):
    sc = world[0]
    parcel = Parcel.objects.create(agency=sc, apn="691-111-01", address="1 Avenida Del Mar")
    Parcel.objects.create(agency=sc, apn="691-111-02", address="3 Avenida Del Mar")
    FoodServiceEstablishment.objects.filter(code="FSE-1").update(parcel=parcel)
    signed_in(client, sc)
    html = client.get("/establishments/FSE-1/edit/?as_of=2026-12-01").content.decode()
    assert 'value="691-111-01"' in html
    assert 'data-lookup-label="691-111-01, 1 Avenida Del Mar"' in html
    assert "691-111-02" not in html
