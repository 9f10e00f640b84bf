"""An operator applies for its permit or its renewal, with the fields its ordinance lists."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.permits.models import Permit, PermitApplication
from fogkeeper.registry.models import Operator
from tests.records import make_permit

from .conftest import PIER, member

pytestmark = pytest.mark.django_db

URL = f"{PIER}permit-application/"
TOWN_URL = "/portal/operator/T-1/permit-application/"
SC_FIELDS = {
    "kind": "renewal",
    "applicant_name": "Harbor Eats Inc",
    "applicant_address": "9 Wharf Rd, San Clemente",
    "emergency_contact_name": "Rosa Diaz",
    "emergency_contact_phone": "949-555-0101",
}
TOWN_APPLICANT = {
    "business_name": "Desert Diner",
    "applicant_name": "Mesa Foods",
    "applicant_address": "1 Mesa Dr",
}
TOWN_DETAILS = {
    "wastewater_volume_gpd": "300",
    "wastewater_type": "Kitchen",
    "food_preparation_hours": "6-14",
    "cleaning_hours": "14-16",
    "food_preparation": "Diner",
    "meals_per_day": "150",
    "cleanup_procedures": "Scrape, then wash",
    "dining_capacity": "40",
    "employee_count": "8",
    "kitchen_size_sq_ft": "400",
    "appliances_and_fixtures": "Fryer, 3-sink",
}


@pytest.fixture
def expiring(world, today):
    """Harbor Eats' Discharge Permit expires on 2025-08-01: its renewal was due by 2025-06-02."""
    permit = make_permit(
        world.pier,
        "FSE-0042-P3",
        issued_on="2025-02-01",
        expires_on="2025-08-01",
        holder="Harbor Eats Inc",
    )
    sweep_establishment(world.pier, as_of=today)
    return permit


@pytest.fixture
def as_tom(client, world):
    """tom acts for Mesa Foods, the operator of the Town's Desert Diner (T-1)."""
    operator = Operator.objects.get(agency=world.town, name="Mesa Foods")
    client.force_login(member("tom", world.town, "operator", operator=operator))
    return client


def test_it_files_the_renewal_and_closes_the_late_renewal_finding(as_olive, olive, expiring):
    late = Finding.objects.get(rule="permit.renewal_late")
    assert late.open
    response = as_olive.post(URL, SC_FIELDS, follow=True)
    application = PermitApplication.objects.get()
    assert application.renewal_of == expiring
    assert application.emergency_contact_phone == "949-555-0101"
    assert Permit.objects.get(pk=expiring.pk).renewal_applied_on.isoformat() == "2025-06-30"
    late.refresh_from_db()
    assert not late.open
    assert AuditEvent.objects.get(action="application.submit").actor == olive
    assert "Your Discharge Permit renewal application was filed." in response.content.decode()


def test_it_prefills_the_form_from_the_registry(as_olive, expiring):
    html = as_olive.get(URL).content.decode()
    assert 'value="Harbor Eats Inc"' in html
    assert "The renewal of Discharge Permit FSE-0042-P3" in html


def test_it_asks_san_clemente_for_the_emergency_contact_not_a_business_name(as_olive, expiring):
    html = as_olive.get(URL).content.decode()
    assert "Emergency contact" in html and "Required (13.30.080(H)(1))." in html
    assert "Business name" not in html


def test_it_refuses_an_application_without_the_emergency_contact(as_olive, expiring):
    response = as_olive.post(URL, {**SC_FIELDS, "emergency_contact_phone": ""})
    assert response.status_code == 400
    assert "Required (13.30.080(H)(1))." in response.content.decode()
    assert not PermitApplication.objects.exists()
    assert Permit.objects.get(pk=expiring.pk).renewal_applied_on is None


def test_it_refuses_a_second_application_while_one_is_being_decided(as_olive, expiring):
    as_olive.post(URL, SC_FIELDS)
    response = as_olive.post(URL, SC_FIELDS)
    assert response.status_code == 400
    assert "Your application of 2025-06-30 is still being decided" in response.content.decode()
    assert PermitApplication.objects.count() == 1


def test_it_asks_the_town_for_the_details_of_10_02_050_a(as_tom):
    html = as_tom.get(TOWN_URL).content.decode()
    for label in (
        "Business name",
        "Dining room capacity (seats)",
        "Size of the kitchen (sq ft)",
        "Kitchen appliances and fixtures",
        "Building and Safety permit or documentation",
    ):
        assert label in html
    assert "Emergency contact" not in html


def test_it_files_a_complete_town_application(as_tom, world):
    data = {**TOWN_APPLICANT, **TOWN_DETAILS}
    as_tom.post(TOWN_URL, data)
    application = PermitApplication.objects.get()
    assert application.establishment == world.town_fse and application.dining_capacity == 40
    assert application.renewal_of is None


def test_it_names_every_missing_town_detail(as_tom):
    data = {**TOWN_APPLICANT, **TOWN_DETAILS, "dining_capacity": "", "cleaning_hours": ""}
    response = as_tom.post(TOWN_URL, data)
    html = response.content.decode()
    assert response.status_code == 400
    assert html.count("Required (10.02.050(A)), unless the Building and Safety permit") == 2
    assert not PermitApplication.objects.exists()


def test_it_takes_the_building_permit_in_lieu_of_the_town_details(as_tom):
    data = {**TOWN_APPLICANT, "building_permit_reference": "B&S 2024-0117"}
    as_tom.post(TOWN_URL, data)
    assert PermitApplication.objects.get().building_permit_reference == "B&S 2024-0117"


def test_it_refuses_a_negative_capacity(as_tom):
    data = {**TOWN_APPLICANT, **TOWN_DETAILS, "dining_capacity": "-4"}
    response = as_tom.post(TOWN_URL, data)
    assert "Ensure this value is greater than or equal to 0." in response.content.decode()
    assert not PermitApplication.objects.exists()
