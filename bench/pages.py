"""Page benchmark: the busiest staff pages and the operator portal of a city-sized program
under load, on the database in DATABASE_URL (PostgreSQL under `make bench`, through
scripts/with-postgres).

    python -m bench.pages [--establishments 25000] [--years 10] [--users 20,100]
                          [--seconds 60] [--wait 5] [--saturated 20] [--operator-share 0.2]
                          [--workers 2] [--threads 1]

Migrates, generates a synthetic program (not timed), sweeps it, opens some enforcement cases
and makes the logins (bench/visits.py: which pages, and why those), and lets PostgreSQL's
statistics and visibility map catch up (VACUUM ANALYZE, as autovacuum would soon after a
nightly sweep). Counts the queries of one request of each page, then starts gunicorn
(FOGKEEPER_DEBUG=false) on 127.0.0.1 and runs locust headless (bench/locustfile.py)
against it: once for each number of users in --users with think time (each user waits a
random time between half and one and a half times --wait after each page, closer to people
reading them), then once with --saturated users and no wait (a stress test: every request
queues behind the others; its pages a second are the server's throughput). Most users are
staff, the rest (--operator-share) operators in their portal. Each user signs in once; the
figures count from when all have. Prints each run's load average at its start and pages a
second, then one table (bench/page_report.py): page | each run's p50/p95 | queries, and
the targets' verdicts. The server is stopped whatever happens. Nothing is asserted: the
figures are printed only.

Workers: gunicorn's sync workers, one request at a time each, as many as the machine's cores
by default (the bench machine has 2): the pages are CPU-bound (Python, and PostgreSQL on the
same cores), so more workers or threads only share the same cores; --workers and --threads
(gthread) are there to try it.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from bench import page_report, visits
from bench.program import prepare_program

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SIGN_IN_SECONDS = 240  # the most the users may take to sign in before a run's pages


@dataclass
class Visitors:
    """The logins and records the locust users visit, and each page's queries."""

    password: str
    codes: list[str]
    cases: list[str]
    operators: list[tuple[str, str]]
    queries: dict[str, tuple[int, int]]


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogkeeper.config.settings")
    import django

    django.setup()


def _prepare(args) -> Visitors:
    """Migrate, generate and sweep; make the logins and cases the users visit."""
    _setup()
    from django.db import connection

    from fogkeeper.compliance.runs import sweep_agency

    as_of = date.today()
    agency = prepare_program("Page benchmark", args, as_of)
    started = time.perf_counter()
    sweep = sweep_agency(agency, as_of=as_of)
    print(
        f"Swept in {time.perf_counter() - started:.1f} s: {sweep.opened:,} findings opened "
        "(not part of the figures)"
    )
    password = secrets.token_urlsafe(16)
    staff = visits.staff_login(agency, password)
    operators = visits.operator_logins(agency, password, max(args.users), as_of)
    cases = visits.sample_cases(agency, args.cases, as_of)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    codes = list(agency.establishments.order_by("?").values_list("code", flat=True)[: args.sample])
    print(f"{len(operators):,} operator logins, {len(cases):,} enforcement cases to visit")
    queries = visits.query_counts(staff, operators, codes, cases)
    connection.close()
    return Visitors(password, codes, cases, operators, queries)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(url: str, server: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with status {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.25)
    raise RuntimeError(f"gunicorn did not answer {url} within {timeout:.0f} s")


def _stop(server: subprocess.Popen) -> None:
    if server.poll() is not None:
        return
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=5)


def _locust_env(env: dict, visitors: Visitors, args, wait: float) -> dict:
    """What bench/locustfile.py reads: the logins, the pages and the think time."""
    share = round(args.operator_share * 100)
    return dict(
        env,
        BENCH_PASSWORD=visitors.password,
        BENCH_STAFF_USERNAME=visits.STAFF_USERNAME,
        BENCH_STAFF_PAGES=json.dumps(visits.STAFF_PAGES),
        BENCH_OPERATOR_PAGES=json.dumps(visits.OPERATOR_PAGES),
        BENCH_CODES=",".join(visitors.codes),
        BENCH_CASES=",".join(visitors.cases),
        BENCH_OPERATORS=json.dumps(visitors.operators),
        BENCH_STAFF_WEIGHT=str(100 - share),
        BENCH_OPERATOR_WEIGHT=str(share),
        BENCH_WAIT=str(wait),
        BENCH_SECONDS=str(args.seconds),
    )


def _locust(args, host: str, users: int, wait: float, prefix: Path, env) -> page_report.Run:
    """One headless locust run against `host`: its figures, and its failures printed."""
    run = page_report.Run(users, wait, args.seconds, os.getloadavg())
    locust = subprocess.run(
        [
            str(BIN / "locust"),
            *("-f", str(ROOT / "bench" / "locustfile.py"), "--headless", "--host", host),
            *("--users", str(users), "--spawn-rate", str(users)),
            *("--run-time", f"{args.seconds + SIGN_IN_SECONDS}s"),
            *("--csv", str(prefix), "--only-summary", "--loglevel", "WARNING"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=args.seconds + SIGN_IN_SECONDS + 60,
    )
    stats_file = Path(f"{prefix}_stats.csv")
    if not stats_file.exists():
        print(locust.stdout[-3000:], locust.stderr[-3000:], sep="\n", file=sys.stderr)
        raise RuntimeError(f"locust wrote no statistics (exit status {locust.returncode})")
    run.stats = page_report.read_stats(stats_file)
    print(page_report.run_line(run, visits.PAGES))
    for line in page_report.other_errors(run, visits.PAGES):
        print(line)
    failures = Path(f"{prefix}_failures.csv")
    if failures.exists():
        for line in failures.read_text().splitlines()[1:11]:
            print(f"    failure: {line}")
    return run


def _runs(args) -> list[tuple[int, float]]:
    """(users, think time) of each locust run: each --users with think time, then the
    saturated one."""
    runs = [(users, args.wait) for users in args.users]
    return runs + ([(args.saturated, 0.0)] if args.saturated else [])


def _serve(args, visitors: Visitors) -> list[page_report.Run]:
    """gunicorn on a free port for the runs, stopped whatever happens."""
    port = _free_port()
    host = f"http://127.0.0.1:{port}"
    env = dict(os.environ, FOGKEEPER_DEBUG="false", PYTHONUNBUFFERED="1")
    runs = []
    with tempfile.TemporaryDirectory(prefix="fogkeeper-bench-") as tmp:
        log = open(Path(tmp) / "gunicorn.log", "w")  # noqa: SIM115 - closed below
        server = subprocess.Popen(
            [
                *(str(BIN / "gunicorn"), "--config", "python:fogkeeper.config.gunicorn"),
                *("fogkeeper.config.wsgi:application", "--bind", f"127.0.0.1:{port}"),
                *("--workers", str(args.workers), "--threads", str(args.threads)),
                *("--access-logfile", "-", "--error-logfile", "-"),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            _wait_ready(f"{host}/accounts/login/", server)
            threads = f", {args.threads} threads each" if args.threads > 1 else ""
            print(f"\ngunicorn ({args.workers} workers{threads}) answering at {host}")
            for i, (users, wait) in enumerate(_runs(args)):
                run_env = _locust_env(env, visitors, args, wait)
                runs.append(_locust(args, host, users, wait, Path(tmp) / f"locust-{i}", run_env))
        except BaseException:
            log.flush()
            tail = (Path(tmp) / "gunicorn.log").read_text().splitlines()[-30:]
            print("gunicorn log (last lines):", *tail, sep="\n  ", file=sys.stderr)
            raise
        finally:
            _stop(server)
            log.close()
    return runs


def _users(text: str) -> list[int]:
    return [int(n) for n in text.split(",") if n.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.pages", description=__doc__)
    parser.add_argument("--establishments", type=int, default=25_000)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument(
        "--users", type=_users, default=[20, 100], help="comma separated: one run each"
    )
    parser.add_argument("--seconds", type=int, default=60, help="of each run")
    parser.add_argument(
        "--wait",
        type=float,
        default=5.0,
        help="think time after each page (s), random from half to 1.5 times it",
    )
    parser.add_argument("--saturated", type=int, default=20, help="users of the no-wait run")
    parser.add_argument("--operator-share", type=float, default=0.2, help="of the users")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--threads", type=int, default=1, help="per worker (gthread when > 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pack", default="san-clemente")
    parser.add_argument("--sample", type=int, default=500, help="establishment codes to visit")
    parser.add_argument("--cases", type=int, default=50, help="enforcement cases to visit")
    args = parser.parse_args(argv)

    visitors = _prepare(args)
    runs = _serve(args, visitors)
    print("gunicorn stopped\n")
    print(*page_report.table(list(visits.PAGES), runs, visitors.queries), sep="\n")
    print(*page_report.verdicts(list(visits.PAGES), runs, args.workers), sep="\n")


if __name__ == "__main__":
    main()
