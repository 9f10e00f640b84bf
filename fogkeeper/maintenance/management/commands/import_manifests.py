"""`manage.py import_manifests FILE --agency ID`: hauler pump-out manifests from a CSV file;
the establishments given new pump-outs are evaluated again (in tasks of a batch each, on the
workers when a broker is set, else here)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from fogkeeper.maintenance.manifests import COLUMNS, ManifestImportError, manifests_import
from fogkeeper.registry.models import Agency


def find_agency(value: str) -> Agency:
    agency = Agency.objects.filter(code=value).first()
    if agency is None and value.isdigit():
        agency = Agency.objects.filter(pk=int(value)).first()
    if agency is None:
        raise CommandError(f"no agency {value!r} (give its code or id)")
    return agency


class Command(BaseCommand):
    help = (
        "Import hauler pump-out manifests from a CSV file with the columns "
        + ", ".join(COLUMNS)
        + ". Every row is checked first; a file with any bad row imports nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--agency", required=True, help="the agency's code or id")

    def handle(self, *args, **options):
        agency = find_agency(options["agency"])
        today = agency.today()
        try:
            result = manifests_import(
                agency=agency,
                path=options["file"],
                today=today,
                progress=self.stdout.write,
            )
        except ManifestImportError as exc:
            for line in exc.problems:
                self.stderr.write(line)
            count = len(exc.problems)
            raise CommandError(
                f"{options['file']}: {count} problem{'s' if count > 1 else ''}; "
                "nothing was imported"
            ) from exc
        self.stdout.write(
            f"{result.file}: {result.rows} rows, {result.created} services created, "
            f"{result.already_imported} already imported"
        )
        if result.establishments:
            count = len(result.establishments)
            done = "evaluated again" if settings.CELERY_TASK_ALWAYS_EAGER else "queued to evaluate"
            self.stdout.write(f"{count} establishment{'s' if count > 1 else ''} {done}")
