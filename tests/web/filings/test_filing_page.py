"""Staff open a request an operator filed and answer it: the manager grants or denies it
(a grant changes the frequency the engine reads), delivers the record of a proceeding with
its cost; every staff role reads it; another agency's answers 404."""

from datetime import date
from decimal import Decimal

import pytest
import time_machine

from fogkeeper.filings.models import Filing
from fogkeeper.filings.services import filing_submit
from tests.filings import make_hearing
from tests.records import make_device, make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clock():
    with time_machine.travel("2026-12-01 12:00 -08:00", tick=False):
        yield


FILED = date(2026, 11, 20)


@pytest.fixture
def sc():
    return two_agencies()[0]


@pytest.fixture
def schedule(sc):
    fse = make_establishment(sc)
    return filing_submit(
        establishment=fse,
        kind="revised_schedule",
        filed_on=FILED,
        device=make_device(fse),
        frequency_days=120,
        grounds="A year under 10%.",
    )


def url(filing) -> str:
    return f"/requests/{filing.pk}/"


def test_it_shows_the_request_with_its_section(client, sc, schedule):
    client.force_login(make_user("ines", sc, role="inspector"))
    html = client.get(url(schedule)).content.decode()
    assert "Request for a revised cleaning or pumping schedule" in html
    assert "13.30.050(H)(1)(b)" in html and "every 120 days" in html
    assert "Record the answer" not in html  # an inspector reads it only


def test_the_manager_grants_it_and_the_device_takes_the_frequency(client, sc, schedule):
    client.force_login(make_user("mia", sc, role="manager"))
    response = client.post(url(schedule), {"outcome": "granted", "frequency_days": "120"})
    assert response.status_code == 302
    schedule.refresh_from_db()
    assert (schedule.outcome, schedule.decided_on) == ("granted", date(2026, 12, 1))
    schedule.device.refresh_from_db()
    assert schedule.device.service_frequency_days == 120


def test_a_denial_without_reasons_is_refused_and_changes_nothing(client, sc, schedule):
    client.force_login(make_user("mia", sc, role="manager"))
    response = client.post(url(schedule), {"outcome": "denied"})
    assert response.status_code == 400
    assert "Say why the request is denied." in response.content.decode()
    assert Filing.objects.get().outcome == ""


def test_an_inspector_may_not_answer(client, sc, schedule):
    client.force_login(make_user("ines", sc, role="inspector"))
    assert client.post(url(schedule), {"outcome": "granted"}).status_code == 403


def test_the_record_is_delivered_with_its_cost(client, sc):
    fse = make_establishment(sc)
    filing = filing_submit(
        establishment=fse,
        kind="record_of_proceedings",
        filed_on=FILED,
        hearing=make_hearing(fse),
        grounds="Petition",
    )
    client.force_login(make_user("mia", sc, role="manager"))
    client.post(url(filing), {"delivered_on": "2026-12-01", "cost": "42.00"})
    filing.refresh_from_db()
    assert (filing.outcome, filing.cost) == ("delivered", Decimal("42.00"))
    html = client.get(url(filing)).content.decode()
    assert "2026-12-31" in html  # thirty days after delivery, 13.30.090(E)


def test_another_agencys_request_answers_404(client, schedule):
    from fogkeeper.registry.models import Agency

    town = Agency.objects.get(code="town-10-02")
    client.force_login(make_user("tom", town, role="manager"))
    assert client.get(url(schedule)).status_code == 404
    assert client.post(url(schedule), {"outcome": "granted"}).status_code == 404


def test_the_fog_manager_grants_a_town_request_and_the_permit_is_revised_with_its_notice(client):
    from fogkeeper.permits.models import PermitModification
    from fogkeeper.registry.models import Agency
    from tests.records import make_permit

    two_agencies()
    town = Agency.objects.get(code="town-10-02")
    fse = make_establishment(town, code="T-1")
    permit = make_permit(fse, number="T-P-1", service_frequency_days=90)
    filing = filing_submit(
        establishment=fse,
        kind="frequency_change",
        filed_on=FILED,
        frequency_days=120,
        grounds="12%",
        accumulation="Jan 10%",
    )
    client.force_login(make_user("fiona", town, role="manager"))
    client.post(url(filing), {"outcome": "granted", "reasons": "Justified."})
    modification = PermitModification.objects.get(permit=permit)
    assert modification.effective_on == date(2026, 12, 11) and modification.letter is not None
    html = client.get(url(filing)).content.decode()
    assert "the permit revised from 2026-12-11, its notice sent" in html
    assert f"/permits/letters/{modification.letter_id}.pdf" in html


def test_the_data_submitted_is_acknowledged(client):
    from fogkeeper.registry.models import Agency

    two_agencies()
    town = Agency.objects.get(code="town-10-02")
    fse = make_establishment(town, code="T-1")
    filing = filing_submit(
        establishment=fse,
        kind="frequency_data",
        filed_on=FILED,
        device=make_device(fse),
        accumulation="Jan 10%",
    )
    client.force_login(make_user("fiona", town, role="manager"))
    client.post(url(filing), {"reasons": "Kept with the permit file."})
    filing.refresh_from_db()
    assert (filing.outcome, filing.reasons) == ("acknowledged", "Kept with the permit file.")
