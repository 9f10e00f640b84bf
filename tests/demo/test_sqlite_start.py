"""`make run`'s one-command start works on SQLite (the tests otherwise run on PostgreSQL): the
migrations (and the cache's table), the demo of both jurisdictions with its sweep, and a page
of the demo, each in a process of its own against a throwaway SQLite file; then the busiest
staff pages, as the demo's manager (the pages read some rows in ways each database spells its
own way: web/registry/carried.py)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["/dashboard/", "/establishments/", "/establishments/SC-FSE-0171/", "/cases/", "/calendar/"]
READ = """
from django.contrib.auth.models import User
from django.test import Client
from fogkeeper.enforcement.models import EnforcementCase
client = Client(HTTP_HOST="127.0.0.1")
client.force_login(User.objects.get(username="manager"))
client.post("/agency/switch/", {{"agency": "san-clemente", "next": "/"}})
case = EnforcementCase.objects.filter(establishment__code="SC-FSE-0171").first()
pages = {pages!r} + [f"/cases/SC-FSE-0171/{{case.code}}/"]
for url in pages:
    print(url, client.get(url).status_code)
"""


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
    read = run(db, "shell", "-c", READ.format(pages=PAGES))
    assert read.returncode == 0, read.stderr[-2000:]
    answers = dict(line.split() for line in read.stdout.splitlines() if line.startswith("/"))
    assert len(answers) == len(PAGES) + 1 and set(answers.values()) == {"200"}, answers
