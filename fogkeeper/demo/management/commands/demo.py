"""`manage.py demo [--if-empty] [--as-of DATE] [--pack PACK ...]`: the demo program of every
jurisdiction pack the deployment knows (or those named) and a staff login
(fogkeeper/demo/), then a sweep of each agency."""

from collections import Counter
from datetime import date

from django.core.management.base import BaseCommand, CommandError

from fogkeeper import demo
from fogkeeper.demo.written import written
from fogkeeper.registry.models import Agency, pack_today
from fogkeeper.statistics import analyze_tables


def _as_of(value: str | None, packs: list[str]) -> dict[str, date]:
    """The day each pack's program leads up to: the one asked for, else today where the
    pack's agency is (its time zone)."""
    if value is None:
        return {p: pack_today(p) for p in packs}
    try:
        as_of = date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--as-of: not a date (YYYY-MM-DD): {value!r}") from None
    if as_of < demo.EARLIEST_AS_OF and any(p in written() for p in packs):
        raise CommandError(f"--as-of: the demo needs a date on or after {demo.EARLIEST_AS_OF}")
    return dict.fromkeys(packs, as_of)


class Command(BaseCommand):
    help = (
        "Load a demo FOG program for each jurisdiction pack (about 40 establishments each, "
        "with years of history dated back from --as-of; generated for a pack without demo "
        "stories of its own) and a staff login, then sweep every agency."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="do nothing if the database already holds an agency",
        )
        parser.add_argument(
            "--as-of",
            metavar="YYYY-MM-DD",
            help="the day the histories lead up to (default today in each pack's time zone)",
        )
        parser.add_argument(
            "--no-sweep", action="store_true", help="load only; do not sweep afterwards"
        )
        parser.add_argument(
            "--pack",
            action="append",
            metavar="PACK",
            help="load only this pack's agency (repeatable; default every pack known)",
        )

    def handle(self, *args, **options):
        try:
            packs = demo.demo_packs(options["pack"])
        except ValueError as e:
            raise CommandError(str(e)) from None
        as_of = _as_of(options["as_of"], packs)
        existing = Agency.objects.count()
        if existing and options["if_empty"]:
            self.stdout.write(
                f"The database already holds {existing} agenc{'y' if existing == 1 else 'ies'}: "
                "the demo is not loaded."
            )
            self._login_reminder()
            return
        taken = Agency.objects.filter(code__in=demo.agency_codes(packs))
        if taken.exists():
            codes = ", ".join(taken.values_list("code", flat=True))
            raise CommandError(f"agency {codes} already exists: the demo is loaded once")

        agencies = demo.load_demo(as_of=as_of, packs=packs)
        for agency in agencies:
            self.stdout.write(
                f"Loaded {agency.name} ({agency.code}, pack {agency.pack}): "
                f"{agency.establishments.count()} establishments, histories up to "
                f"{as_of[agency.pack]}"
            )
        if not options["no_sweep"]:
            self._sweep(agencies, as_of)
        analyze_tables()  # the annual report's query took 12 s a request without
        self.stdout.write(
            self.style.SUCCESS(
                f"Staff login: username {demo.STAFF_USERNAME!r}, password {demo.STAFF_PASSWORD!r}"
            )
        )
        self.stdout.write(
            "Other logins, same password: manager, inspector, clerk, auditor (staff of every "
            "agency); operator, hauler, owner (an operator, a hauler and a property owner "
            "of each agency)"
        )

    def _sweep(self, agencies, as_of: dict[str, date]) -> None:
        try:
            from fogkeeper.compliance.runs import sweep_agency
        except ImportError:
            self.stdout.write("The sweep is not available: no findings stored yet.")
            return
        from fogkeeper.compliance.models import ComplianceStatus, Finding

        for agency in agencies:
            result = sweep_agency(agency, as_of=as_of[agency.pack])
            statuses = Counter(
                ComplianceStatus.objects.filter(establishment__agency=agency).values_list(
                    "status", flat=True
                )
            )
            counts = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items()))
            findings = Counter(
                Finding.objects.filter(establishment__agency=agency).values_list("open", flat=True)
            )
            self.stdout.write(
                f"Swept {agency.code} as of {as_of[agency.pack]}: {counts}; "
                f"findings: {findings[True]} open, {findings[False]} closed"
                + (f"; {len(result.errors)} case files with errors" if result.errors else "")
            )

    def _login_reminder(self) -> None:
        from django.contrib.auth import get_user_model

        user = get_user_model().objects.filter(username=demo.STAFF_USERNAME).first()
        if user is not None and user.check_password(demo.STAFF_PASSWORD):
            self.stdout.write(
                f"Staff login: username {demo.STAFF_USERNAME!r}, password {demo.STAFF_PASSWORD!r}"
            )
