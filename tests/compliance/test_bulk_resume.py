"""A bulk notice stopped halfway (a restart) is finished by `resume_bulk_notices`: what was
sent before is not sent again."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from fogkeeper.compliance.from_findings import _send_one, bulk_notice_start
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import BulkNotice, Letter
from tests.compliance.records import make_pier_taqueria
from tests.records import d
from tests.web.people import two_agencies

pytestmark = pytest.mark.django_db


def test_a_run_stopped_halfway_is_finished_without_sending_twice():
    sc, _ = two_agencies()
    for code in ("FSE-0042", "FSE-0043"):
        make_pier_taqueria(sc, code=code)
    sweep_agency(sc, as_of=d("2025-06-06"))
    run = bulk_notice_start(
        agency=sc,
        rule="gcd.service_overdue",
        codes=["FSE-0042", "FSE-0043"],
        fields={"delivered_on": "2025-06-06", "correct_by": "2025-07-06"},
        delivery="personal",
        as_of=d("2025-06-06"),
    )
    first = _send_one(run, "FSE-0042", 0)  # the first establishment, then the restart
    BulkNotice.objects.filter(pk=run.pk).update(done=1, sent=[first])
    out = StringIO()
    call_command("resume_bulk_notices", stdout=out)
    run.refresh_from_db()
    assert run.finished_at is not None and run.done == 2
    assert sorted(r["establishment"] for r in run.sent) == ["FSE-0042", "FSE-0043"]
    assert Letter.objects.filter(action__establishment__code="FSE-0042").count() == 1
    assert "1 more done; 2 sent, 0 refused in all." in out.getvalue()
    call_command("resume_bulk_notices", stdout=out)
    assert "No bulk notice is unfinished." in out.getvalue()
