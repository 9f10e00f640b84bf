"""Answering a request evaluates its establishment again as it commits: a grant changes the
frequency the engine reads (the device's; the permit's, through its modification)."""

from __future__ import annotations

from datetime import date

import pytest

from fogkeeper.filings.services import filing_decide, filing_submit
from tests.records import make_device
from tests.reevaluation import check_write, today

pytestmark = pytest.mark.django_db

DAY = date(2025, 1, 6)


def _grant(fse):
    filing = filing_submit(
        establishment=fse,
        kind="revised_schedule",
        filed_on=DAY,
        device=make_device(fse),
        frequency_days=120,
        grounds="A year under 10%.",
    )
    return lambda: filing_decide(
        filing=filing, outcome="granted", decided_on=today(fse), today=today(fse)
    )


WRITES = {filing_decide: _grant}


@pytest.mark.parametrize("service", WRITES, ids=lambda f: f.__name__)
def test_the_write_evaluates_its_establishment_again_as_it_commits(service):
    check_write(WRITES[service])
