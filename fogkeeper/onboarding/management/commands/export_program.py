"""`manage.py export_program --agency CODE --out DIR [--format csv|xlsx]`: the agency's
program as onboarding files, one per kind of record (fogkeeper/onboarding/export.py), which
`manage.py onboard --agency OTHER DIR/*` brings into another agency."""

from pathlib import Path

from django.core.management.base import BaseCommand

from fogkeeper.maintenance.management.commands.import_manifests import find_agency
from fogkeeper.onboarding.export import FORMATS, export_program


class Command(BaseCommand):
    help = (
        "Write an agency's program as onboarding files, one per kind of record in the order "
        "they are imported (a kind of more than 100,000 rows split into numbered files)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--agency", required=True, help="the agency's code or id")
        parser.add_argument("--out", required=True, help="the folder to write the files in")
        parser.add_argument("--format", choices=FORMATS, default="xlsx")

    def handle(self, *args, **options):
        agency = find_agency(options["agency"])
        files = export_program(
            agency,
            Path(options["out"]),
            file_format=options["format"],
            progress=lambda line: self.stdout.write(f"  {line}"),
        )
        self.stdout.write(f"{len(files)} files of {agency.name} in {options['out']}")
