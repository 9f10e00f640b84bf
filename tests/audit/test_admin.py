import pytest
from django.urls import reverse

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.services import operator_register
from tests.records import make_agency

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    operator_register(agency=make_agency(), name="Harbor Group")
    return AuditEvent.objects.get(action="operator.register")


def test_it_lists_and_searches_the_audit_trail(admin_client, event):
    url = reverse("admin:audit_auditevent_changelist")
    response = admin_client.get(url, {"q": "operator"})
    assert response.status_code == 200
    assert "operator.register" in response.content.decode()


def test_it_shows_an_event_read_only(admin_client, event):
    url = reverse("admin:audit_auditevent_change", args=[event.pk])
    response = admin_client.get(url)
    assert response.status_code == 200
    assert 'name="action"' not in response.content.decode()


def test_it_adds_changes_and_deletes_no_event(admin_client, event):
    assert admin_client.get(reverse("admin:audit_auditevent_add")).status_code == 403
    url = reverse("admin:audit_auditevent_delete", args=[event.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert AuditEvent.objects.filter(pk=event.pk).exists()
