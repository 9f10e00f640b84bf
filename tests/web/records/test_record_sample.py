from decimal import Decimal

import pytest

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.inspections.models import Sample
from fogkeeper.registry.models import GreaseControlDevice
from tests.compliance.records import AS_OF, make_pier_taqueria, make_vista_hermosa_ramen
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/establishments/FSE-0077/record/sample/?as_of=2025-06-30"
RULE = "discharge.limit_exceeded"


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_vista_hermosa_ramen(sc)
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


@pytest.fixture
def alice(client, agencies):
    alice = make_user("alice", agencies[0])
    client.force_login(alice)
    return alice


def sample(**kw):
    data = {
        "code": "S-1",
        "date": "2025-06-20",
        "device": "",
        "parameter": "oil_and_grease",
        "value": "180",
        "unit": "mg/L",
        "method": "EPA 1664",
    }
    return {**data, **kw}


def refused(client, data) -> dict:
    """Posts `data`, expects a refusal that records nothing; the form's errors by field."""
    response = client.post(URL, data)
    assert response.status_code == 400
    assert not Sample.objects.filter(code=data["code"], parameter=data["parameter"]).exists()
    return response.context["form"].errors


def test_it_renders_the_form_with_labels(client, alice):
    html = client.get(URL).content.decode()
    for label in (
        "Sample number",
        "Date of the sample",
        "Device sampled",
        "Parameter",
        "Value",
        "Unit",
        "Method",
    ):
        assert f">{label}:</label>" in html


def test_it_offers_the_parameters_with_a_limit_in_force_and_their_units(client, alice):
    html = client.get(URL).content.decode()
    assert "oil and grease at most 100 mg/L (Discharge Permit FSE-0077-P1)" in html
    assert '<option value="Oil and grease">' in html
    assert "oil and grease in mg/L" in html
    assert "oil_and_grease" not in html


def test_it_offers_the_devices_in_service_and_the_establishments_discharge(client, alice):
    html = client.get(URL).content.decode()
    assert "The establishment&#x27;s discharge" in html
    assert ">GI-1" in html
    assert ">GI-0" not in html


def test_it_links_the_form_from_the_establishment_page(client, alice):
    html = client.get("/establishments/FSE-0077/").content.decode()
    assert 'href="/establishments/FSE-0077/record/sample/"' in html


def test_it_records_a_sample_over_the_limit_with_its_audit_row_and_finding(client, alice):
    response = client.post(URL, sample(), follow=True)
    recorded = Sample.objects.get(code="S-1")
    assert (recorded.establishment.code, recorded.device, recorded.value) == (
        "FSE-0077",
        None,
        Decimal("180"),
    )
    assert AuditEvent.objects.filter(action="sample.record", actor=alice).count() == 1
    assert Finding.objects.filter(rule=RULE, open=True, establishment__code="FSE-0077").exists()
    assert response.redirect_chain[-1][0] == "/establishments/FSE-0077/"
    findings = response.content.decode().split('id="findings"', 1)[1].split("</table>", 1)[0]
    assert "Sample above its discharge limit" in findings


def test_it_lists_the_sample_on_the_establishment_page_over_its_limit(client, alice):
    html = client.post(URL, sample(), follow=True).content.decode()
    samples = html.split('id="samples"', 1)[1].split("</table>", 1)[0]
    assert '<th scope="row">S-1</th>' in samples
    assert "180 mg/L" in samples
    assert "<strong>Over</strong> the limit of 100 mg/L (Discharge Permit FSE-0077-P1)" in samples


def test_it_records_a_sample_of_a_device_within_the_limit_without_a_finding(client, alice):
    device = GreaseControlDevice.objects.get(establishment__code="FSE-0077", code="GI-1")
    html = client.post(URL, sample(device=device.pk, value="42.5"), follow=True).content.decode()
    assert Sample.objects.get(code="S-1").device == device
    assert not Finding.objects.filter(rule=RULE).exists()
    assert "Within the limit of 100 mg/L" in html.split('id="samples"', 1)[1]


def test_it_takes_a_parameter_with_a_limit_typed_in_words(client, alice):
    client.post(URL, sample(parameter="Oil and grease"))
    assert Sample.objects.get(code="S-1").parameter == "oil_and_grease"


def test_it_accepts_a_parameter_that_has_no_limit(client, alice):
    html = client.post(URL, sample(parameter="ph", value="6.8", unit="SU"), follow=True)
    assert Sample.objects.get(code="S-1").parameter == "ph"
    assert "No limit" in html.content.decode().split('id="samples"', 1)[1]


def test_it_refuses_a_negative_value(client, alice):
    assert list(refused(client, sample(value="-3"))) == ["value"]


def test_it_refuses_an_impossible_date(client, alice):
    assert list(refused(client, sample(date="2025-02-30"))) == ["date"]


def test_it_refuses_another_establishments_device(client, alice):
    other = GreaseControlDevice.objects.get(establishment__code="FSE-0042", code="GT-2")
    assert list(refused(client, sample(device=other.pk))) == ["device"]


def test_it_refuses_a_removed_device(client, alice):
    removed = GreaseControlDevice.objects.get(establishment__code="FSE-0077", code="GI-0")
    assert list(refused(client, sample(device=removed.pk))) == ["device"]


def test_it_refuses_a_duplicate_code(client, alice):
    client.post(URL, sample(value="50"))
    response = client.post(URL, sample(value="180"))
    assert response.status_code == 400
    assert list(response.context["form"].errors) == ["code"]
    assert list(Sample.objects.values_list("value", flat=True)) == [Decimal("50")]


def test_it_refuses_another_unit_than_the_limits(client, alice):
    errors = refused(client, sample(unit="ppm"))
    assert list(errors) == ["unit"]
    assert "record the result in mg/L" in errors["unit"][0]
    assert not AuditEvent.objects.filter(action="sample.record").exists()


def test_it_answers_404_for_another_agencys_establishment(client, agencies):
    sc, town = agencies
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("alice", sc))
    assert client.get("/establishments/T-1/record/sample/").status_code == 404


def test_it_forbids_a_clerk(client, agencies):
    client.force_login(make_user("clara", agencies[0], role="clerk"))
    assert client.get(URL).status_code == 403
    assert client.post(URL, sample()).status_code == 403
    assert not Sample.objects.exists()


def test_it_does_not_link_the_form_for_a_clerk(client, agencies):
    client.force_login(make_user("clara", agencies[0], role="clerk"))
    html = client.get("/establishments/FSE-0077/").content.decode()
    assert "/record/sample/" not in html
