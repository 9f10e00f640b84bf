"""`manage.py generate --establishments N --years Y [--pack PACK] [--agency-code CODE]
[--seed S] [--as-of DATE]`: a synthetic program at a city's proportions
(fogkeeper/compliance/generate/)."""

from datetime import date

from django.core.management.base import BaseCommand, CommandError

from fogkeeper.compliance.generate import generate_program, pack_to_generate
from fogkeeper.registry.models import pack_today


def _as_of(value: str | None, pack: str) -> date:
    """The day asked for, else today where the pack's agencies are."""
    if value is None:
        return pack_today(pack)
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--as-of: not a date (YYYY-MM-DD): {value!r}") from None


class Command(BaseCommand):
    help = (
        "Create an agency with a synthetic FOG program: N establishments with Y years of "
        "history (devices, pump-outs, employees and trainings, inspections, incidents) at "
        "realistic proportions, for measuring the sweep."
    )

    def add_arguments(self, parser):
        parser.add_argument("--establishments", type=int, required=True, metavar="N")
        parser.add_argument("--years", type=int, required=True, metavar="Y")
        parser.add_argument("--agency-code", default="synthetic", metavar="CODE")
        parser.add_argument(
            "--pack",
            default=None,
            help="jurisdiction pack id (required when the deployment knows more than one)",
        )
        parser.add_argument("--seed", type=int, default=1, metavar="S")
        parser.add_argument(
            "--as-of",
            metavar="YYYY-MM-DD",
            help="the day the histories lead up to (default today in the pack's time zone)",
        )

    def handle(self, *args, **options):
        try:
            pack = pack_to_generate(options["pack"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        as_of = _as_of(options["as_of"], pack)
        n, years = options["establishments"], options["years"]
        self.stdout.write(
            f"Generating {n:,} establishments with {years} years of history up to {as_of} "
            f"(pack {pack}, seed {options['seed']})"
        )
        try:
            result = generate_program(
                establishments=n,
                years=years,
                as_of=as_of,
                agency_code=options["agency_code"],
                pack=pack,
                seed=options["seed"],
                progress=self.stdout.write,
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        c = result.counts
        self.stdout.write(
            f"Agency {result.agency.code!r} ({result.agency.name}) in {result.seconds:.1f} s:"
        )
        for key, value in c.items():
            per = f"  ({value / c['establishments']:.2f} per establishment)"
            self.stdout.write(f"  {key:15} {value:>12,}{per}")
