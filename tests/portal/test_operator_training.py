"""An operator files a BMP training with attendance and signatures."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.training.models import Attendance, Employee, Training
from tests.records import make_employee

from .conftest import PIER

pytestmark = pytest.mark.django_db

URL = f"{PIER}training/"


@pytest.fixture
def rosa(world, today):
    """Hired on 2025-05-01 and not trained within the month San Clemente allows."""
    rosa = make_employee(world.pier, "E-3", "2025-05-01", name="Rosa Diaz")
    sweep_establishment(world.pier, as_of=today)
    return rosa


def new_hire_finding():
    return Finding.objects.get(rule="training.new_hire_overdue", subject="E-3")


def test_it_offers_the_establishments_employees(as_olive, rosa):
    html = as_olive.get(URL).content.decode()
    assert 'aria-label="Rosa Diaz attended"' in html
    assert 'aria-label="Ana Ruiz signed the log"' in html


def test_it_files_the_training_and_closes_the_new_hire_finding(as_olive, olive, rosa):
    ana = Employee.objects.get(name="Ana Ruiz")
    assert new_hire_finding().open
    data = {
        "date": "2025-06-20",
        "trainer": "Chef Lu",
        "attendees": [rosa.pk, ana.pk],
        "signed": [rosa.pk],
    }
    response = as_olive.post(URL, data, follow=True)
    training = Training.objects.get(date="2025-06-20")
    assert {(a.employee.name, a.signed) for a in training.attendance.all()} == {
        ("Rosa Diaz", True),
        ("Ana Ruiz", False),
    }
    finding = new_hire_finding()
    assert not finding.open and finding.resolved_on.isoformat() == "2025-06-20"
    assert "Training of 2025-06-20 filed with 2 attendee(s)." in response.content.decode()


def test_it_writes_an_audit_row_naming_the_operator_and_the_agency(as_olive, olive, rosa, world):
    as_olive.post(URL, {"date": "2025-06-20", "attendees": [rosa.pk], "signed": [rosa.pk]})
    event = AuditEvent.objects.get(action="training.record")
    assert event.actor == olive and event.agency == world.sc
    assert event.after["attendance"] == [{"employee_id": rosa.pk, "signed": True}]


def test_it_numbers_two_trainings_of_one_day_apart(as_olive, rosa):
    for _ in range(2):
        as_olive.post(URL, {"date": "2025-06-20", "attendees": [rosa.pk]})
    assert sorted(Training.objects.filter(date="2025-06-20").values_list("code", flat=True)) == [
        "T-2025-06-20",
        "T-2025-06-20-2",
    ]


def test_it_refuses_a_training_without_attendees(as_olive, rosa):
    response = as_olive.post(URL, {"date": "2025-06-20"})
    assert response.status_code == 400
    assert "Tick at least one employee who attended." in response.content.decode()
    assert Training.objects.count() == 1


def test_it_refuses_a_training_in_the_future(as_olive, rosa):
    response = as_olive.post(URL, {"date": "2025-07-01", "attendees": [rosa.pk]})
    assert "The training date cannot be in the future (today is 2025-06-30)." in (
        response.content.decode()
    )
    assert not Training.objects.filter(date="2025-07-01").exists()


def test_it_refuses_a_signature_of_someone_who_did_not_attend(as_olive, rosa):
    ana = Employee.objects.get(name="Ana Ruiz")
    data = {"date": "2025-06-20", "attendees": [rosa.pk], "signed": [ana.pk]}
    response = as_olive.post(URL, data)
    assert "Only an attendee can sign: Ana Ruiz did not attend." in response.content.decode()
    assert not Attendance.objects.filter(training__date="2025-06-20").exists()


def test_it_shows_the_services_message_for_an_employee_not_yet_hired(as_olive, rosa):
    response = as_olive.post(URL, {"date": "2025-04-20", "attendees": [rosa.pk]})
    assert response.status_code == 400
    assert "Rosa Diaz was not employed on 2025-04-20." in response.content.decode()
    assert not AuditEvent.objects.filter(action="training.record").exists()


def test_it_refuses_another_establishments_employee(as_olive, world, rosa):
    stranger = make_employee(world.grill, "E-9", name="Sam Stranger")
    response = as_olive.post(URL, {"date": "2025-06-20", "attendees": [stranger.pk]})
    assert response.status_code == 400
    assert "Select a valid choice." in response.content.decode()
    assert not Training.objects.filter(date="2025-06-20").exists()
