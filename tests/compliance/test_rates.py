"""The agency's sweep stores its compliance rate on the last twelve month ends, as the
findings give it (compliance/rates.py)."""

from datetime import date

import pytest

from fogkeeper.compliance.models import ComplianceRate, Finding
from fogkeeper.compliance.rates import month_ends_before, rate_counts
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_agency, make_establishment

pytestmark = pytest.mark.django_db


@pytest.fixture
def agency():
    """Pier Taqueria, a place opened in March 2025 and one closed in January 2025."""
    agency = make_agency()
    make_pier_taqueria(agency)
    make_establishment(agency, code="FSE-NEW", name="New Place", opened_on="2025-03-10")
    make_establishment(
        agency, code="FSE-OLD", name="Old Place", opened_on="2010-01-01", closed_on="2025-01-20"
    )
    return agency


def stored(agency) -> dict[date, tuple[int, int]]:
    rows = ComplianceRate.objects.filter(agency=agency).order_by("date")
    return {r.date: (r.active, r.compliant) for r in rows}


def counted_in_python(agency, day: date) -> tuple[int, int]:
    """The rate as the dashboard first counted it: every establishment and finding read."""
    active = {
        pk
        for pk, opened, closed in FoodServiceEstablishment.objects.filter(
            agency=agency
        ).values_list("pk", "opened_on", "closed_on")
        if opened <= day and (closed is None or closed > day)
    }
    violating = {
        pk
        for pk, since, closed in Finding.objects.filter(
            establishment__agency=agency, severity="violation"
        ).values_list("establishment_id", "since", "closed_on")
        if pk in active and since <= day and (closed is None or closed > day)
    }
    return len(active), len(active) - len(violating)


def test_it_stores_the_last_twelve_month_ends_up_to_the_day_swept(agency):
    sweep_agency(agency, as_of=AS_OF)  # a month end itself
    assert list(stored(agency)) == sorted(month_ends_before(date(2025, 7, 1), 12))
    assert min(stored(agency)) == date(2024, 7, 31) and max(stored(agency)) == AS_OF


def test_it_stores_the_month_ends_before_a_day_within_a_month(agency):
    sweep_agency(agency, as_of=date(2025, 6, 15))
    assert max(stored(agency)) == date(2025, 5, 31) and len(stored(agency)) == 12


def test_it_stores_the_rates_the_findings_give(agency):
    sweep_agency(agency, as_of=AS_OF)
    assert stored(agency) == {day: counted_in_python(agency, day) for day in stored(agency)}
    assert stored(agency)[date(2024, 12, 31)][0] == 2  # New Place not open yet, Old still
    assert stored(agency)[AS_OF][0] == 2  # Old Place closed, New Place open


def test_it_counts_any_number_of_days_in_one_query(agency, django_assert_num_queries):
    sweep_agency(agency, as_of=AS_OF)
    days = [date(2025, 1, 19), date(2025, 1, 20), date(2025, 3, 9), date(2025, 3, 10), AS_OF]
    with django_assert_num_queries(1):
        counts = rate_counts(agency=agency, days=days)
    assert counts == {day: counted_in_python(agency, day) for day in days}


def test_it_forgets_the_rates_after_the_day_of_an_earlier_sweep(agency):
    sweep_agency(agency, as_of=AS_OF)
    sweep_agency(agency, as_of=date(2025, 3, 15))
    assert max(stored(agency)) == date(2025, 2, 28)
    assert stored(agency) == {day: counted_in_python(agency, day) for day in stored(agency)}
