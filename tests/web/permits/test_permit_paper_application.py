"""Staff record a paper permit application as received: what the ordinance requires and the
paper lacks is listed on its review page; a refused entry writes nothing."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.permits.models import PermitApplication
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/establishments/FSE-0100/record/permit-application/?as_of=2026-12-01"


@pytest.fixture
def sc():
    sc, _ = two_agencies()
    make_establishment(sc, "FSE-0100", name="Harbor Grill", operator="Grill LLC")
    return sc


def test_a_paper_application_lacking_the_emergency_contact_shows_it_missing(client, sc):
    mona = make_user("mona", sc, role="manager")
    client.force_login(mona)
    data = {
        "submitted_on": "2026-11-30",
        "applicant_name": "Grill LLC",
        "applicant_address": "200 Avenida Del Mar",
    }
    response = client.post(URL, data, follow=True)
    application = PermitApplication.objects.get(establishment__code="FSE-0100")
    assert response.redirect_chain[-1][0] == f"/permits/applications/{application.pk}/"
    html = response.content.decode()
    assert "The application received on 2026-11-30 was recorded" in html
    assert "Emergency contact" in html and "13.30.080(H)(1)" in html
    assert AuditEvent.objects.filter(action="application.submit", actor=mona).count() == 1


@pytest.mark.parametrize(
    "data, field",
    [
        (
            {
                "submitted_on": "2099-01-01",
                "applicant_name": "Grill LLC",
                "applicant_address": "200 Avenida Del Mar",
            },
            "submitted_on",
        ),
        (
            {"submitted_on": "2026-11-30", "applicant_address": "200 Avenida Del Mar"},
            "applicant_name",
        ),
    ],
)
def test_a_refused_entry_names_its_field_keeps_what_was_typed_and_writes_nothing(
    client, sc, data, field
):
    client.force_login(make_user("mona", sc, role="manager"))
    before = AuditEvent.objects.count()
    response = client.post(URL, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert f'id="id_{field}_error"' in html
    assert "200 Avenida Del Mar</textarea>" in html
    assert not PermitApplication.objects.exists() and AuditEvent.objects.count() == before


@pytest.mark.parametrize("role, status", [("inspector", 403), ("clerk", 403), ("manager", 200)])
def test_it_is_the_managers_to_record(client, sc, role, status):
    client.force_login(make_user("bob", sc, role=role))
    assert client.get(URL).status_code == status
