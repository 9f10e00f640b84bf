"""The annual fee invoices page (fogkeeper/web/billing/annual_fees.py): the clerk or the manager
invoices the year's annual inspection fee to every active establishment; the run (inline
here: no broker is set in the tests) is shown to its end; bad input and a second run at once
are refused and change nothing."""

from datetime import timedelta
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from fogkeeper.audit.models import AuditEvent
from fogkeeper.billing.annual_runs import run_annual_fees
from fogkeeper.billing.models import AnnualFeeRun, Invoice
from fogkeeper.billing.services import fee_schedule_set, invoice_issue
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.billing.test_annual_fees import SC_FEES
from tests.records import d, make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

NOW = "2026-01-20 18:00 +00:00"  # 20 January in San Clemente too


@pytest.fixture(autouse=True)
def clock():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def sc():
    sc, town = two_agencies()
    fee_schedule_set(agency=sc, effective_on=d("2024-07-01"), items=SC_FEES)
    for code, closed_on in (("FSE-1", None), ("FSE-2", None), ("FSE-3", "2025-12-31")):
        make_establishment(sc, code=code, operator=f"Operator {code}", closed_on=closed_on)
    make_establishment(town, code="T-1", operator="Town Operator")
    return {"sc": sc, "town": town}


def signed_in(client, agency, role="clerk", username="cleo"):
    client.force_login(make_user(username, agency, role=role))


def start(client, year="2026", noticed_on="2026-01-15"):
    return client.post(
        "/billing/annual-fees/start/", {"year": year, "noticed_on": noticed_on}, follow=True
    )


def test_the_clerk_invoices_the_years_fee_and_the_run_says_what_it_did(client, sc):
    signed_in(client, sc["sc"])
    before = client.get("/billing/annual-fees/").content.decode()
    fee = "The fee is RGI Annual Restaurant Grease Inspection fee, $312.00 (13.30.050(M))"
    assert fee in before
    assert "2 establishments are active today; 0 have been invoiced it for 2026" in before

    response = start(client)

    html = response.content.decode()
    run = AnnualFeeRun.objects.get()
    assert response.redirect_chain == [(f"/billing/annual-fees/{run.pk}/", 302)]
    assert "Complete: 2 invoices issued, noticed on 2026-01-15" in html
    assert "0 establishments already invoiced the fee for 2026; 0 refused" in html
    assert (run.status, run.issued, run.done, run.total) == ("complete", ["FSE-1", "FSE-2"], 2, 2)
    invoices = Invoice.objects.filter(agency=sc["sc"]).order_by("code")
    assert [(i.code, i.total()) for i in invoices] == [
        ("RGI-2026-FSE-1", Decimal("312.00")),
        ("RGI-2026-FSE-2", Decimal("312.00")),
    ]
    assert AuditEvent.objects.filter(action="annual_fees.start", object_id=str(run.pk)).exists()
    listed = client.get("/billing/annual-fees/").content.decode()
    assert "a run today would invoice 0" in listed and "cleo" in listed


def test_a_second_run_invoices_no_one_twice_and_says_so(client, sc):
    signed_in(client, sc["sc"], role="manager")
    start(client)

    html = start(client, noticed_on="2026-01-20").content.decode()

    assert "Complete: 0 invoices issued" in html
    assert "2 establishments already invoiced the fee for 2026" in html
    assert Invoice.objects.filter(agency=sc["sc"]).count() == 2


def test_a_refused_establishment_is_listed_with_why_and_the_others_are_invoiced(client, sc):
    signed_in(client, sc["sc"])
    invoice_issue(  # the code the run would give FSE-2's invoice, taken by another invoice
        establishment=FoodServiceEstablishment.objects.get(code="FSE-2"),
        code="RGI-2026-FSE-2",
        kind="fee",
        noticed_on=d("2025-12-01"),
        fees=["CLEAN"],
        description="Clean-out",
    )

    html = start(client).content.decode()

    run = AnnualFeeRun.objects.get()
    assert run.issued == ["FSE-1"] and [code for code, _ in run.refused] == ["FSE-2"]
    assert 'id="annual-refused"' in html and "RGI-2026-FSE-2" in run.refused[0][1]
    assert "Correct what each refusal names, then start the run again" in html


@pytest.mark.parametrize(
    "year, noticed_on, says",
    [
        ("2026", "2025-12-31", "The notice date 2025-12-31 is not in 2026."),
        ("2026", "2026-01-21", "The notice date 2026-01-21 is after today (2026-01-20)"),
        ("2026", "2026-02-30", "Enter the notice date as a date (YYYY-MM-DD)."),
        ("twenty", "2026-01-15", "Enter the fee year as a number, such as 2026."),
        ("1999", "1999-01-15", "Enter a fee year from 2000 on."),
    ],
)
def test_bad_input_is_refused_naming_what_is_wrong_and_changes_nothing(
    client, sc, year, noticed_on, says
):
    signed_in(client, sc["sc"])
    response = start(client, year=year, noticed_on=noticed_on)
    assert response.status_code == 400
    assert says in response.content.decode()
    assert not AnnualFeeRun.objects.exists() and not Invoice.objects.exists()


def test_an_agency_charging_no_annual_fee_is_told_why_before_anything_is_done(client, sc):
    signed_in(client, sc["town"], role="manager")
    page = client.get("/billing/annual-fees/").content.decode()
    assert "No annual fee can be invoiced today: The Town has no fee schedule in force" in page

    response = start(client)

    assert response.status_code == 400
    assert "The Town has no fee schedule in force on 2026-01-15." in response.content.decode()
    assert not AnnualFeeRun.objects.exists() and not Invoice.objects.exists()


def test_a_second_run_while_one_is_under_way_is_refused(client, sc):
    signed_in(client, sc["sc"])
    busy = AnnualFeeRun.objects.create(
        agency=sc["sc"],
        year=2026,
        noticed_on=d("2026-01-10"),
        fee_code="RGI",
        status="running",
        total=2,
        done=1,
        progress_at=timezone.now(),
    )

    response = start(client)

    assert response.status_code == 409
    html = response.content.decode()
    assert "Nothing was started: a run is under way" in html
    assert f'href="/billing/annual-fees/{busy.pk}/"' in html
    assert AnnualFeeRun.objects.count() == 1 and not Invoice.objects.exists()


def test_a_run_under_way_is_followed_and_a_stalled_one_queued_again(client, sc):
    signed_in(client, sc["sc"])
    run = AnnualFeeRun.objects.create(
        agency=sc["sc"],
        year=2026,
        noticed_on=d("2026-01-15"),
        fee_code="RGI",
        total=2,
        progress_at=timezone.now(),
    )
    html = client.get(f"/billing/annual-fees/{run.pk}/").content.decode()
    assert "Queued: waiting for a worker to take it." in html
    assert f'hx-get="/billing/annual-fees/{run.pk}/"' in html and 'id="annual-stalled"' not in html
    refused = client.post(f"/billing/annual-fees/{run.pk}/requeue/", follow=True)
    assert "The run is not stalled" in refused.content.decode()
    assert not Invoice.objects.exists()

    AnnualFeeRun.objects.filter(pk=run.pk).update(progress_at=timezone.now() - timedelta(hours=1))
    stalled = client.get(f"/billing/annual-fees/{run.pk}/").content.decode()
    assert "Nothing has moved since" in stalled and "Queue it again" in stalled
    html = client.post(f"/billing/annual-fees/{run.pk}/requeue/", follow=True).content.decode()

    assert "Complete: 2 invoices issued" in html
    assert AuditEvent.objects.filter(action="annual_fees.requeue").count() == 1


def test_a_run_redone_after_its_worker_died_counts_what_it_had_issued_once(sc):
    fse1 = FoodServiceEstablishment.objects.get(code="FSE-1")
    invoice_issue(  # issued by the first attempt before the worker was killed
        establishment=fse1,
        code="RGI-2026-FSE-1",
        kind="fee",
        noticed_on=d("2026-01-15"),
        fees=["RGI"],
        description="Annual Restaurant Grease Inspection fee 2026",
    )
    run = AnnualFeeRun.objects.create(
        agency=sc["sc"],
        year=2026,
        noticed_on=d("2026-01-15"),
        fee_code="RGI",
        status="running",
        total=2,
        done=1,
        issued=["FSE-1"],
    )

    run_annual_fees(run.pk)

    run.refresh_from_db()
    assert (run.status, run.issued, run.already, run.done) == (
        "complete",
        ["FSE-1", "FSE-2"],
        [],
        2,
    )
    assert Invoice.objects.filter(agency=sc["sc"]).count() == 2
    assert run_annual_fees(run.pk).status == "complete"  # a finished run is left as it is
    assert Invoice.objects.filter(agency=sc["sc"]).count() == 2


def test_who_may_start_a_run_and_whose_runs_are_seen(client, sc):
    town_run = AnnualFeeRun.objects.create(
        agency=sc["town"],
        year=2026,
        noticed_on=d("2026-01-15"),
        fee_code="PERMIT",
        status="complete",
    )
    signed_in(client, sc["sc"], role="inspector", username="ian")
    page = client.get("/billing/annual-fees/").content.decode()
    assert 'id="annual-start"' not in page  # the inspector reads, and may not invoice
    assert start(client).status_code == 403
    assert client.get(f"/billing/annual-fees/{town_run.pk}/").status_code == 404
    assert not AnnualFeeRun.objects.filter(agency=sc["sc"]).exists()
