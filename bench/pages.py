"""Page benchmark: the staff pages of a city-sized program under load, on the database in
DATABASE_URL (PostgreSQL under `make bench`, through scripts/with-postgres).

    python -m bench.pages [--establishments 25000] [--years 10] [--users 20] [--seconds 60]
                          [--wait 0 --wait 5] [--workers 2] [--threads 1]

Migrates, generates a synthetic program (not timed), sweeps it, and lets PostgreSQL's
statistics and visibility map catch up (VACUUM ANALYZE, as autovacuum would soon after a
nightly sweep). Prints the number of queries each page runs, then starts gunicorn
(FOGKEEPER_DEBUG=false) on 127.0.0.1 and runs locust headless (bench/locustfile.py)
against it once for each think time given with --wait: each user signs in once, then
requests the dashboard, the filtered list, an establishment page and the inspection list
in turn, waiting a random time between half and one and a half times the think time after
each page. Think time 0 is a stress test (20 users at once on 2 workers: every request
queues behind the others); 5 s is closer to people reading the pages. Prints, per run and
page, the requests, errors, p50 and p95 next to the target. The server is stopped whatever
happens. Nothing is asserted: the figures are printed only.

Workers: gunicorn's sync workers, one request at a time each, as many as the machine's cores
by default (the bench machine has 2): the pages are CPU-bound (Python, and PostgreSQL on the
same cores), so more workers or threads only share the same cores; --workers and --threads
(gthread) are there to try it.
"""

from __future__ import annotations

import argparse
import csv
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
from datetime import date
from pathlib import Path

from bench.program import AGENCY, prepare_program

TARGET_MS = 200.0

USERNAME = "bench"
# The pages each user requests in turn ({code}: one of a sample of establishments).
URLS = {
    "dashboard": "/",
    "filtered list": "/establishments/?status=non_compliant",
    "establishment": "/establishments/{code}/",
    "inspection list": "/inspections/field/",
}
PAGES = list(URLS)
ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogkeeper.config.settings")
    import django

    django.setup()


def _prepare(args) -> tuple[str, list[str]]:
    """Migrate, generate and sweep; return the superuser's password and some FSE codes."""
    _setup()
    from django.contrib.auth import get_user_model
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
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")

    password = secrets.token_urlsafe(16)
    User = get_user_model()
    user = User.objects.filter(username=USERNAME).first()
    if user is None:
        user = User.objects.create_superuser(USERNAME, "bench@example.invalid", password)
    else:
        user.set_password(password)
        user.is_superuser = user.is_staff = user.is_active = True
        user.save()
    codes = list(agency.establishments.order_by("?").values_list("code", flat=True)[: args.sample])
    _print_queries(user, codes[0])
    connection.close()
    return password, codes


def _print_queries(user, code: str) -> None:
    """The number of queries of one request of each page, as the bench's users make them."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    client.post("/agency/switch/", {"agency": AGENCY, "next": "/"})
    counts = []
    for name, url in URLS.items():
        with CaptureQueriesContext(connection) as queries:
            status = client.get(url.format(code=code)).status_code
        counts.append(f"{name} {len(queries)}" + ("" if status == 200 else f" (HTTP {status})"))
    print("Queries per request: " + ", ".join(counts))


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


def _read_stats(path: Path) -> dict[str, dict]:
    rows = {}
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            rows[row["Name"]] = row
    return rows


def _report(stats: dict[str, dict], args, wait: float) -> None:
    think = f"think time {wait / 2:g} to {wait * 1.5:g} s after each page" if wait else "no wait"
    threads = f", {args.threads} threads each" if args.threads > 1 else ""
    print(
        f"\n{args.users} users for {args.seconds} s ({think}), "
        f"gunicorn {args.workers} workers{threads} on 127.0.0.1"
    )
    print(f"  {'page':<16} {'requests':>9} {'errors':>7} {'p50 ms':>7} {'p95 ms':>7}   target")
    for name in PAGES:
        row = stats.get(name)
        if row is None:
            print(f"  {name:<16} {'-':>9} {'-':>7} {'-':>7} {'-':>7}   no requests")
            continue
        requests, errors = int(row["Request Count"]), int(row["Failure Count"])
        p50, p95 = row["50%"], row["95%"]
        ok = p95 not in ("", "N/A") and float(p95) < TARGET_MS and errors == 0
        verdict = "within target" if ok else "OVER target" if errors == 0 else "ERRORS"
        print(
            f"  {name:<16} {requests:>9,} {errors:>7,} {p50:>7} {p95:>7}   "
            f"p95 < {TARGET_MS:.0f} ms, no errors: {verdict}"
        )
    for name, row in stats.items():
        if name not in PAGES and name != "Aggregated" and int(row["Failure Count"]):
            print(f"  ({name}: {row['Failure Count']} errors of {row['Request Count']})")


def _locust(args, host: str, password: str, codes, wait: float, prefix: Path, env) -> None:
    """One headless locust run against `host`; prints its figures."""
    locust_env = dict(
        env,
        BENCH_USERNAME=USERNAME,
        BENCH_PASSWORD=password,
        BENCH_AGENCY=AGENCY,
        BENCH_CODES=",".join(codes),
        BENCH_WAIT=str(wait),
        BENCH_PAGES=json.dumps(URLS),
    )
    run = subprocess.run(
        [
            str(BIN / "locust"),
            "-f",
            str(ROOT / "bench" / "locustfile.py"),
            "--headless",
            "--host",
            host,
            "--users",
            str(args.users),
            "--spawn-rate",
            str(args.users),
            "--run-time",
            f"{args.seconds}s",
            "--stop-timeout",
            str(int(10 + 2 * wait)),
            "--csv",
            str(prefix),
            "--only-summary",
            "--loglevel",
            "WARNING",
        ],
        cwd=ROOT,
        env=locust_env,
        capture_output=True,
        text=True,
        timeout=args.seconds + 120 + 2 * wait,
    )
    stats_file = Path(f"{prefix}_stats.csv")
    if not stats_file.exists():
        print(run.stdout[-3000:], run.stderr[-3000:], sep="\n", file=sys.stderr)
        raise RuntimeError(f"locust wrote no statistics (exit status {run.returncode})")
    _report(_read_stats(stats_file), args, wait)
    failures = Path(f"{prefix}_failures.csv")
    if failures.exists():
        lines = failures.read_text().splitlines()[1:]
        for line in lines[:10]:
            print(f"  failure: {line}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.pages", description=__doc__)
    parser.add_argument("--establishments", type=int, default=25_000)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument(
        "--wait",
        type=float,
        action="append",
        help="think time after each page (s), random from half to 1.5 times it; one run per "
        "--wait (default: 0 and 5)",
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--threads", type=int, default=1, help="per worker (gthread when > 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pack", default="san-clemente")
    parser.add_argument("--sample", type=int, default=500, help="establishment codes to visit")
    args = parser.parse_args(argv)
    args.wait = args.wait or [0.0, 5.0]

    password, codes = _prepare(args)
    port = _free_port()
    host = f"http://127.0.0.1:{port}"
    env = dict(os.environ, FOGKEEPER_DEBUG="false", PYTHONUNBUFFERED="1")
    with tempfile.TemporaryDirectory(prefix="fogkeeper-bench-") as tmp:
        log = open(Path(tmp) / "gunicorn.log", "w")  # noqa: SIM115 - closed below
        server = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "--config",
                "python:fogkeeper.config.gunicorn",
                "fogkeeper.config.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(args.workers),
                "--threads",
                str(args.threads),
                "--access-logfile",
                "-",
                "--error-logfile",
                "-",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            _wait_ready(f"{host}/accounts/login/", server)
            print(f"gunicorn ({args.workers} workers) answering at {host}")
            for wait in args.wait:
                _locust(args, host, password, codes, wait, Path(tmp) / f"locust-{wait:g}", env)
        except BaseException:
            log.flush()
            tail = (Path(tmp) / "gunicorn.log").read_text().splitlines()[-30:]
            print("gunicorn log (last lines):", *tail, sep="\n  ", file=sys.stderr)
            raise
        finally:
            _stop(server)
            log.close()
            print("gunicorn stopped")


if __name__ == "__main__":
    main()
