"""`manage.py annual_report --agency CODE --year YYYY [--format text|pdf|xlsx] [--output PATH]`:
the annual report of an agency's FOG program, as the page /reports/annual/ shows it."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from fogkeeper.registry.models import Agency
from fogkeeper.reporting.annual import YearRefused, annual_report, check_year, report_text
from fogkeeper.reporting.annual_documents import annual_pdf, annual_workbook, filename


class Command(BaseCommand):
    help = (
        "The figures of --agency's FOG program for calendar --year, each with how it was "
        "computed: as text (printed, the default), a PDF or an Excel workbook (written to "
        "--output, by default <agency>-annual-report-<year>.<pdf|xlsx> here)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--agency", required=True, metavar="CODE")
        parser.add_argument("--year", required=True, metavar="YYYY")
        parser.add_argument("--format", choices=("text", "pdf", "xlsx"), default="text")
        parser.add_argument("--output", metavar="PATH", help="where to write the report")

    def handle(self, *args, agency, year, format, output=None, **options):
        found = Agency.objects.filter(code__iexact=agency).first()
        if found is None:
            known = ", ".join(Agency.objects.order_by("code").values_list("code", flat=True))
            raise CommandError(f"--agency: no agency {agency!r} (known: {known or 'none'})")
        today = timezone.localdate()
        try:
            year = check_year(found, year, today)
        except YearRefused as e:
            raise CommandError(f"--year: {e}") from e
        report = annual_report(agency=found, year=year, today=today)
        if format == "text":
            text = report_text(report)
            if output:
                Path(output).write_text(text, encoding="utf-8")
                self.stdout.write(f"Wrote {output}")
            else:
                self.stdout.write(text)
            return
        path = Path(output or filename(report, format))
        try:
            if format == "pdf":
                path.write_bytes(annual_pdf(report))
            else:
                annual_workbook(report, str(path))
        except OSError as e:
            raise CommandError(f"--output: cannot write {path}: {e.strerror}") from e
        self.stdout.write(f"Wrote {path}")
