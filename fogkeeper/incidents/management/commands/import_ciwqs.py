"""`manage.py import_ciwqs FILE --agency ID`: spills from the State Water Board's CIWQS
private lateral sewage discharge export become incidents of the agency, one whose pack's State
pack reports in CIWQS (California's General Order); any other agency's is refused."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from fogkeeper.incidents.ciwqs import CiwqsClash, CiwqsFileError, ciwqs_import
from fogkeeper.incidents.reporting_pack import of_agency
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
        "Import the CIWQS private lateral sewage discharge export (Latin-1 CSV, as the State "
        "Water Board publishes it): spills become incidents, matched to establishments by "
        "address. Rows without a spill id or a date are skipped and listed."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--agency", required=True, help="the agency's code or id")
        parser.add_argument(
            "--wdid",
            action="append",
            default=[],
            help="only spills of this sewer system (the export's WDID column; repeatable)",
        )

    def handle(self, *args, **options):
        agency = find_agency(options["agency"])
        state = of_agency(agency)
        if state is None or state.system != "CIWQS":
            raise CommandError(
                f"{agency.name} does not report spills in CIWQS: its ordinance pack names "
                f"{'no State spill reporting' if state is None else state.order}; "
                "nothing was imported"
            )
        try:
            result = ciwqs_import(
                agency=agency,
                path=options["file"],
                progress=self.stdout.write,
                wdids=options["wdid"],
            )
        except CiwqsFileError as exc:
            raise CommandError(f"{exc}; nothing was imported") from exc
        except CiwqsClash as exc:
            raise CommandError(str(exc)) from exc
        for line in result.summary():
            self.stdout.write(line)
        if result.establishments:
            count = len(result.establishments)
            done = "evaluated again" if settings.CELERY_TASK_ALWAYS_EAGER else "queued to evaluate"
            self.stdout.write(f"{count} establishment{'s' if count > 1 else ''} {done}")
