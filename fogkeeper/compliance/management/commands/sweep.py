"""`manage.py sweep [--agency CODE] [--as-of DATE] [--batch-size N]`: evaluate every
establishment and store its status and findings (fogkeeper/compliance/sweep.py)."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.compliance.sweep import SweepResult
from fogkeeper.permits.services import permit_modifications_apply
from fogkeeper.registry.models import Agency

ERRORS_SHOWN = 20


def _as_of(value: str | None) -> date | None:
    """The day asked for; None for each agency's own today (in its pack's time zone)."""
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--as-of: not a date (YYYY-MM-DD): {value!r}") from None


def _agencies(value: str | None) -> list[Agency]:
    if value is None:
        agencies = list(Agency.objects.order_by("code"))
        if not agencies:
            raise CommandError("there is no agency to sweep")
        return agencies
    agency = Agency.objects.filter(code=value).first()
    if agency is None and value.isdigit():
        agency = Agency.objects.filter(pk=int(value)).first()
    if agency is None:
        known = ", ".join(Agency.objects.order_by("code").values_list("code", flat=True))
        raise CommandError(f"no agency {value!r} (give its code or id; known: {known or 'none'})")
    return [agency]


class Command(BaseCommand):
    help = (
        "Evaluate every establishment of an agency (default: of every agency) on a date "
        "(default: today where the agency is, in its pack's time zone) and store its "
        "compliance status and findings, writing only what changed. Safe to re-run, for any "
        "past date too."
    )

    def add_arguments(self, parser):
        parser.add_argument("--agency", metavar="CODE", help="the agency's code (or id)")
        parser.add_argument("--as-of", metavar="YYYY-MM-DD", help="the date to evaluate on")
        parser.add_argument(
            "--batch-size",
            type=int,
            default=1000,
            metavar="N",
            help="establishments loaded and stored together (default 1000)",
        )

    def handle(self, *args, **options):
        asked = _as_of(options["as_of"])
        batch_size = options["batch_size"]
        if batch_size < 1:
            raise CommandError("--batch-size must be at least 1")
        for agency in _agencies(options["agency"]):
            as_of = asked or agency.today()
            if asked is None:
                self._apply_permit_modifications(agency, as_of)
            self.stdout.write(f"Sweeping {agency.name} ({agency.code}) as of {as_of}")

            def progress(done: int, total: int) -> None:
                self.stdout.write(f"  {done}/{total} establishments ({done * 100 // total}%)")

            result = sweep_agency(agency, as_of=as_of, batch_size=batch_size, progress=progress)
            self._summary(result)

    def _apply_permit_modifications(self, agency: Agency, today: date) -> None:
        """Tonight's sweep first puts on each permit the modified terms taking effect today
        (a sweep of a past day changes no permit)."""
        applied = permit_modifications_apply(on=today, agency=agency)
        for m in applied:
            self.stdout.write(f"  {m.permit.number}: modified terms of {m.effective_on} applied")

    def _summary(self, result: SweepResult) -> None:
        t = result.timings
        self.stdout.write(
            f"  {result.establishments} establishments: {result.opened} findings opened, "
            f"{result.closed} closed, {result.changed} changed, {len(result.errors)} errors"
        )
        self.stdout.write(
            f"  {sum(t.values()):.1f} s (load {t['load']:.1f} s, evaluate {t['evaluate']:.1f} s, "
            f"store {t['store']:.1f} s), {result.queries} queries"
        )
        for error in result.errors[:ERRORS_SHOWN]:
            for problem in error["problems"]:
                self.stderr.write(f"  {error['establishment']}: {problem}")
        if len(result.errors) > ERRORS_SHOWN:
            self.stderr.write(
                f"  ... and {len(result.errors) - ERRORS_SHOWN} more establishments with errors "
                f"(sweep run {result.run.pk})"
            )
