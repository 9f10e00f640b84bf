"""`make run`'s one-command start works on SQLite (the tests otherwise run on PostgreSQL): the
migrations (and the cache's table), the demo of both jurisdictions with its sweep, and a page
of the demo, each in a process of its own against a throwaway SQLite file."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(db: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{db}", "FOGKEEPER_DEBUG": "false"}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_the_demo_loads_and_sweeps_on_sqlite(tmp_path):
    db = tmp_path / "fogkeeper.sqlite3"
    migrated = run(db, "migrate", "--no-input")
    assert migrated.returncode == 0, migrated.stderr[-2000:]
    # the sign-in and API counts' cache (the database's table) came with the migrations
    cache_table = run(db, "createcachetable", "--dry-run").stdout
    assert "Cache table 'fogkeeper_cache' already exists." in cache_table
    demo = run(db, "demo", "--if-empty", "--as-of", "2026-11-30")
    assert demo.returncode == 0, demo.stderr[-2000:]
    assert "Swept san-clemente as of 2026-11-30" in demo.stdout
    assert "Swept town as of 2026-11-30" in demo.stdout
    report = run(db, "annual_report", "--agency", "san-clemente", "--year", "2026")
    assert report.returncode == 0, report.stderr[-2000:]
    assert "Spills in 2026 by category" in report.stdout
