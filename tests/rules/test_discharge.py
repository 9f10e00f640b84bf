"""Samples of the discharge against their limits (RULES.md 11.12)."""

import pytest

from fogkeeper.rules import CaseFileError

from .builders import d, evaluate_case, found, one, sc_case

LIMIT = {"oil_and_grease": {"max": 100, "unit": "mg/L"}}
GI = {"id": "GI-1", "kind": "interceptor", "installed_on": "2015-01-01", "capacity_gallons": 1000}


def sample(id, on, value, device="GI-1", parameter="oil_and_grease", unit="mg/L"):
    s = {"id": id, "date": on, "parameter": parameter, "value": value, "unit": unit}
    return s | ({"device": device} if device else {})


def sampled(*samples, limits=LIMIT, as_of="2025-06-30"):
    case = sc_case(
        permit={"discharge_limits": limits, "service_frequency_days": 90},
        devices=[GI],
        services=[{"id": "S-1", "device": "GI-1", "date": "2025-05-01"}],
        samples=list(samples),
    )
    return evaluate_case(case, as_of=as_of)


@pytest.mark.parametrize("value, fires", [(99.9, False), (100, False), (100.1, True)])
def test_it_flags_a_sample_strictly_above_its_limit(value, fires):
    report = sampled(sample("S-1", "2025-03-03", value))
    assert bool(found(report, "discharge.limit_exceeded", "GI-1")) is fires


def test_it_opens_one_finding_until_a_later_sample_within_the_limit():
    report = sampled(
        sample("S-1", "2025-03-03", 150),
        sample("S-2", "2025-03-20", 250),
        sample("S-3", "2025-04-15", 80),
    )
    f = one(report, "discharge.limit_exceeded", "GI-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-03-03"), d("2025-04-15"))
    assert (f.evidence["sample"], f.evidence["unit"]) == ("S-1", "mg/L")
    assert f.citation == "13.30.080(C); 13.30.030(E)"


def test_it_does_not_cure_by_a_sample_on_the_same_day():
    report = sampled(sample("S-1", "2025-03-03", 150), sample("S-2", "2025-03-03", 50))
    assert one(report, "discharge.limit_exceeded", "GI-1").open


def test_it_gives_a_sample_without_a_device_to_the_establishment():
    report = sampled(sample("S-1", "2025-05-05", 310, device=None))
    assert one(report, "discharge.limit_exceeded", "FSE-1").open
    assert report.status == "non_compliant"


def test_it_ignores_a_parameter_without_a_limit():
    report = sampled(sample("S-1", "2025-05-05", 12, parameter="ph", unit="SU"))
    assert found(report, "discharge.limit_exceeded") == []


def test_it_ignores_a_sample_taken_after_as_of():
    report = sampled(sample("S-1", "2025-07-01", 500))
    assert found(report, "discharge.limit_exceeded") == []


def test_it_refuses_a_sample_in_another_unit_than_its_limit():
    with pytest.raises(CaseFileError) as err:
        sampled(sample("S-1", "2025-03-03", 0.2, unit="g/L"))
    assert "samples[0].unit" in str(err.value)


def test_it_refuses_a_sample_of_an_unknown_device():
    with pytest.raises(CaseFileError) as err:
        sampled(sample("S-1", "2025-03-03", 50, device="GI-9"))
    assert "samples[0].device: unknown device 'GI-9'" in str(err.value)
