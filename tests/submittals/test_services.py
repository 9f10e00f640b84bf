"""Required reports: the manager requires one of the pack's kinds, the operator submits it,
and the sweep opens `report.overdue` the day after a due date with no report and closes it
on the day the report is submitted."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from fogkeeper.compliance.casefiles.as_json import build_case_file
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.submittals.models import ReportRequirement, ReportSubmission
from fogkeeper.submittals.selectors import due_reports, report_counts, report_id
from fogkeeper.submittals.services import report_end, report_require, report_submit
from tests.records import make_agency, make_establishment

pytestmark = pytest.mark.django_db

REQUIRED = date(2025, 3, 1)
DUE = date(2025, 3, 31)


def pdf(name: str = "report.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, b"%PDF-1.4\n%%EOF\n", content_type="application/pdf")


@pytest.fixture
def fse():
    return make_establishment(make_agency("town-10-02"), code="T-1", opened_on="2020-01-01")


def require(fse, **kw):
    values = {"kind": "bmp_status", "first_due_on": DUE, "required_on": REQUIRED}
    return report_require(establishment=fse, **{**values, **kw})


def findings(fse, as_of: date) -> list[Finding]:
    sweep_establishment(fse, as_of=as_of)
    return list(Finding.objects.filter(establishment=fse, rule="report.overdue"))


def test_it_requires_a_kind_the_pack_declares_and_puts_it_in_the_case_file(fse):
    requirement = require(fse, every_months=3)
    case = build_case_file(fse, date(2025, 7, 1))
    assert case["reports"] == [
        {"id": report_id(requirement.pk, DUE), "kind": "bmp_status", "due_on": "2025-03-31"},
        {"id": report_id(requirement.pk, date(2025, 6, 30)), "kind": "bmp_status",
         "due_on": "2025-06-30"},
        {"id": report_id(requirement.pk, date(2025, 9, 30)), "kind": "bmp_status",
         "due_on": "2025-09-30"},
    ]  # fmt: skip


def test_it_refuses_a_kind_the_pack_does_not_declare_and_keeps_nothing(fse):
    with pytest.raises(ValidationError) as e:
        require(fse, kind="weekly_poem")
    assert "Periodic report on the implementation of BMPs" in str(e.value.message_dict["kind"])
    assert not ReportRequirement.objects.exists()


def test_a_pack_that_declares_no_kinds_requires_none():
    fse = make_establishment(make_agency("us-oh-aurora"), code="A-1")
    with pytest.raises(ValidationError, match="none"):
        require(fse)


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"first_due_on": date(2025, 2, 28)}, "first_due_on"),
        ({"every_months": 0}, "every_months"),
        ({"every_months": 121}, "every_months"),
    ],
)
def test_it_refuses_bad_dates_and_intervals_naming_the_field(fse, changes, field):
    with pytest.raises(ValidationError) as e:
        require(fse, **changes)
    assert field in e.value.message_dict
    assert not ReportRequirement.objects.exists()


def test_the_finding_opens_the_day_after_the_due_date_and_closes_on_submission(fse):
    requirement = require(fse)
    assert findings(fse, DUE) == []
    (f,) = findings(fse, date(2025, 4, 1))
    assert (f.open, f.since, f.citation) == (True, date(2025, 4, 1), "10.02.070(D)")
    report_submit(
        requirement=requirement,
        due_on=DUE,
        submitted_on=date(2025, 4, 10),
        file=pdf(),
        today=date(2025, 4, 10),
    )
    (f,) = findings(fse, date(2025, 4, 10))
    assert (f.open, f.resolved_on) == (False, date(2025, 4, 10))


def test_a_report_submitted_in_time_opens_nothing(fse):
    requirement = require(fse)
    report_submit(requirement=requirement, due_on=DUE, submitted_on=DUE, file=pdf(), today=DUE)
    assert findings(fse, date(2025, 5, 1)) == []
    (row,) = due_reports(fse, date(2025, 5, 1))
    assert row.state == "Submitted 2025-03-31"


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"due_on": date(2025, 4, 30)}, "due_on"),
        ({"submitted_on": date(2025, 4, 11)}, "submitted_on"),
        ({"submitted_on": date(2025, 2, 1)}, "submitted_on"),
        ({"file": SimpleUploadedFile("x.pdf", b"not a pdf")}, "file"),
    ],
)
def test_it_refuses_a_bad_submission_naming_the_field_and_keeps_nothing(fse, changes, field):
    requirement = require(fse)
    values = {"due_on": DUE, "submitted_on": date(2025, 4, 10), "file": pdf()}
    with pytest.raises(ValidationError) as e:
        report_submit(requirement=requirement, today=date(2025, 4, 10), **{**values, **changes})
    assert field in e.value.message_dict
    assert not ReportSubmission.objects.exists()


def test_it_takes_one_report_for_each_due_date(fse):
    requirement = require(fse)
    report_submit(requirement=requirement, due_on=DUE, submitted_on=DUE, file=pdf(), today=DUE)
    with pytest.raises(ValidationError, match="submitted already"):
        report_submit(requirement=requirement, due_on=DUE, submitted_on=DUE, file=pdf(), today=DUE)


def test_an_ended_requirement_falls_due_no_more(fse):
    requirement = require(fse, every_months=1)
    report_end(requirement=requirement, ended_on=date(2025, 4, 30))
    assert requirement.due_dates(date(2025, 12, 31)) == [DUE]


def test_the_annual_report_counts_required_received_and_late(fse):
    requirement = require(fse, every_months=6)  # due 2025-03-31 and 2025-09-30
    report_submit(
        requirement=requirement, due_on=DUE, submitted_on=date(2025, 4, 2), file=pdf(),
        today=date(2025, 4, 2),
    )  # fmt: skip
    counts = report_counts(fse.agency, date(2025, 1, 1), date(2025, 12, 31))
    assert counts == {"bmp_status": {"required": 2, "received": 1, "late": 2}}


def test_the_annual_report_has_a_figure_of_required_reports_by_kind(fse):
    from fogkeeper.reporting.annual import annual_report

    requirement = require(fse)
    report_submit(requirement=requirement, due_on=DUE, submitted_on=DUE, file=pdf(), today=DUE)
    figure = annual_report(agency=fse.agency, year=2025, today=date(2025, 12, 31))[
        "required_reports"
    ]
    assert figure.value == 1
    assert figure.table.rows == [
        ("Periodic report on the implementation of BMPs", "10.02.070(D)", 1, 1, 0),
        ("Self-monitoring report of wastewater constituents and characteristics",
         "10.02.140(C)", 0, 0, 0),
    ]  # fmt: skip


def test_an_annual_report_under_a_pack_with_no_kinds_has_no_such_figure():
    from fogkeeper.reporting.annual import annual_report

    agency = make_agency("us-oh-aurora")
    keys = [f.key for f in annual_report(agency=agency, year=2025, today=date(2025, 6, 1)).figures]
    assert "required_reports" not in keys


# the Town's monitoring at the permittee's cost (10.02.140(C))


def monitoring(requirement, **kw):
    from decimal import Decimal

    from fogkeeper.submittals.services import report_monitoring_bill

    values = {"due_on": DUE, "performed_on": date(2025, 4, 8), "cost": Decimal("412.50")}
    return report_monitoring_bill(
        requirement=requirement, today=date(2025, 4, 10), **{**values, **kw}
    )


def test_the_agency_bills_its_monitoring_of_a_self_monitoring_report_not_done(fse):
    done = monitoring(require(fse, kind="self_monitoring"))
    invoice = done.invoice
    (line,) = invoice.lines.all()
    assert (invoice.kind, invoice.noticed_on) == ("noncompliance", date(2025, 4, 10))
    assert (str(line.amount), line.citation) == ("412.50", "10.02.140(C)")
    assert "Monitoring by the Town on 2025-04-08" in line.description
    (row,) = due_reports(fse, date(2025, 4, 10))
    assert row.state == f"Not submitted; monitored 2025-04-08, billed on {invoice.code}"


@pytest.mark.parametrize(
    "kind, changes, field",
    [
        ("bmp_status", {}, "due_on"),  # 10.02.070(D) says nothing of monitoring at cost
        ("self_monitoring", {"performed_on": date(2025, 3, 31)}, "performed_on"),
        ("self_monitoring", {"performed_on": date(2025, 4, 11)}, "performed_on"),
        ("self_monitoring", {"due_on": date(2025, 4, 30)}, "due_on"),
        ("self_monitoring", {"cost": 0}, "cost"),
    ],
)
def test_a_monitoring_the_ordinance_does_not_allow_is_refused_and_bills_nothing(
    fse, kind, changes, field
):
    from fogkeeper.billing.models import Invoice

    with pytest.raises(ValidationError) as e:
        monitoring(require(fse, kind=kind), **changes)
    assert field in e.value.message_dict
    assert not Invoice.objects.exists()


def test_a_submitted_or_already_billed_due_date_is_not_billed_again(fse):
    requirement = require(fse, kind="self_monitoring")
    monitoring(requirement)
    with pytest.raises(ValidationError, match="billed already"):
        monitoring(requirement)
    other = require(fse, kind="self_monitoring")
    report_submit(requirement=other, due_on=DUE, submitted_on=date(2025, 4, 2), file=pdf(),
                  today=date(2025, 4, 2))  # fmt: skip
    with pytest.raises(ValidationError, match="was submitted"):
        monitoring(other)
