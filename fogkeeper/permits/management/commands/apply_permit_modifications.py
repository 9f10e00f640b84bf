"""Write onto each permit the terms of its modifications in effect today (or `--on`), each
establishment concerned evaluated again as it commits (permits.services). Safe to run any
number of times a day."""

from datetime import date

from django.core.management.base import BaseCommand
from django.utils import timezone

from fogkeeper.permits.services import permit_modifications_apply


class Command(BaseCommand):
    help = "Apply the permit modifications in effect on a date (default today)."

    def add_arguments(self, parser):
        parser.add_argument("--on", type=date.fromisoformat, default=None)

    def handle(self, *args, on=None, **options):
        on = on or timezone.localdate()
        applied = permit_modifications_apply(on=on)
        for m in applied:
            self.stdout.write(f"{m.permit.number}: terms of {m.effective_on} applied")
        self.stdout.write(f"{len(applied)} modification(s) applied on {on}.")
