"""The required reports' pages (issue 42): the staff page of an establishment's required
reports (every staff role reads it; the manager requires one, "report_requirement") and the
operator's page submitting one ("report"). Agency A's ordinance (San Clemente) declares no
kinds of report, so neither page is there for anyone: 404, as the design exception's page
under an ordinance that allows none. The roles' own answers on the Town, whose ordinance
declares two kinds, are tested in tests/web/submittals and tests/portal/test_operator_reports.py."""

TABLE = """
web:required_reports                GET   404   404   404   404   404   404   404   404   login
web:required_reports                POST  404   404   404   404   404   404   404   404   login
portal:operator_reports             GET   404   404   404   404   404   404   404   404   login
portal:operator_reports             POST  404   404   404   404   404   404   404   404   login
"""
