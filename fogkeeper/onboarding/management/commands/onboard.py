"""`manage.py onboard FILE --agency CODE --kind KIND [--dry-run]`: one spreadsheet of an
agency's records (CSV or XLSX); `--blank KIND --format csv|xlsx` writes the blank one."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from fogkeeper.maintenance.management.commands.import_manifests import find_agency
from fogkeeper.onboarding.blank import blank
from fogkeeper.onboarding.importer import OnboardingError, onboard
from fogkeeper.onboarding.kinds import KINDS
from fogkeeper.rules.packs import default_registry


class Command(BaseCommand):
    help = (
        "Onboard an agency's records from a CSV or XLSX file, one kind per file ("
        + ", ".join(KINDS)
        + "). Every row is checked; a file with any problem stores nothing. --dry-run "
        "says what would be created and updated and stores nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the spreadsheet (or, with --blank, where to write it)")
        parser.add_argument("--agency", required=True, help="the agency's code or id")
        parser.add_argument("--kind", choices=sorted(KINDS), required=True)
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("--blank", action="store_true", help="write the blank file instead")
        parser.add_argument("--format", choices=("csv", "xlsx"), default="xlsx")

    def handle(self, *args, **options):
        agency = find_agency(options["agency"])
        path = Path(options["file"])
        if options["blank"]:
            pack = default_registry().get(agency.pack)
            path.write_bytes(blank(options["kind"], pack, options["format"]))
            self.stdout.write(f"{path}: the blank {options['kind']} file of {agency.name}")
            return
        try:
            data = path.read_bytes()
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror}") from None
        try:
            outcome = onboard(
                agency=agency, kind=options["kind"], data=data, name=path.name,
                today=agency.today(), dry_run=options["dry_run"],
            )  # fmt: skip
        except OnboardingError as e:
            raise CommandError(f"{e}; nothing was stored") from None
        for problem in outcome.problems:
            self.stderr.write(str(problem))
        self.stdout.write(outcome.summary())
        if outcome.problems:
            count = len(outcome.problems)
            raise CommandError(f"{count} problem{'s' * (count > 1)}; nothing was stored")
        if outcome.dry_run:
            self.stdout.write("a dry run: nothing was stored")
