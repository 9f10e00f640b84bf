"""The dashboard's figures the sweep stores for its day (compliance/dashboard.py): the same as
counted afresh, after the sweep and after each write's re-evaluation."""

from datetime import date

import pytest

from fogkeeper import reevaluation
from fogkeeper.compliance.dashboard import figures, stored_figures
from fogkeeper.compliance.models import DashboardFigures
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.maintenance.services import service_record
from fogkeeper.registry.models import GreaseControlDevice, Hauler
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.web.enforcement import san_clemente_case
from tests.web.people import two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def sc():
    """San Clemente with Pier Taqueria (two devices overdue for a pump-out), swept."""
    sc, _ = two_agencies()
    with reevaluation.held():
        make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc


def test_it_stores_what_the_sweep_counts_for_its_day(sc):
    stored = stored_figures(agency=sc, as_of=AS_OF)
    assert stored == figures(agency=sc, as_of=AS_OF)
    assert stored.violations["gcd.service_overdue"] == 1
    assert stored.rates[-1] == (AS_OF, 1, 0)


def test_it_stores_nothing_for_another_day(sc):
    assert stored_figures(agency=sc, as_of=date(2025, 7, 1)) is None


def test_a_pump_out_recorded_closes_an_overdue_and_the_stored_figure_drops_at_once(sc):
    hauler = Hauler.objects.get(code="FSE-0042-H1")
    for code, manifest in (("GT-2", "M-901"), ("GI-1", "M-902")):
        device = GreaseControlDevice.objects.get(establishment__code="FSE-0042", code=code)
        with reevaluation.evaluating_on(AS_OF):  # as the page of that day records it
            service_record(
                device=device, manifest_number=manifest, date=date(2025, 6, 29), hauler=hauler
            )
    stored = stored_figures(agency=sc, as_of=AS_OF)
    assert "gcd.service_overdue" not in stored.violations
    assert stored == figures(agency=sc, as_of=AS_OF)


def test_a_case_opened_after_the_sweep_puts_its_deadlines_in_the_stored_week(sc):
    day = date(2025, 6, 10)
    sweep_agency(sc, as_of=day)
    assert stored_figures(agency=sc, as_of=day).calendar == []
    with reevaluation.evaluating_on(day):
        san_clemente_case(GreaseControlDevice.objects.get(code="GI-1").establishment)
    stored = stored_figures(agency=sc, as_of=day)
    assert "MD-1" in [i["action"] for i in stored.calendar]
    assert stored == figures(agency=sc, as_of=day)


def test_the_last_sweep_replaces_the_figures_of_the_one_before(sc):
    sweep_agency(sc, as_of=date(2025, 7, 15))
    assert list(DashboardFigures.objects.values_list("as_of", flat=True)) == [date(2025, 7, 15)]
