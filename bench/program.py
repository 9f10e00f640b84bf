"""The city-sized program the sweep and page benchmarks run on: migrated, then generated once
(not part of any figure) or reused when the database already holds it."""

from __future__ import annotations

import os
import platform
from datetime import date

AGENCY = "bench"


def prepare_program(title: str, args, as_of: date, *, progress=None):
    """Print what the benchmark `title` runs on, migrate, and return the bench agency,
    generating it from `args` (establishments, years, pack, seed) unless already there."""
    from django.core.management import call_command
    from django.db import connection

    from fogkeeper.compliance.generate import generate_program
    from fogkeeper.registry.models import Agency

    vendor = connection.vendor
    if vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            vendor = f"PostgreSQL {cursor.fetchone()[0]}"
    print(f"{title} on {vendor}, Python {platform.python_version()}, {os.cpu_count()} CPUs")
    if connection.vendor != "postgresql":
        print("  (not PostgreSQL: `make bench` runs this under scripts/with-postgres)")
    call_command("migrate", verbosity=0, interactive=False)

    agency = Agency.objects.filter(code=AGENCY).first()
    if agency is not None:
        n = agency.establishments.count()
        print(f"Reusing agency {AGENCY!r} ({n:,} establishments) already in the database")
        return agency
    print(
        f"Generating {args.establishments:,} establishments, {args.years} years up to "
        f"{as_of} (not part of the figures)"
    )
    result = generate_program(
        establishments=args.establishments,
        years=args.years,
        as_of=as_of,
        agency_code=AGENCY,
        pack=args.pack,
        seed=args.seed,
        progress=progress,
    )
    counts = ", ".join(f"{v:,} {k}" for k, v in result.counts.items())
    print(f"Generated in {result.seconds:.1f} s: {counts}")
    return Agency.objects.get(code=AGENCY)
