"""Digests of the engine's reports on generated case files, to prove a faster engine
reports the same (issue 14). The digests in golden/engine_reports.json were written by
the engine before it was made faster; regenerate them only when a report is meant to change:

    .venv/bin/python -m tests.rules.engine_golden
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from bench.engine import Generator

GOLDEN = Path(__file__).resolve().parent / "golden" / "engine_reports.json"
SEED = 20250630
COUNT = 3000
EARLIER = timedelta(days=200)  # each case is also evaluated this long before its as_of


def cases(count: int = COUNT) -> list[dict[str, Any]]:
    gen = Generator(SEED)
    return [gen.case(i) for i in range(count)]


def as_ofs(case: dict[str, Any]) -> tuple[date, date]:
    own = date.fromisoformat(case["as_of"])
    return own, own - EARLIER


def digest(report: Any) -> str:
    text = json.dumps(report.to_dict(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def digests(parse, evaluate, count: int = COUNT) -> list[str]:
    """Two digests per generated case: evaluated on its own as_of and 200 days earlier."""
    out = []
    for data in cases(count):
        for on in as_ofs(data):
            out.append(digest(evaluate(parse(data, as_of=on), on)))
    return out


def main() -> None:
    from fogkeeper.rules import evaluate, parse_case

    found = digests(parse_case, evaluate)
    GOLDEN.write_text(
        json.dumps({"seed": SEED, "count": COUNT, "digests": found}, indent=0) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {len(found)} digests to {GOLDEN}")


if __name__ == "__main__":
    main()
