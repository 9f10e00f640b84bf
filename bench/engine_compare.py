"""Proof that a change to the engine changes no report: a digest of every report, compared.

    python -m bench.engine_compare --out /tmp/engine-before.txt            # before the change
    python -m bench.engine_compare --out /tmp/engine-after.txt \\
        --compare /tmp/engine-before.txt                                    # after it

Generates case files with bench.engine's Generator (seed 20250630 unless told), evaluates
each, and writes one line per case file: its index and the sha256 of its report's canonical
JSON (`json.dumps(report.to_dict(), sort_keys=True, ensure_ascii=False)`), or of the
problems when the file is refused. With --compare, names the first cases whose digests
differ and exits 1 if any does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from bench.engine import Generator
from fogkeeper.rules import CaseFileError, evaluate, parse_case


def digest(data: dict) -> str:
    try:
        report = evaluate(parse_case(data))
    except CaseFileError as e:
        text = "refused " + json.dumps([str(p) for p in e.problems], ensure_ascii=False)
    else:
        text = json.dumps(report.to_dict(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_digests(path: Path, count: int, seed: int) -> None:
    gen = Generator(seed)
    started = time.perf_counter()
    with path.open("w", encoding="utf-8") as out:
        for i in range(count):
            out.write(f"{i} {digest(gen.case(i))}\n")
            if (i + 1) % 10_000 == 0:
                print(f"  {i + 1:,} / {count:,}  {time.perf_counter() - started:.0f} s")


def compare(before: Path, after: Path) -> int:
    old = before.read_text(encoding="utf-8").splitlines()
    new = after.read_text(encoding="utf-8").splitlines()
    differ = [a.split()[0] for a, b in zip(old, new, strict=False) if a != b]
    if len(old) != len(new):
        print(f"{before} has {len(old):,} lines, {after} {len(new):,}")
    if differ:
        print(f"{len(differ):,} of {min(len(old), len(new)):,} reports differ, first cases:")
        print("  " + " ".join(differ[:20]))
    if differ or len(old) != len(new):
        return 1
    print(f"all {len(new):,} report digests identical")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="file to write the digests to")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20250630)
    parser.add_argument("--compare", type=Path, help="digests written before the change")
    args = parser.parse_args(argv)
    write_digests(args.out, args.count, args.seed)
    return compare(args.compare, args.out) if args.compare else 0


if __name__ == "__main__":
    sys.exit(main())
