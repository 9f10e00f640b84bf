import pytest
from django.urls import reverse

from fogkeeper.audit.models import AuditEvent
from fogkeeper.incidents.models import Incident
from tests.records import make_agency, make_establishment, make_incident

pytestmark = pytest.mark.django_db


def test_it_lists_and_searches_incidents(admin_client):
    make_incident(make_establishment(make_agency()), "SSO-1", "2025-02-03", address="1 Main St")
    url = reverse("admin:incidents_incident_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "main"}).status_code == 200


def test_it_audits_an_incident_changed_in_the_admin(admin_client):
    incident = make_incident(make_establishment(make_agency()), "SSO-1", "2025-02-03")
    url = reverse("admin:incidents_incident_change", args=[incident.pk])
    form = admin_client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(agency=incident.agency_id, establishment=incident.establishment_id)
    data.update(date="2025-02-03", address="9 Calle Real", source_record="null")
    assert admin_client.post(url, data).status_code == 302
    (event,) = AuditEvent.objects.filter(action="incident.change")
    assert (event.before["address"], event.after["normalised_address"]) == ("", "9 calle real")
    assert Incident.objects.get().normalised_address == "9 calle real"


def test_it_saves_an_incident_west_of_greenwich(admin_client):
    incident = make_incident(make_establishment(make_agency()), "SSO-1", "2025-02-03")
    url = reverse("admin:incidents_incident_change", args=[incident.pk])
    form = admin_client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None}
    data.update(agency=incident.agency_id, establishment=incident.establishment_id)
    data.update(date="2025-02-03", source_record="null", latitude="33.4", longitude="-117.6")
    assert admin_client.post(url, data).status_code == 302
    assert str(Incident.objects.get().longitude) == "-117.600000"
