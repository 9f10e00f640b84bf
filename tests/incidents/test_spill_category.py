"""The category of a spill (General Order WQ 2022-0103-DWQ §5.13.1), on its boundaries."""

from decimal import Decimal

import pytest

from fogkeeper.incidents import spills
from fogkeeper.incidents.models import Incident
from fogkeeper.incidents.reporting_pack import reporting_pack

ORDER = reporting_pack()  # California's General Order: the State pack these cases are of


def derive_category(incident):
    return spills.derive_category(incident, ORDER)


def contradiction(incident, category):
    return spills.contradiction(incident, category, ORDER)


def spill(gallons, **kw):
    kw.setdefault("reached_surface_water", False)
    return Incident(gallons=None if gallons is None else Decimal(gallons), **kw)


@pytest.mark.parametrize(
    ("gallons", "category"),
    [("49", 4), ("49.9", 4), ("50", 3), ("999", 3), ("999.9", 3), ("1000", 2), ("25000", 2)],
)
def test_it_goes_by_volume_when_nothing_reached_surface_water(gallons, category):
    assert derive_category(spill(gallons))[0] == category


def test_it_cites_the_order_with_the_reason():
    category, reason = derive_category(spill("1000"))
    assert category == 2
    assert "1,000 gallons or more is category 2" in reason
    assert "§5.13.1" in reason


@pytest.mark.parametrize("gallons", ["1", "49", "2000", None])
def test_any_volume_reaching_surface_water_is_category_1(gallons):
    assert derive_category(spill(gallons, reached_surface_water=True))[0] == 1


def test_a_volume_to_surface_water_is_category_1():
    incident = spill("10", reached_surface_water=None, gallons_to_surface_water=Decimal("2"))
    assert derive_category(incident)[0] == 1


def test_a_volume_to_surface_water_of_a_spill_said_not_to_reach_it_is_left_for_staff():
    category, reason = derive_category(spill("10", gallons_to_surface_water=Decimal("2")))
    assert category is None
    assert "yet with 2 gallons reaching it" in reason


def test_a_storm_drain_not_fully_captured_is_category_1():
    incident = spill("10", reached_storm_drain=True, storm_drain_fully_captured=False)
    category, reason = derive_category(incident)
    assert category == 1
    assert "not fully captured" in reason


def test_a_storm_drain_fully_captured_goes_by_volume():
    incident = spill("10", reached_storm_drain=True, storm_drain_fully_captured=True)
    assert derive_category(incident)[0] == 4


def test_a_storm_drain_whose_capture_is_unknown_is_left_for_staff():
    incident = spill("10", reached_storm_drain=True, storm_drain_fully_captured=None)
    category, reason = derive_category(incident)
    assert category is None
    assert "Staff set the category" in reason


def test_an_unknown_volume_not_reaching_surface_water_is_left_for_staff():
    category, reason = derive_category(spill(None))
    assert category is None
    assert "volume spilled is unknown" in reason


def test_it_leaves_for_staff_a_spill_not_known_to_have_reached_surface_water_or_not():
    assert derive_category(spill("2000", reached_surface_water=None))[0] is None


def test_a_staff_category_contradicting_the_volume_is_named():
    assert "contradicts" in contradiction(spill("2000"), 4)
    assert contradiction(spill("2000"), 2) is None
    assert contradiction(spill(None), 4) is None
