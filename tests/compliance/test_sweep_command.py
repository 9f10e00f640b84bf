"""`manage.py sweep`."""

from datetime import UTC, date, datetime
from io import StringIO

import pytest
import time_machine
from django.core.management import CommandError, call_command

from fogkeeper.compliance.models import ComplianceStatus, SweepRun
from fogkeeper.registry.models import OperatorTenure
from tests.compliance.records import make_pier_taqueria
from tests.records import make_agency

pytestmark = pytest.mark.django_db


def sweep(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("sweep", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_prints_progress_and_a_summary():
    agency = make_agency()
    for i in range(3):
        make_pier_taqueria(agency, f"FSE-{i}")

    out, err = sweep("--agency", "san-clemente", "--as-of", "2025-06-30", "--batch-size", "2")

    lines = out.splitlines()
    assert lines[0] == "Sweeping City of San Clemente (san-clemente) as of 2025-06-30"
    assert lines[1:3] == ["  2/3 establishments (66%)", "  3/3 establishments (100%)"]
    assert lines[3] == "  3 establishments: 18 findings opened, 15 closed, 0 changed, 0 errors"
    assert lines[4].startswith("  ") and lines[4].endswith(" queries")
    assert err == ""
    assert SweepRun.objects.get().as_of == date(2025, 6, 30)


def test_it_sweeps_every_agency_by_default():
    make_pier_taqueria(make_agency(code="one"), "FSE-1")
    make_pier_taqueria(make_agency(code="two"), "FSE-2")

    out, _ = sweep("--as-of", "2025-06-30")

    assert "(one) as of 2025-06-30" in out and "(two) as of 2025-06-30" in out
    assert ComplianceStatus.objects.count() == 2


def test_it_takes_an_agency_by_id():
    agency = make_agency()

    out, _ = sweep("--agency", str(agency.pk), "--as-of", "2025-06-30")

    assert "0 establishments" in out


def test_it_sweeps_as_of_today_in_california():
    agency = make_agency()
    make_pier_taqueria(agency)

    with time_machine.travel(datetime(2025, 7, 1, 5, 0, tzinfo=UTC), tick=False):
        out, _ = sweep("--agency", "san-clemente")

    assert "as of 2025-06-30" in out
    assert SweepRun.objects.get(agency=agency).as_of == date(2025, 6, 30)


def test_it_sweeps_each_agency_as_of_today_in_its_own_time_zone():
    make_agency()
    make_agency("us-oh-aurora", code="aurora")

    # 22:00 on June 30 in San Clemente is 01:00 on July 1 in Aurora, Ohio
    with time_machine.travel(datetime(2025, 7, 1, 5, 0, tzinfo=UTC), tick=False):
        out, _ = sweep()

    assert "(aurora) as of 2025-07-01" in out and "(san-clemente) as of 2025-06-30" in out
    runs = SweepRun.objects.order_by("agency__code").values_list("agency__code", "as_of")
    assert list(runs) == [("aurora", date(2025, 7, 1)), ("san-clemente", date(2025, 6, 30))]


def test_it_lists_the_case_files_in_error():
    agency = make_agency()
    bad = make_pier_taqueria(agency, "FSE-BAD")
    OperatorTenure.objects.filter(establishment=bad).delete()

    out, err = sweep("--agency", "san-clemente", "--as-of", "2025-06-30")

    assert "1 errors" in out
    assert err == "  FSE-BAD: establishment.operator: required\n"


def test_it_refuses_an_unknown_agency():
    make_agency()

    with pytest.raises(CommandError, match="no agency 'nowhere'.*known: san-clemente"):
        sweep("--agency", "nowhere", "--as-of", "2025-06-30")


def test_it_refuses_a_bad_date():
    make_agency()

    with pytest.raises(CommandError, match=r"--as-of: not a date \(YYYY-MM-DD\): '2025-02-30'"):
        sweep("--as-of", "2025-02-30")


def test_it_refuses_a_batch_of_no_establishments():
    with pytest.raises(CommandError, match="--batch-size must be at least 1"):
        sweep("--batch-size", "0", "--as-of", "2025-06-30")
