"""Who a communication goes to: the establishment list's own filters, every one of them, and
what its preview shows of three real recipients."""

from __future__ import annotations

import pytest

from fogkeeper.communications.services import preview, reach, recipients
from fogkeeper.compliance.models import Finding
from fogkeeper.web.communications.forms import RecipientFilters, chosen
from fogkeeper.web.registry import selectors

from .records import AS_OF, draft, program

pytestmark = pytest.mark.django_db


def test_its_filter_form_has_every_filter_of_the_establishment_list():
    assert set(RecipientFilters.base_fields) == set(selectors.FILTERS)


def test_it_chooses_the_establishments_the_list_shows_for_the_same_filter_less_closed_ones():
    sc = program()
    rule = Finding.objects.filter(agency=sc, open=True).values_list("rule", flat=True).first()
    for filters in ({"rule": rule}, {"status": "non_compliant"}, {"q": "Ocean"}, {}):
        listed = selectors.establishment_list(agency=sc, params=filters)
        wanted = sorted(listed.exclude(closed_on__lte=AS_OF).values_list("code", flat=True))
        codes = sorted(recipients(chosen(sc, filters), AS_OF).values_list("code", flat=True))
        assert codes == wanted and codes, filters
    assert "T-1" not in codes and "FSE-9" not in codes


def test_the_preview_shows_three_real_recipients_with_their_own_text():
    sc = program()
    comm = draft(sc)
    shown = preview(comm, chosen(sc, {}), AS_OF)
    assert [p["establishment"].code for p in shown] == ["FSE-1", "FSE-2", "FSE-3"]
    assert [p["subject"] for p in shown] == [
        "Grease season: Anchor Diner",
        "Grease season: Bay Bistro",
        "Grease season: Cove Cafe",
    ]
    assert shown[2]["plan"]["state"] == "letter_only" and shown[2]["email"] == ""


def test_it_counts_the_recipients_and_those_without_an_email_address():
    sc = program()
    assert reach(chosen(sc, {}), AS_OF) == {"total": 4, "without_email": 1, "opted_out": 0}


def test_a_filter_form_reads_the_filters_of_the_list_and_says_them_in_words():
    sc = program()
    form = RecipientFilters(
        {"status": "non_compliant", "due_by": "2026-05-31", "page": "2"}, agency=sc
    )
    assert form.is_valid()
    assert form.filters() == {"status": "non_compliant", "due_by": "2026-05-31"}
    assert form.words() == ["Status: Not in compliance", "Next due on or before: 2026-05-31"]
