from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.registry.models import FoodServiceEstablishment, Operator, Parcel
from fogkeeper.registry.services import establishment_register
from tests.audit.people import alice, events
from tests.records import make_agency

pytestmark = pytest.mark.django_db


def register(agency, **kw):
    fields = {
        "agency": agency,
        "code": "FSE-1",
        "name": "Pier Taqueria",
        "address": "101 Avenida Del Mar, Ste 4",
        "opened_on": date(2020, 5, 1),
        "operator": "Pier Foods LLC",
    }
    return establishment_register(**{**fields, **kw})


def test_it_registers_the_establishment_with_its_first_operator():
    fse = register(make_agency())
    tenure = fse.current_tenure()
    assert tenure.operator.name == "Pier Foods LLC"
    assert tenure.since == date(2020, 5, 1)
    assert fse.normalised_address == "101 avenida del mar"


def test_it_writes_audit_rows_naming_the_actor():
    fse = register(make_agency(), actor=alice())
    assert [e.action for e in events()] == [
        "establishment.register",
        "operator.register",
        "tenure.open",
    ]
    first = events()[0]
    assert first.actor.username == "alice"
    assert first.object_id == str(fse.pk)
    assert first.after["code"] == "FSE-1" and first.before is None


def test_it_takes_an_existing_operator_of_the_agency():
    agency = make_agency()
    op = Operator.objects.create(agency=agency, name="Harbor Group")
    fse = register(agency, operator=op, operator_since=date(2021, 1, 1))
    assert fse.current_tenure().operator == op
    assert fse.current_tenure().since == date(2021, 1, 1)


def test_it_refuses_a_code_already_used_in_the_agency():
    agency = make_agency()
    register(agency)
    with pytest.raises(ValidationError) as e:
        register(agency, name="Another")
    assert "code" in e.value.message_dict
    assert FoodServiceEstablishment.objects.count() == 1
    assert Operator.objects.count() == 1


def test_it_refuses_an_operator_of_another_agency_and_changes_nothing():
    town = make_agency("town-10-02")
    stranger = Operator.objects.create(agency=town, name="Desert Foods")
    with pytest.raises(ValidationError) as e:
        register(make_agency(), operator=stranger)
    assert "another agency" in e.value.message_dict["operator"][0]
    assert not FoodServiceEstablishment.objects.exists()
    assert events() == []


def test_it_refuses_a_parcel_of_another_agency():
    town = make_agency("town-10-02")
    parcel = Parcel.objects.create(agency=town, apn="123-456", address="1 Main St")
    with pytest.raises(ValidationError) as e:
        register(make_agency(), parcel=parcel)
    assert list(e.value.message_dict) == ["parcel"]


def test_it_refuses_an_operator_before_the_opening():
    with pytest.raises(ValidationError) as e:
        register(make_agency(), operator_since=date(2020, 4, 30))
    assert e.value.message_dict["operator_since"] == [
        "2020-04-30 is before the opening (2020-05-01)."
    ]


def test_it_refuses_a_blank_name_for_a_new_operator():
    with pytest.raises(ValidationError) as e:
        register(make_agency(), operator="  ")
    assert "operator" in e.value.message_dict
    assert not Operator.objects.exists()
