"""Write onto each permit the terms of its modifications in effect today (or `--on`), then
evaluate the establishments concerned again. Safe to run any number of times a day."""

from datetime import date

from django.core.management.base import BaseCommand
from django.utils import timezone

from fogkeeper.permits.services import permit_modifications_apply
from fogkeeper.queue import reevaluate_now


class Command(BaseCommand):
    help = "Apply the permit modifications in effect on a date (default today)."

    def add_arguments(self, parser):
        parser.add_argument("--on", type=date.fromisoformat, default=None)

    def handle(self, *args, on=None, **options):
        on = on or timezone.localdate()
        applied = permit_modifications_apply(on=on)
        by_agency: dict = {}
        for m in applied:
            establishment = m.permit.establishment
            by_agency.setdefault(establishment.agency, set()).add(establishment.pk)
        for agency, ids in by_agency.items():
            reevaluate_now(agency, ids, as_of=on)
        for m in applied:
            self.stdout.write(f"{m.permit.number}: terms of {m.effective_on} applied")
        self.stdout.write(f"{len(applied)} modification(s) applied on {on}.")
