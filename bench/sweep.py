"""Sweep benchmark: the nightly sweep of a city-sized program, on the database in DATABASE_URL
(PostgreSQL under `make bench`, through scripts/with-postgres).

    python -m bench.sweep [--establishments 25000] [--years 10] [--as-of DATE] [--seed 1]

Migrates, generates a synthetic program (fogkeeper/compliance/generate.py; timed, but not
part of the figures), then runs `sweep_agency` twice on the same date: the full sweep, and a
second one with nothing changed. Each sweep runs in a process of its own, so that its peak
memory (ru_maxrss) is its own and not the generator's. Prints, for each: wall time, the
load / evaluate / store split, the number of queries, peak memory and the findings stored,
next to the targets. Nothing is asserted: the figures are printed only.
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
    from fogkeeper.compliance.sweep import sweep_agency
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
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    if out.stderr.strip():
        print(out.stderr.rstrip(), file=sys.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _verdict(value: float, target: float) -> str:
    return "within target" if value < target else "OVER target"


def _report(title: str, f: dict) -> None:
    t = f["timings"]
    peak = max(f["peak_mib"], f["children_peak_mib"])
    print(f"\n{title}")
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


if __name__ == "__main__":
    main()
