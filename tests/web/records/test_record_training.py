import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.training.models import Attendance, Employee, Training
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/establishments/FSE-0042/record/training/?as_of=2025-06-30"


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def test_it_renders_the_form_with_labels(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    for label in ("Training number", "Date of the training", "Topic", "Trainer"):
        assert f">{label}:</label>" in html
    assert "Signed the attendance log" in html and "Ana Ruiz" in html


def test_it_records_attendance_with_signatures_and_the_page_shows_the_training(client, agencies):
    alice = make_user("alice", agencies[0])
    client.force_login(alice)
    ana = Employee.objects.get(name="Ana Ruiz")
    data = {"code": "T-8", "date": "2025-06-10", "attendees": [ana.pk]}
    response = client.post(URL, data, follow=True)
    attendance = Attendance.objects.get(training__code="T-8")
    assert attendance.employee == ana and attendance.signed is False
    assert AuditEvent.objects.filter(action="training.record", actor=alice).exists()
    html = response.content.decode()
    assert "Kitchen BMPs and FOG control" in html and "Training T-8" not in html


def test_it_shows_the_services_message_for_an_employee_who_had_left(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    luis = Employee.objects.get(name="Luis Soto")
    data = {"code": "T-8", "date": "2025-06-10", "attendees": [luis.pk], "signed": [luis.pk]}
    response = client.post(URL, data)
    assert response.status_code == 400
    assert "was not employed on 2025-06-10" in response.content.decode()
    assert not Training.objects.filter(code="T-8").exists()


def test_it_answers_404_for_another_agencys_establishment(client, agencies):
    sc, town = agencies
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("alice", sc))
    assert client.get("/establishments/T-1/record/training/").status_code == 404


def test_it_forbids_an_auditor(client, agencies):
    client.force_login(make_user("audrey", agencies[0], role="auditor"))
    assert client.get(URL).status_code == 403
