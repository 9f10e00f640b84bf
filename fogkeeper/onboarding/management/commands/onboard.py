"""`manage.py onboard FILE... --agency CODE [--kind KIND] [--dry-run]`: spreadsheets of an
agency's records (CSV or XLSX), one kind per file, imported in the order given, each in a
transaction of its own; a file's kind is `--kind`, or what its name says as the export names
it (`07-pumpouts-02.xlsx`). `--blank --kind KIND --format csv|xlsx FILE` writes the blank
file of a kind."""

import time
from contextlib import nullcontext
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from fogkeeper.maintenance.management.commands.import_manifests import find_agency
from fogkeeper.onboarding.blank import blank
from fogkeeper.onboarding.catalog import KINDS
from fogkeeper.onboarding.export import kind_of
from fogkeeper.onboarding.importer import OnboardingError, onboard
from fogkeeper.rules.packs import default_registry


class Command(BaseCommand):
    help = (
        "Onboard an agency's records from CSV or XLSX files, one kind per file ("
        + ", ".join(KINDS)
        + "), in the order given. Every row is checked; a file with any problem stores "
        "nothing, and the files after it are not read. --dry-run says what would be created "
        "and updated and stores nothing (each file checked as if those before it were in)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "files",
            nargs="+",
            metavar="FILE",
            help="the spreadsheets, in order (or, with --blank, where to write it)",
        )
        parser.add_argument("--agency", required=True, help="the agency's code or id")
        parser.add_argument(
            "--kind",
            choices=sorted(KINDS),
            help="what every file holds (default: what each file's name says, as NN-KIND.xlsx)",
        )
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("--blank", action="store_true", help="write the blank file instead")
        parser.add_argument("--format", choices=("csv", "xlsx"), default="xlsx")

    def handle(self, *args, **options):
        agency = find_agency(options["agency"])
        paths = [Path(f) for f in options["files"]]
        if options["blank"]:
            self._blank(agency, paths, options)
            return
        files = [(path, options["kind"] or self._kind(path)) for path in paths]
        # a dry run imports each file and rolls all back: each is checked against the others
        with transaction.atomic() if options["dry_run"] else nullcontext():
            for number, (path, kind) in enumerate(files):
                self._import(agency, path, kind, options["dry_run"], before=number)
            if options["dry_run"]:
                transaction.set_rollback(True)
                self.stdout.write("a dry run: nothing was stored")

    def _blank(self, agency, paths, options) -> None:
        if options["kind"] is None or len(paths) != 1:
            raise CommandError("--blank writes one file: give its path and --kind")
        pack = default_registry().get(agency.pack)
        paths[0].write_bytes(blank(options["kind"], pack, options["format"]))
        self.stdout.write(f"{paths[0]}: the blank {options['kind']} file of {agency.name}")

    def _kind(self, path: Path) -> str:
        kind = kind_of(path)
        if kind is None:
            raise CommandError(
                f"{path.name}: its name does not say which kind of record it holds; give "
                f"--kind, or name it as the export does (NN-KIND.xlsx; kinds: {', '.join(KINDS)})"
            )
        return kind

    def _import(self, agency, path: Path, kind: str, dry_run: bool, *, before: int) -> None:
        """One file, in its own transaction (in a dry run, inside the one rolled back at the
        end)."""
        try:
            data = path.read_bytes()
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror}{_kept(before, dry_run)}") from None
        started = time.perf_counter()
        try:
            outcome = onboard(
                agency=agency,
                kind=kind,
                data=data,
                name=path.name,
                today=agency.today(),
                dry_run=False,
            )
        except OnboardingError as e:
            raise CommandError(f"{e}; nothing was stored{_kept(before, dry_run)}") from None
        outcome.dry_run = dry_run
        for problem in outcome.problems:
            self.stderr.write(str(problem))
        seconds = time.perf_counter() - started
        self.stdout.write(f"{outcome.summary()} ({seconds:.1f} s)")
        for warning in outcome.warnings:
            self.stdout.write(f"warning: {warning}")
        if outcome.problems:
            count = len(outcome.problems)
            raise CommandError(
                f"{path.name}: {count} problem{'s' * (count > 1)}; nothing was stored"
                f"{_kept(before, dry_run)}"
            )


def _kept(before: int, dry_run: bool) -> str:
    if not before or dry_run:
        return ""
    return f" of it (the {before} file{'s' * (before > 1)} before it were stored)"
