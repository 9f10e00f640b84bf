"""Export benchmark: every pump-out of a city-sized program exported through the list page's
own code path, on the database in DATABASE_URL (PostgreSQL under `make bench`, through
scripts/with-postgres).

    python -m bench.exports [--establishments 25000] [--years 10] [--as-of DATE] [--seed 1]
                            [--formats csv xlsx] [--no-trace]

Migrates and generates the synthetic program as bench.sweep does (bench/program.py; not part
of the figures), then requests `/pump-outs/?export=csv` and `?export=xlsx` through Django's
test Client as an auditor of the agency, consuming the response's streaming content a chunk
at a time as a server would send it: once for every pump-out, and once for about a tenth of
them (`date_from` chosen so), to show that memory does not grow with the rows. Each export
runs in a process of its own, so that its max RSS is its own: it prints the rows, the bytes,
the wall time, the rows per second and the growth of the process's max RSS over the export;
a second process measures the same export under tracemalloc (Python's allocations at their
peak; tracing slows the run, so its time is not the figure). Nothing is asserted: the
figures are printed only.
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

USERNAME = "bench-exports"


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogkeeper.config.settings")
    import django

    django.setup()


def _mib(n: float) -> float:
    return n / 1024  # ru_maxrss is in KiB on Linux


def _client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    from fogkeeper.registry.models import Agency
    from fogkeeper.web.models import Membership

    agency = Agency.objects.get(code=AGENCY)
    user, _ = get_user_model().objects.get_or_create(username=USERNAME)
    Membership.objects.get_or_create(user=user, agency=agency, defaults={"role": "auditor"})
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    return client


def _child(args) -> None:
    """One export, measured; prints its figures as one JSON line."""
    _setup()
    import gc
    import tracemalloc

    client = _client()
    url = f"/pump-outs/?export={args.format}"
    if args.date_from:
        url += f"&date_from={args.date_from}"
    client.get("/pump-outs/?date_from=2999-01-01")  # warm up: imports, templates, session
    gc.collect()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if args.trace:
        tracemalloc.start()
    started = time.perf_counter()
    response = client.get(url)
    first = None
    size = lines = 0
    for chunk in response.streaming_content:
        if first is None:
            first = time.perf_counter() - started
        size += len(chunk)
        lines += chunk.count(b"\n")
    response.close()
    wall = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1] if args.trace else None
    rss_after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    figures = {
        "status": response.status_code,
        "wall": wall,
        "first_byte": first,
        "bytes": size,
        "csv_lines": lines,
        "rss_before_mib": _mib(rss_before),
        "rss_growth_mib": _mib(rss_after - rss_before),
        "traced_peak_mib": peak / 2**20 if peak is not None else None,
    }
    print(json.dumps(figures))


def _measure(args, fmt: str, date_from: str, trace: bool) -> dict:
    cmd = [sys.executable, "-m", "bench.exports", "--child", "--format", fmt]
    if date_from:
        cmd += ["--date-from", date_from]
    if trace:
        cmd.append("--trace")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    if out.stderr.strip():
        print(out.stderr.rstrip(), file=sys.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _tenth(agency) -> tuple[str, int]:
    """The day from which about a tenth of the agency's pump-outs were done, and how many."""
    from fogkeeper.maintenance.models import Service

    services = Service.objects.filter(device__establishment__agency=agency)
    total = services.count()
    day = services.order_by("-date").values_list("date", flat=True)[max(total // 10 - 1, 0)]
    return day.isoformat(), services.filter(date__gte=day).count()


def _report(fmt: str, rows: int, f: dict, traced: dict | None) -> None:
    rate = rows / f["wall"] if f["wall"] else 0.0
    traced_peak = f"{traced['traced_peak_mib']:7.1f} MiB" if traced else "    (not traced)"
    print(
        f"  {fmt:4} {rows:>10,} rows {f['bytes'] / 2**20:9.1f} MiB  {f['wall']:8.1f} s "
        f"({f['first_byte']:.1f} s to the first byte)  {rate:>9,.0f} rows/s   "
        f"max RSS +{f['rss_growth_mib']:6.1f} MiB (from {f['rss_before_mib']:.0f})   "
        f"tracemalloc peak {traced_peak}" + ("" if f["status"] == 200 else f"   HTTP {f['status']}")
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.exports", description=__doc__)
    parser.add_argument("--establishments", type=int, default=25_000)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--as-of", help="the histories' end (default today)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pack", default="san-clemente")
    parser.add_argument("--formats", nargs="+", default=["csv", "xlsx"], choices=["csv", "xlsx"])
    parser.add_argument("--no-trace", action="store_true", help="skip the tracemalloc runs")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--format", help=argparse.SUPPRESS)
    parser.add_argument("--date-from", help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args)
        return

    _setup()
    from django.db import connection

    from fogkeeper.maintenance.models import Service

    as_of = date.fromisoformat(args.as_of) if args.as_of else date.today()
    agency = prepare_program("Export benchmark", args, as_of, progress=print)
    total = Service.objects.filter(device__establishment__agency=agency).count()
    day, tenth = _tenth(agency)
    _client()  # the auditor the exports are requested as
    connection.close()  # the exports run in processes of their own

    for label, date_from, rows in (
        ("every pump-out", "", total),
        (f"a tenth: those from {day}", day, tenth),
    ):
        print(f"\nExport of {label}, /pump-outs/?export=… (one process each)")
        for fmt in args.formats:
            timed = _measure(args, fmt, date_from, trace=False)
            traced = None if args.no_trace else _measure(args, fmt, date_from, trace=True)
            if fmt == "csv" and timed["csv_lines"] != rows + 1:
                print(f"  (the CSV had {timed['csv_lines'] - 1:,} rows, expected {rows:,})")
            _report(fmt, rows, timed, traced)


if __name__ == "__main__":
    main()
