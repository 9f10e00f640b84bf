"""The permit and its modification notice as PDFs, read back, from each pack's templates:
in the agency's words, with what the ordinance requires them to state."""

from datetime import date
from io import BytesIO

import pytest
from pypdf import PdfReader

from fogkeeper.permits.documents import modification_notice_pdf, permit_pdf
from fogkeeper.permits.services import permit_modify
from tests.records import make_agency, make_establishment, make_permit

pytestmark = pytest.mark.django_db

PACKS = {
    "san-clemente": ("Discharge Permit", "13.30.050(J)", 45),
    "town-10-02": ("FOG Permit", "10.02.060(B), (C)", 10),
}


def text(pdf: bytes) -> str:
    return "".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)


@pytest.fixture(params=list(PACKS))
def permit(request):
    fse = make_establishment(make_agency(request.param), "FSE-0042", name="Pier Taqueria")
    return make_permit(
        fse,
        "P-42",
        issued_on="2026-01-05",
        expires_on="2030-12-31",
        service_frequency_days=90,
        holder="Pier Foods LLC",
    )


def test_the_permit_states_its_number_holder_term_and_frequency(permit):
    title = PACKS[permit.agency.pack][0]
    found = text(permit_pdf(permit))
    assert title in found and "P-42" in found and "Pier Foods LLC" in found
    assert "Pier Taqueria" in found and "Every 90 days" in found
    assert "December 31, 2030" in found


def test_the_modification_notice_states_the_change_its_date_and_section(permit):
    title, section, days = PACKS[permit.agency.pack]
    modification = permit_modify(
        permit=permit,
        noticed_on=date(2026, 12, 1),
        effective_on=date(2027, 1, 20),
        changes={"service_frequency_days": 60},
        reason="Grease at the outlet",
        today=date(2026, 12, 1),
    )
    found = text(modification_notice_pdf(modification))
    assert title in found and "P-42" in found and section in found
    assert "January 20, 2027" in found and "Grease at the outlet" in found
    assert "Every 90 days" in found and "Every 60 days" in found
    assert days <= (modification.effective_on - modification.noticed_on).days
