"""The reports pages (fogkeeper/web/reports/annual.py): every staff role reads the annual report of
the FOG program, as a page, a PDF and a workbook (the auditor above all, who writes nothing);
the outside roles never see it. The formats are the page's own URL (`&format=pdf`, `xlsx`):
tests/web/reports/test_annual_report.py reads them as the auditor."""

TABLE = """
web:annual_report                   GET   ok    ok    ok    ok    404   404   404   own   login
web:annual_report                   POST  405   405   405   405   404   404   404   own   login
"""
