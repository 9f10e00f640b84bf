"""Onboarding benchmark: a city's program exported to XLSX and imported into an empty agency.

    python -m bench.onboard [--establishments 25000] [--years 10] [--as-of DATE] [--seed 1]
                            [--pack san-clemente] [--format xlsx]

Migrates and generates the synthetic program as bench.sweep does (bench/program.py; not part
of the figures), exports it with `export_program` (one file per kind, a kind of more than
100,000 rows split into numbered files; timed, not part of the target), then imports every
file in order into a new, empty agency of the same pack, each through `onboard` as
`manage.py onboard` does (the file read, every row checked, then written in one transaction).
Prints, per kind, the rows and the rows per second of the import, the total wall time of the
import against the target of issue 26 (25,000 establishments with 10 years of pump-outs from
XLSX in at most 5 minutes), and the machine's load (/proc/loadavg) before and after. Nothing
is asserted: the figures are printed only.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

from bench.program import prepare_program

TARGET_SECONDS = 300.0


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogkeeper.config.settings")
    import django

    django.setup()


def _load() -> str:
    try:
        return Path("/proc/loadavg").read_text().strip()
    except OSError:
        return "unknown"


def _empty_agency(source):
    from fogkeeper.registry.models import Agency

    code, n = "bench-onboarded", 1
    while Agency.objects.filter(code=code).exists():
        n += 1
        code = f"bench-onboarded-{n}"
    return Agency.objects.create(
        code=code, name=f"Onboarded copy of {source.name}", pack=source.pack
    )


def _export(agency, folder: Path, file_format: str) -> list[Path]:
    from fogkeeper.onboarding.export import export_program

    started = time.perf_counter()
    files = export_program(
        agency, folder, file_format=file_format, progress=lambda line: print(f"  {line}")
    )
    size = sum(f.stat().st_size for f in files) / 2**20
    seconds = time.perf_counter() - started
    print(f"Exported {len(files)} files ({size:,.0f} MiB) in {seconds:.1f} s (not in the target)")
    return files


def _import(agency, files: list[Path], as_of: date) -> tuple[dict, float]:
    from fogkeeper.onboarding.export import kind_of
    from fogkeeper.onboarding.importer import onboard

    per_kind: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    started = time.perf_counter()
    for path in files:
        kind = kind_of(path)
        began = time.perf_counter()
        outcome = onboard(
            agency=agency,
            kind=kind,
            data=path.read_bytes(),
            name=path.name,
            today=as_of,
            dry_run=False,
        )
        seconds = time.perf_counter() - began
        if outcome.problems:
            print(f"  {path.name}: {len(outcome.problems)} problems, nothing stored; the first:")
            for problem in outcome.problems[:5]:
                print(f"    {problem}")
            raise SystemExit(1)
        per_kind[kind][0] += outcome.rows
        per_kind[kind][1] += seconds
        print(f"  {path.name}: {outcome.rows:,} rows in {seconds:.1f} s")
    return per_kind, time.perf_counter() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.onboard", description=__doc__)
    parser.add_argument("--establishments", type=int, default=25_000)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--as-of", help="the histories' end and the import's today (default today)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pack", default="san-clemente")
    parser.add_argument("--format", choices=("csv", "xlsx"), default="xlsx")
    args = parser.parse_args(argv)

    _setup()
    as_of = date.fromisoformat(args.as_of) if args.as_of else date.today()
    source = prepare_program("Onboarding benchmark", args, as_of, progress=print)
    folder = Path(tempfile.mkdtemp(prefix="fogkeeper-onboard-"))
    try:
        files = _export(source, folder, args.format)
        target = _empty_agency(source)
        print(
            f"Importing {len(files)} {args.format.upper()} files into {target.code!r}; load "
            f"{_load()}"
        )
        per_kind, wall = _import(target, files, as_of)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"Load after: {_load()}")
    print(f"{'kind':<20}{'rows':>12}{'seconds':>10}{'rows/s':>10}")
    for kind, (rows, seconds) in per_kind.items():
        print(f"{kind:<20}{rows:>12,}{seconds:>10.1f}{rows / max(seconds, 1e-9):>10,.0f}")
    rows = sum(r for r, _ in per_kind.values())
    print(f"{'all':<20}{rows:>12,}{wall:>10.1f}{rows / wall:>10,.0f}")
    met = "met" if wall <= TARGET_SECONDS else "NOT met"
    print(
        f"Import of {args.establishments:,} establishments, {args.years} years: {wall:.0f} s "
        f"(target at most {TARGET_SECONDS:.0f} s: {met})"
    )


if __name__ == "__main__":
    main()
