"""Letters from the database records the enforcement app passes in."""

from datetime import date

import pytest

from fogkeeper.enforcement.letters import render_letter
from tests.records import make_agency, make_establishment

from .test_letters import engine_deadlines, printed, text_of

pytestmark = pytest.mark.django_db


def test_it_renders_a_letter_for_an_agency_and_establishment_record():
    agency = make_agency("san-clemente", letterhead="910 Calle Negocio\nSan Clemente, CA 92673")
    fse = make_establishment(agency, city="San Clemente")
    fields = {"delivered_on": "2025-04-10"}
    deadlines = engine_deadlines("san-clemente", "manager_decision", fields)

    pdf = render_letter(
        agency=agency,
        establishment=fse,
        action_type="manager_decision",
        action_code="MD-1",
        fields=fields,
        deadlines=deadlines,
        issued_on=date(2025, 4, 10),
    )

    text = text_of(pdf)
    assert "Pier Taqueria (FSE-1)" in text
    assert "Pier Foods LLC" in text
    assert "910 Calle Negocio" in text
    assert printed(deadlines[0]["date"]) in text


def test_it_addresses_the_establishment_with_its_city_state_and_zip():
    agency = make_agency("us-oh-aurora", letterhead="130 South Chillicothe Road\nAurora, OH 44202")
    fse = make_establishment(
        agency, address="402 N Chillicothe Rd", city="Aurora", state="OH", zip_code="44202"
    )

    pdf = render_letter(
        agency=agency,
        establishment=fse,
        action_type="notice_of_violation",
        action_code="NOV-1",
        fields={"delivered_on": "2026-12-04"},
        deadlines=[],
        issued_on=date(2026, 12, 4),
    )

    assert "Pier Taqueria 402 N Chillicothe Rd Aurora, OH 44202" in text_of(pdf)
