"""`manage.py send_reminders [--as-of DATE] [--days N] [--agency CODE]`: email operators
what falls due soon and what is overdue (fogkeeper/portal/reminders.py). Run it daily,
after the sweep."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from fogkeeper.compliance.management.commands.sweep import _agencies, _as_of
from fogkeeper.portal.reminders import send_reminders

DEFAULT_DAYS = 14


class Command(BaseCommand):
    help = (
        "Email each operator (Operator.email) the pump-outs, BMP trainings and permit "
        "renewals of its establishments that fall due within --days of --as-of, from the "
        "schedule of the last sweep, citing the law, and what of theirs is overdue, with its "
        "fine to date. Each reminder of what falls due is sent once; one of what is overdue "
        "at most once a week until it is done."
    )

    def add_arguments(self, parser):
        parser.add_argument("--as-of", metavar="YYYY-MM-DD", help="today (default: today)")
        parser.add_argument(
            "--days",
            type=int,
            default=DEFAULT_DAYS,
            help=f"remind of what falls due within this many days (default {DEFAULT_DAYS})",
        )
        parser.add_argument("--agency", metavar="CODE", help="only this agency's operators")

    def handle(self, *args, as_of=None, days=DEFAULT_DAYS, agency=None, **options):
        if days < 0:
            raise CommandError(f"--days: not a number of days ahead: {days}")
        day = (_as_of(as_of) if as_of else None) or timezone.localdate()
        agencies = _agencies(agency) if agency else None
        summary = send_reminders(as_of=day, days=days, agencies=agencies)
        for line in summary.lines():
            self.stdout.write(line)
