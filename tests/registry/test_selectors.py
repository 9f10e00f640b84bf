from datetime import date

import pytest

from fogkeeper.permits.operators import operator_change
from fogkeeper.registry.selectors import (
    establishment_current_operator,
    establishment_list,
    record_agency,
)
from tests.records import make_agency, make_device, make_establishment, make_service

pytestmark = pytest.mark.django_db


def test_it_names_the_current_operator():
    fse = make_establishment(make_agency(), operator="Pier Foods LLC")
    operator_change(establishment=fse, operator="Harbor Group", on=date(2025, 3, 1))
    assert establishment_current_operator(establishment=fse).name == "Harbor Group"


def test_it_finds_the_agency_of_a_service_through_its_device():
    agency = make_agency()
    service = make_service(make_device(make_establishment(agency)), "M-1", "2025-01-01")
    assert record_agency(service) == agency


def test_it_lists_open_establishments_of_one_agency():
    agency = make_agency()
    make_establishment(agency, code="FSE-1")
    make_establishment(agency, code="FSE-2", closed_on="2024-01-01")
    make_establishment(make_agency("town-10-02"), code="FSE-3")
    assert [f.code for f in establishment_list(agency=agency, open_only=True)] == ["FSE-1"]
