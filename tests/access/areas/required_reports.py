"""The required reports' pages (issue 42): the staff page of an establishment's required
reports (every staff role reads it; the manager requires one, "report_requirement") and the
operator's page submitting one ("report"). Agency A's ordinance (San Clemente) declares no
kinds of report, so neither page is there for anyone: 404, as the design exception's page
under an ordinance that allows none. The roles' own answers on the Town, whose ordinance
declares two kinds, are tested in tests/web/submittals and tests/portal/test_operator_reports.py.
The page recording the agency's monitoring at cost is named with a requirement put on record
by hand (no service makes one under a pack with no kinds): it is not there either. A report's
file, put on record by hand too, is every staff role's to read, and no one's outside it."""

from django.core.files.base import ContentFile

from fogkeeper.submittals.models import ReportRequirement, ReportSubmission

TABLE = """
web:required_reports                GET   404   404   404   404   404   404   404   404   login
web:required_reports                POST  404   404   404   404   404   404   404   404   login
web:report_monitoring               GET   404   404   404   404   404   404   404   404   login
web:report_monitoring               POST  404   404   404   404   404   404   404   404   login
web:report_file                     GET   ok    ok    ok    ok    404   404   404   404   login
web:report_file                     POST  405   405   405   405   404   404   404   404   login
portal:operator_reports             GET   404   404   404   404   404   404   404   404   login
portal:operator_reports             POST  404   404   404   404   404   404   404   404   login
"""


def _requirement(side) -> dict:
    fse = side.mine("manager")
    requirement = ReportRequirement.objects.create(
        establishment=fse,
        kind="self_monitoring",
        required_on=fse.opened_on,
        first_due_on=fse.opened_on,
    )
    return {"code": fse.code, "requirement": requirement.pk, "due": fse.opened_on.isoformat()}


def _submission(side) -> dict:
    kwargs = _requirement(side)
    submission = ReportSubmission(
        requirement_id=kwargs["requirement"], due_on=kwargs["due"], submitted_on=kwargs["due"]
    )
    submission.file.save("report.pdf", ContentFile(b"%PDF-1.4\n%%EOF\n"), save=False)
    submission.save()
    return {"code": kwargs["code"], "submission": submission.pk}


RECORDS = {"web:report_monitoring": _requirement, "web:report_file": _submission}
