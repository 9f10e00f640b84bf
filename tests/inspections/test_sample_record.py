"""Samples of the discharge, against the permit's limits (RULES.md 11.12)."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.compliance.casefiles.as_json import build_case_file
from fogkeeper.inspections.models import Sample
from fogkeeper.inspections.services import sample_record
from fogkeeper.rules import evaluate, parse_case
from tests.audit.people import events
from tests.records import make_agency, make_device, make_establishment, make_permit

pytestmark = pytest.mark.django_db
LIMITS = {"oil_and_grease": {"max": 100, "unit": "mg/L"}}


def fse():
    est = make_establishment(make_agency())
    make_permit(est, discharge_limits=LIMITS, service_frequency_days=90)
    return est


def record(est, **kw):
    fields = {
        "code": "L-1",
        "date": date(2025, 3, 3),
        "parameter": "oil_and_grease",
        "value": Decimal("120"),
        "unit": "mg/L",
        "method": "EPA 1664",
    }
    return sample_record(establishment=est, **{**fields, **kw})


def test_it_records_a_sample_over_the_permits_limit_as_a_violation():
    est = fse()
    record(est, device=make_device(est))
    assert events("sample.record")
    report = evaluate(parse_case(build_case_file(est, date(2025, 6, 30))))
    (finding,) = [f for f in report.findings if f.rule == "discharge.limit_exceeded"]
    assert (finding.subject, finding.open) == ("GI-1", True)


def test_it_refuses_a_sample_in_another_unit_than_the_limit():
    with pytest.raises(ValidationError) as e:
        record(fse(), unit="g/L")
    assert e.value.message_dict["unit"] == [
        "The oil_and_grease limit is in mg/L; record the result in mg/L."
    ]
    assert not Sample.objects.exists()


def test_it_refuses_a_negative_result():
    with pytest.raises(ValidationError) as e:
        record(fse(), value=Decimal("-1"))
    assert "value" in e.value.message_dict


def test_it_refuses_another_establishments_device():
    est = fse()
    other = make_establishment(est.agency, "FSE-2")
    with pytest.raises(ValidationError) as e:
        record(est, device=make_device(other, "GI-9"))
    assert "device" in e.value.message_dict


def test_it_refuses_a_duplicate_code():
    est = fse()
    record(est)
    with pytest.raises(ValidationError) as e:
        record(est)
    assert "code" in e.value.message_dict
