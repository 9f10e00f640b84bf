"""The page benchmark's figures as printed: each locust run's statistics read from its CSV,
and one table of every page across the runs (p50/p95 per run, queries per request) with the
targets' verdicts. Plain functions of plain data, so that the report is tested without a
server (tests/bench)."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

TARGET_P95_MS = 200.0  # at the most users, with think time
TARGET_PAGES_A_SECOND = 60.0  # saturated (no think time), on 2 workers
AGGREGATED = "Aggregated"


@dataclass
class Run:
    """One locust run: its users, think time (0: saturated), the seconds its pages were
    requested, the load average when it began and its statistics by request name (locust's
    CSV rows)."""

    users: int
    wait: float
    seconds: float
    load: tuple[float, float, float]
    stats: dict[str, dict] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return f"{self.users} users" + ("" if self.wait else " no wait")

    def served(self, pages) -> int:
        return sum(int(self.stats[p]["Request Count"]) for p in pages if p in self.stats)

    def pages_a_second(self, pages) -> float:
        return self.served(pages) / self.seconds if self.seconds else 0.0

    def errors(self, pages) -> int:
        return sum(int(self.stats[p]["Failure Count"]) for p in pages if p in self.stats)


def read_stats(path: Path) -> dict[str, dict]:
    """Locust's `_stats.csv`, its rows by request name (`Aggregated` for the whole run)."""
    with path.open(newline="") as f:
        return {row["Name"]: row for row in csv.DictReader(f)}


def _ms(value: str) -> str:
    return "-" if value in ("", "N/A") else f"{float(value):.0f}"


def cell(row: dict | None) -> str:
    """A page's p50/p95 in one run, its errors after them."""
    if row is None or not int(row["Request Count"]):
        return "-"
    text = f"{_ms(row['50%'])}/{_ms(row['95%'])}"
    errors = int(row["Failure Count"])
    return f"{text} ({errors} err)" if errors else text


def run_line(run: Run, pages) -> str:
    """What a run was and what it served."""
    think = f"think time {run.wait / 2:g} to {run.wait * 1.5:g} s" if run.wait else "no wait"
    load = " ".join(f"{x:.2f}" for x in run.load)
    return (
        f"  {run.title:<18} {run.seconds:g} s, {think}; load average at start {load}; "
        f"{run.served(pages):,} pages, {run.errors(pages):,} errors, "
        f"{run.pages_a_second(pages):.1f} pages a second"
    )


def other_errors(run: Run, pages) -> list[str]:
    """The errors of the requests that are not pages (signing in)."""
    return [
        f"    ({name}: {row['Failure Count']} errors of {row['Request Count']})"
        for name, row in run.stats.items()
        if name not in pages and name != AGGREGATED and int(row["Failure Count"])
    ]


def table(pages, runs: list[Run], queries: dict[str, tuple[int, int]]) -> list[str]:
    """page | each run's p50/p95 ms | queries per request."""
    width = max(len(p) for p in [*pages, "page"])
    cols = [max(len(r.title), 13) for r in runs]
    head = f"  {'page':<{width}} | " + " | ".join(
        f"{r.title:>{w}}" for r, w in zip(runs, cols, strict=True)
    )
    sub = f"  {'':<{width}} | " + " | ".join(f"{'p50/p95 ms':>{w}}" for w in cols)
    lines = [head + " | queries", sub + " |"]
    for page in pages:
        cells = " | ".join(
            f"{cell(r.stats.get(page)):>{w}}" for r, w in zip(runs, cols, strict=True)
        )
        count, status = queries.get(page, (None, 200))
        q = "-" if count is None else str(count) + ("" if status == 200 else f" (HTTP {status})")
        lines.append(f"  {page:<{width}} | {cells} | {q:>7}")
    return lines


def verdicts(pages, runs: list[Run], workers: int) -> list[str]:
    """The targets: p95 at the most users with think time, pages a second saturated."""
    thinking = [r for r in runs if r.wait]
    lines = [_p95_line(max(thinking, key=lambda r: r.users), pages)] if thinking else []
    for run in (r for r in runs if not r.wait):
        rate = run.pages_a_second(pages)
        lines.append(
            f"  saturated, {run.users} users no wait: {rate:.1f} pages a second on {workers} "
            f"workers; target >= {TARGET_PAGES_A_SECOND:.0f}: "
            f"{_verdict(rate >= TARGET_PAGES_A_SECOND and not run.errors(pages))}"
        )
    return lines


def _p95_line(run: Run, pages) -> str:
    """The run's slowest page by p95, against the target; a page never requested fails it."""
    p95 = {p: v for p in pages if (v := _p95(run.stats.get(p))) is not None}
    missing = [p for p in pages if p not in p95]
    worst = max(p95, key=lambda p: p95[p], default=None)
    seen = f"worst {p95[worst]:.0f} ms ({worst})" if worst else "no pages"
    if missing:
        seen += f"; no requests of {', '.join(missing)}"
    ok = worst is not None and p95[worst] <= TARGET_P95_MS and not missing
    return (
        f"  p95 at {run.users} users with think time: {seen}; "
        f"target <= {TARGET_P95_MS:.0f} ms, no errors: {_verdict(ok and not run.errors(pages))}"
    )


def _p95(row: dict | None) -> float | None:
    if row is None or not int(row["Request Count"]) or row["95%"] in ("", "N/A"):
        return None
    return float(row["95%"])


def _verdict(ok: bool) -> str:
    return "within target" if ok else "OVER target"
