"""Invoices issued and a lien released from many pages at once: each invoice gets a number of
its own, a number typed twice is stored once and refused in words, two annual fee runs
invoice each establishment once, a lien is released once (issue 15, item 5)."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.billing.annual import invoice_annual_fees
from fogkeeper.billing.models import Invoice, LienRelease
from fogkeeper.billing.services import fee_schedule_set, lien_release
from tests.billing.records import invoice, town_fse
from tests.billing.test_annual_fees import SC_FEES
from tests.billing.test_liens import penalised, record
from tests.races import race
from tests.records import d, make_agency, make_establishment

pytestmark = pytest.mark.django_db(transaction=True)
N = 10


def test_it_gives_each_invoice_issued_at_once_its_own_number():
    fse = town_fse()
    done = race(N, lambda i: invoice(fse, code="").code)
    assert sorted(done) == sorted(f"INV-{n}" for n in range(1, N + 1)), done


def test_it_stores_a_number_typed_on_many_pages_at_once_once():
    fse = town_fse()
    done = race(N, lambda i: invoice(fse, code="INV-7"))
    refused = [" ".join(r.messages) for r in done if isinstance(r, ValidationError)]
    assert len(refused) == N - 1, done
    assert all("INV-7 is taken by another invoice" in r and "use INV-8" in r for r in refused), (
        refused[0]
    )
    assert Invoice.objects.count() == 1


def test_it_invoices_the_annual_fee_once_when_two_runs_go_at_once():
    agency = make_agency("san-clemente")
    fee_schedule_set(agency=agency, effective_on=d("2024-07-01"), items=SC_FEES)
    fse = make_establishment(agency)
    on = date(2025, 3, 3)
    runs = race(2, lambda i: invoice_annual_fees(agency=agency, year=2025, on=on))
    assert sorted((len(r.issued), len(r.already), r.refused) for r in runs) == [
        (0, 1, []),
        (1, 0, []),
    ], runs
    assert Invoice.objects.filter(establishment=fse).count() == 1


def test_it_releases_a_lien_once_when_released_from_many_pages_at_once():
    lien = record(penalised())
    done = race(
        N,
        lambda i: lien_release(
            lien=lien, released_on=d("2025-10-01"), document_number=f"2025-77{i:02}"
        ),
    )
    refused = [" ".join(r.messages) for r in done if isinstance(r, ValidationError)]
    assert len(refused) == N - 1, done
    assert all("released already" in r for r in refused), refused[0]
    assert LienRelease.objects.filter(lien=lien).count() == 1
