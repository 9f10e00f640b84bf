"""`manage.py invoice_annual_fees --agency CODE --year YYYY [--on DATE]`: invoice the annual
inspection fee (San Clemente 13.30.050(M)) once per active establishment per year. Run it
yearly; a second run adds nothing and says so."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from fogkeeper.billing.annual import NoAnnualFee, invoice_annual_fees
from fogkeeper.registry.models import Agency


class Command(BaseCommand):
    help = (
        "Issue one fee invoice for the annual inspection fee, from the fee schedule in force "
        "on --on (default today), to each active establishment of --agency not yet invoiced "
        "it for --year; print what was issued, already invoiced, or refused and why."
    )

    def add_arguments(self, parser):
        parser.add_argument("--agency", required=True, metavar="CODE")
        parser.add_argument("--year", required=True, type=int, metavar="YYYY")
        parser.add_argument("--on", metavar="YYYY-MM-DD", help="the date of notice")

    def handle(self, *args, agency, year, on=None, **options):
        found = Agency.objects.filter(code=agency).first()
        if found is None:
            raise CommandError(f"--agency: no agency {agency}")
        try:
            day = date.fromisoformat(on) if on else timezone.localdate()
        except ValueError as e:
            raise CommandError(f"--on: not a date (YYYY-MM-DD): {on}") from e
        try:
            run = invoice_annual_fees(agency=found, year=year, on=day)
        except NoAnnualFee as e:
            raise CommandError(str(e)) from e
        for line in run.lines():
            self.stdout.write(line)
