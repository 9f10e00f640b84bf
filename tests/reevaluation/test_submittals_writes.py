"""Each write of required reports (requiring one, ending one, submitting one) evaluates the
establishment again as it commits; on the Town, whose ordinance declares kinds of report."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from fogkeeper.submittals.services import (
    report_end,
    report_monitoring_bill,
    report_require,
    report_submit,
)
from tests.reevaluation import check_write, today

pytestmark = pytest.mark.django_db


def _required(fse):
    day = today(fse)
    return report_require(establishment=fse, kind="bmp_status", first_due_on=day, required_on=day)


def _submit(fse):
    requirement, day = _required(fse), today(fse)
    pdf = SimpleUploadedFile("r.pdf", b"%PDF-1.4\n%%EOF\n")
    return lambda: report_submit(
        requirement=requirement, due_on=day, submitted_on=day, file=pdf, today=day
    )


def _monitoring(fse):
    day = today(fse)
    requirement = report_require(
        establishment=fse,
        kind="self_monitoring",
        first_due_on=day - timedelta(days=10),
        required_on=day - timedelta(days=20),
    )
    return lambda: report_monitoring_bill(
        requirement=requirement,
        due_on=day - timedelta(days=10),
        performed_on=day,
        cost=Decimal("100"),
        today=day,
    )


WRITES = {
    report_require: lambda fse: lambda: _required(fse),
    report_end: lambda fse: (
        lambda requirement: lambda: report_end(requirement=requirement, ended_on=date(2099, 1, 1))
    )(_required(fse)),
    report_submit: _submit,
    report_monitoring_bill: _monitoring,
}


@pytest.mark.parametrize("service", list(WRITES), ids=[f.__name__ for f in WRITES])
def test_the_write_evaluates_its_establishment_again_as_it_commits(service):
    check_write(WRITES[service], pack="town-10-02")
