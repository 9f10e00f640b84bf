"""An operator files a request its ordinance gives it (San Clemente 13.30.050(H)(1)(b),
13.30.090(D)) from its portal, and sees the agency's answer there."""

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.filings.models import Filing
from fogkeeper.filings.services import filing_decide
from tests.filings import make_hearing
from tests.records import d

from .conftest import PIER

pytestmark = pytest.mark.django_db

URL = f"{PIER}requests/revised_schedule/"


def _file(client, world, **kw):
    gi = world.pier.devices.get(code="GI-1")
    data = {"device": gi.pk, "frequency_days": "120", "grounds": "Under 10% for a year."}
    return client.post(URL, {**data, **kw}, follow=True)


def test_it_files_a_revised_schedule_request_with_an_audit_row(as_olive, olive, world):
    response = _file(as_olive, world)
    filing = Filing.objects.get()
    assert (filing.establishment, filing.frequency_days, filing.filed_by) == (
        world.pier,
        120,
        olive,
    )
    assert filing.filed_on == d("2025-06-30")
    assert AuditEvent.objects.get(action="filing.submit").actor == olive
    html = response.content.decode()
    assert "Your request for a revised cleaning or pumping schedule was filed." in html
    assert "13.30.050(H)(1)(b)" in html and "Waiting" in html


def test_it_refuses_a_request_without_its_grounds_and_files_nothing(as_olive, world):
    response = _file(as_olive, world, grounds="")
    assert response.status_code == 400
    assert not Filing.objects.exists()


def test_it_lists_the_kinds_the_pack_declares_with_their_sections(as_olive, world):
    html = as_olive.get(f"{PIER}requests/").content.decode()
    assert "Request for the complete record of the proceedings" in html
    assert "delivered within 90 days" in html and "13.30.090(D)" in html


def test_the_operator_sees_the_decision_and_its_reasons(as_olive, world):
    _file(as_olive, world)
    filing = Filing.objects.get()
    filing_decide(
        filing=filing, outcome="denied", decided_on=d("2025-06-30"), reasons="Grease at 30%."
    )
    html = as_olive.get(f"{PIER}requests/").content.decode()
    assert "Denied" in html and "Grease at 30%." in html


def test_it_files_a_request_for_the_record_of_a_hearing_due_in_90_days(as_olive, world):
    hearing = make_hearing(world.pier, day="2025-06-01")
    as_olive.post(
        f"{PIER}requests/record_of_proceedings/", {"hearing": hearing.pk, "grounds": "Review."}
    )
    assert Filing.objects.get().due_on == d("2025-09-29")


def test_another_establishments_requests_answer_404(as_olive, world):
    assert as_olive.get("/portal/operator/FSE-2/requests/").status_code == 404
    assert as_olive.post("/portal/operator/FSE-2/requests/revised_schedule/").status_code == 404


def test_a_kind_the_pack_does_not_declare_answers_404(as_olive, world):
    assert as_olive.get(f"{PIER}requests/frequency_change/").status_code == 404


@pytest.fixture
def as_tess(client, world):
    """Mesa Foods' operator, at the Town's Desert Diner (T-1), under a FOG Permit every 90
    days, with an interceptor."""
    from fogkeeper.registry.models import Operator
    from tests.records import make_device, make_permit

    from .conftest import member

    make_permit(world.town_fse, number="T-P-1", service_frequency_days=90)
    make_device(world.town_fse, "GI-7")
    tess = member("tess", world.town, "operator", operator=Operator.objects.get(name="Mesa Foods"))
    client.force_login(tess)
    return client


def test_the_town_operator_asks_in_writing_for_a_change_of_the_permits_frequency(as_tess, world):
    response = as_tess.post(
        "/portal/operator/T-1/requests/frequency_change/",
        {"frequency_days": "120", "grounds": "12% on average.", "accumulation": "Jan 10%"},
        follow=True,
    )
    filing = Filing.objects.get()
    assert (filing.permit.number, filing.frequency_days) == ("T-P-1", 120)
    assert "10.02.130(F)(3)" in response.content.decode()


def test_the_town_refuses_a_frequency_130b_does_not_assign(as_tess, world):
    response = as_tess.post(
        "/portal/operator/T-1/requests/frequency_change/",
        {"frequency_days": "100", "grounds": "g", "accumulation": "a"},
    )
    assert response.status_code == 400 and "10.02.130(B)" in response.content.decode()
    assert not Filing.objects.exists()


def test_the_town_operator_submits_the_data_to_set_the_frequency(as_tess, world):
    gi = world.town_fse.devices.get(code="GI-7")
    as_tess.post(
        "/portal/operator/T-1/requests/frequency_data/",
        {"device": gi.pk, "accumulation": "Jan 10%, Apr 12%"},
    )
    filing = Filing.objects.get()
    assert (filing.kind, filing.device, filing.accumulation) == (
        "frequency_data",
        gi,
        "Jan 10%, Apr 12%",
    )
