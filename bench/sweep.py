"""Sweep benchmark: the nightly sweep of a city-sized program, on the database in DATABASE_URL
(PostgreSQL under `make bench`, through scripts/with-postgres).

    python -m bench.sweep [--establishments 25000] [--years 10] [--as-of DATE] [--seed 1]

Migrates, generates a synthetic program (fogkeeper/compliance/generate/; timed, but not
part of the figures), then runs `sweep_agency` twice on the same date: the full sweep, and a
second one with nothing changed. Each sweep runs in a process of its own, so that its peak
memory (ru_maxrss) is its own and not the generator's. Prints, for each: wall time, the
load / evaluate / store split, the number of queries, peak memory and the findings stored,
next to the targets. Then the floor: one rule, `gcd.service_overdue`, decided for the whole
agency by one SQL query on the same data (its open findings, counted), and each sweep's
wall time as a multiple of that query's. The machine's load average when each sweep began is
printed with it (the figures of a busy machine are slower). Nothing is asserted: the figures
are printed only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from datetime import date

from bench.program import AGENCY, prepare_program

TARGET_SECONDS = 60.0
TARGET_MIB = 2048.0
TARGET_FLOOR_MULTIPLE = 5.0


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogkeeper.config.settings")
    import django

    django.setup()


def _mib(kib: int) -> float:
    return kib / 1024  # ru_maxrss is in KiB on Linux


def _child(args) -> None:
    """One sweep, measured; prints its figures as one JSON line."""
    _setup()
    import gc

    from django.db import connection

    from fogkeeper.compliance.models import Finding
    from fogkeeper.compliance.runs import sweep_agency
    from fogkeeper.registry.models import Agency

    agency = Agency.objects.get(code=args.agency)
    as_of = date.fromisoformat(args.as_of)
    gc.collect()
    before = _mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        started = time.perf_counter()
        result = sweep_agency(agency, as_of=as_of, batch_size=args.batch_size)
        wall = time.perf_counter() - started
    peak = _mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    children = _mib(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    findings = Finding.objects.filter(establishment__agency=agency)
    figures = {
        "wall": wall,
        "timings": result.timings,
        "queries": queries,
        "sweep_queries": result.queries,
        "peak_mib": peak,
        "children_peak_mib": children,
        "rss_before_mib": before,
        "establishments": result.establishments,
        "opened": result.opened,
        "closed": result.closed,
        "changed": result.changed,
        "errors": len(result.errors),
        "findings": findings.count(),
        "open_findings": findings.filter(open=True).count(),
    }
    print(json.dumps(figures))


def _sweep_in_child(args, as_of: date) -> dict:
    cmd = [
        sys.executable,
        "-m",
        "bench.sweep",
        "--child",
        "--agency",
        AGENCY,
        "--as-of",
        as_of.isoformat(),
        "--batch-size",
        str(args.batch_size),
    ]
    load = os.getloadavg()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    if out.stderr.strip():
        print(out.stderr.rstrip(), file=sys.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1]) | {"load": load}


def _verdict(value: float, target: float) -> str:
    return "within target" if value < target else "OVER target"


def _report(title: str, f: dict) -> None:
    t = f["timings"]
    peak = max(f["peak_mib"], f["children_peak_mib"])
    load = " ".join(f"{x:.2f}" for x in f["load"])
    print(f"\n{title} (load average at start {load})")
    print(
        f"  wall time     {f['wall']:8.1f} s    target < {TARGET_SECONDS:.0f} s   "
        f"{_verdict(f['wall'], TARGET_SECONDS)}"
    )
    print(
        f"    load        {t['load']:8.1f} s\n"
        f"    evaluate    {t['evaluate']:8.1f} s\n"
        f"    store       {t['store']:8.1f} s"
    )
    queries = f"{f['queries']:,}"
    if f["sweep_queries"] != f["queries"]:
        queries += f" (the sweep counted {f['sweep_queries']:,})"
    print(f"  queries       {queries:>10}")
    print(
        f"  peak memory   {peak:8.0f} MiB  target < {TARGET_MIB / 1024:.0f} GiB   "
        f"{_verdict(peak, TARGET_MIB)}   (process at start {f['rss_before_mib']:.0f} MiB)"
    )
    print(
        f"  establishments {f['establishments']:,}; findings stored {f['findings']:,} "
        f"({f['open_findings']:,} open); this sweep opened {f['opened']:,}, "
        f"closed {f['closed']:,}, changed {f['changed']:,}; case files with errors "
        f"{f['errors']:,}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sweep", description=__doc__)
    parser.add_argument("--establishments", type=int, default=25_000)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--as-of", help="the sweep's date and the histories' end (default today)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pack", default="san-clemente")
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--agency", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args)
        return

    _setup()
    from django.db import connection

    as_of = date.fromisoformat(args.as_of) if args.as_of else date.today()
    prepare_program("Sweep benchmark", args, as_of, progress=print)
    connection.close()  # the sweeps run in processes of their own

    first = _sweep_in_child(args, as_of)
    _report(f"Full sweep as of {as_of}", first)
    second = _sweep_in_child(args, as_of)
    _report("Second sweep, same date, nothing changed", second)
    _report_floor(first, second, as_of)


# The open findings of gcd.service_overdue (checks/devices.py) in one query: each device in
# place on the date, of an establishment the chapter applies to, whose last full pump-out
# not under an open dispute (or else its installation), from the pack's effective date at
# the earliest, plus its frequency (the device's, else its permit's, else the pack's for
# its kind) falls before the date.
FLOOR_SQL = """
WITH pack_frequency (kind, every) AS (
    SELECT * FROM unnest(%(kinds)s::text[], %(everys)s::interval[])
), devices AS (
    SELECT d.id, d.installed_on, d.kind, d.service_frequency_days, e.id AS establishment_id
    FROM registry_greasecontroldevice d
    JOIN registry_foodserviceestablishment e ON e.id = d.establishment_id
    WHERE e.agency_id = %(agency)s
      AND (e.closed_on IS NULL OR e.closed_on > %(as_of)s)
      AND (e.on_public_sewer OR NOT %(exempt_off_sewer)s)
      AND NOT (COALESCE(NULLIF(e.category, ''), %(default_category)s) = ANY(%(exempt)s))
      AND d.installed_on <= %(as_of)s
      AND (d.removed_on IS NULL OR d.removed_on > %(as_of)s)
), last_full AS (
    SELECT s.device_id, max(s.date) AS served
    FROM maintenance_service s JOIN devices d ON d.id = s.device_id
    WHERE s.full_pump_out AND s.date <= %(as_of)s AND NOT EXISTS (
        SELECT FROM maintenance_servicedispute x WHERE x.service_id = s.id
        AND x.raised_on <= %(as_of)s AND (x.withdrawn_on IS NULL OR x.withdrawn_on > %(as_of)s))
    GROUP BY s.device_id
)
SELECT count(*) FROM devices d
LEFT JOIN last_full l ON l.device_id = d.id
LEFT JOIN LATERAL (
    SELECT p.service_frequency_days FROM permits_permit p
    WHERE p.establishment_id = d.establishment_id AND p.issued_on <= %(as_of)s
    ORDER BY p.issued_on DESC, p.id DESC LIMIT 1
) p ON true
LEFT JOIN pack_frequency f ON f.kind = d.kind
WHERE (GREATEST(COALESCE(l.served, d.installed_on), %(effective)s)
       + COALESCE(make_interval(days => d.service_frequency_days),
                  make_interval(days => p.service_frequency_days), f.every))::date < %(as_of)s
"""


def _floor(as_of: date) -> tuple[float, int, int]:
    """The floor query's seconds (the best of three) and its count of open findings, and the
    count the sweep stored."""
    from django.db import connection

    from fogkeeper.compliance.models import Finding
    from fogkeeper.registry.models import Agency

    agency = Agency.objects.get(code=AGENCY)
    pack = agency.get_pack()
    p = pack.params_on(as_of)
    defaults = p.get("gcd.default_service_frequency") or {}
    every = {k: pack.duration(f"gcd.default_service_frequency.{k}", v) for k, v in defaults.items()}
    params = {
        "agency": agency.pk,
        "as_of": as_of,
        "effective": pack.effective,
        "exempt_off_sewer": bool(p["applicability.exempt_off_public_sewer"]),
        "exempt": list(p["applicability.exempt_categories"]),
        "default_category": pack.default_category,
        "kinds": list(every),
        "everys": [f"{d.n} {d.unit}" for d in every.values()],
    }
    best, found = float("inf"), 0
    with connection.cursor() as cursor:
        for _ in range(3):
            started = time.perf_counter()
            cursor.execute(FLOOR_SQL, params)
            found = cursor.fetchone()[0]
            best = min(best, time.perf_counter() - started)
    stored = Finding.objects.filter(agency=agency, rule="gcd.service_overdue", open=True).count()
    return best, found, stored


def floor_lines(sweeps: dict[str, float], seconds: float, found: int, stored: int) -> list[str]:
    """The floor query's figures, and each sweep's wall time (by its title) as a multiple of
    the floor's, next to the target."""
    lines = [
        f"The floor: gcd.service_overdue alone as one SQL query {seconds:.2f} s, "
        f"{found:,} open findings (the sweep stored {stored:,})"
    ]
    for title, wall in sweeps.items():
        multiple = wall / seconds if seconds else float("inf")
        lines.append(
            f"  the {title} took {multiple:.1f}x the floor   target <= "
            f"{TARGET_FLOOR_MULTIPLE:.0f}x   {_verdict(multiple, TARGET_FLOOR_MULTIPLE + 1e-9)}"
        )
    return lines


def _report_floor(full: dict, second: dict, as_of: date) -> None:
    seconds, found, stored = _floor(as_of)
    sweeps = {"full sweep": full["wall"], "second sweep": second["wall"]}
    print("", *floor_lines(sweeps, seconds, found, stored), sep="\n")


if __name__ == "__main__":
    main()
