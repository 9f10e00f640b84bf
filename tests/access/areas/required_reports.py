"""The required reports' pages (issue 42): the staff page of an establishment's required
reports (every staff role reads it; the manager requires one, "report_requirement"), the
page recording the agency's monitoring at cost, a submitted report's file, and the operator's
page submitting one ("report"). Agency A's ordinance (San Clemente) declares no kinds of
report, so no report can be required there, and no page of one is there for anyone: 404, as
the design exception's page under an ordinance that allows none. A requirement of a kind the
pack does not declare is not put on record by hand either: its establishment's case file
would be refused (a kind the pack asks none of), and the evaluations of the world's other
tests with it. The roles' own answers on the Town, whose ordinance declares two kinds, are
tested in tests/web/submittals and tests/portal/test_operator_reports.py."""

TABLE = """
web:required_reports                GET   404   404   404   404   404   404   404   404   login
web:required_reports                POST  404   404   404   404   404   404   404   404   login
web:report_monitoring               GET   404   404   404   404   404   404   404   404   login
web:report_monitoring               POST  404   404   404   404   404   404   404   404   login
web:report_file                     GET   404   404   404   404   404   404   404   404   login
web:report_file                     POST  404   404   404   404   404   404   404   404   login
portal:operator_reports             GET   404   404   404   404   404   404   404   404   login
portal:operator_reports             POST  404   404   404   404   404   404   404   404   login
"""


def _requirement(side) -> dict:
    """The URL of a requirement that is not there (none can be, under this pack)."""
    fse = side.mine("manager")
    return {"code": fse.code, "requirement": 0, "due": fse.opened_on.isoformat()}


def _submission(side) -> dict:
    return {"code": side.mine("manager").code, "submission": 0}


RECORDS = {"web:report_monitoring": _requirement, "web:report_file": _submission}
