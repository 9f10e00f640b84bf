"""Checks a report against a conformance case's `expect` (the format of
../shared/tools/conformance.py, whose matching rules this mirrors)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

from fogkeeper.cli import main


def norm(v: Any) -> Any:
    return v.isoformat() if hasattr(v, "isoformat") else v


def matches(expected: dict, actual: dict) -> bool:
    for key, want in expected.items():
        have = actual.get(key)
        want = norm(want)
        if isinstance(want, int | float) and not isinstance(want, bool):
            if not isinstance(have, int | float) or abs(have - want) > 0.005:
                return False
        elif isinstance(want, dict):
            if not isinstance(have, dict) or not matches(want, have):
                return False
        elif have != want:
            return False
    return True


def problems(expect: dict, report: dict) -> list[str]:
    out = []
    findings = report.get("findings", [])
    if "status" in expect and report.get("status") != expect["status"]:
        out.append(f"status {report.get('status')!r}, expected {expect['status']!r}")
    if "open" in expect:
        got = {
            (f["rule"], f["subject"])
            for f in findings
            if f["severity"] == "violation" and f["open"]
        }
        want = {tuple(p) for p in expect["open"]}
        if got != want:
            out.append(f"open violations: missing {sorted(want - got)}, extra {sorted(got - want)}")
    for f in expect.get("findings", []):
        if not any(matches(f, a) for a in findings):
            out.append(f"no finding matching {f}")
    for f in expect.get("absent", []):
        hit = [a for a in findings if matches(f, a)]
        if hit:
            out.append(f"unexpected finding matching {f}: {hit[0]}")
    for section in ("schedule", "deadlines", "accruals"):
        for e in expect.get(section, []):
            if not any(matches(e, a) for a in report.get(section, [])):
                out.append(f"{section}: none matching {e}")
    return out


def check_case_with_cli(spec: dict, tmp_path: Path, *args: str) -> list[str]:
    """Run a {name, case, expect} case through `fogkeeper evaluate` (with `args` before the
    file) and list how the outcome differs from `expect`. The command's own main, in this
    process: `make test` runs the shared cases through the installed command as well."""
    path = tmp_path / "case.json"
    path.write_text(json.dumps(spec["case"], default=norm))
    out_text, err_text = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out_text), contextlib.redirect_stderr(err_text):
        returncode = main(["evaluate", *args, str(path)])
    stdout, stderr = out_text.getvalue(), err_text.getvalue()
    expect = spec.get("expect", {})
    if "error" in expect:
        out = [] if returncode == 2 else [f"exit status {returncode}, expected 2"]
        if expect["error"].lower() not in stderr.lower():
            out.append(f"error output lacks {expect['error']!r}: {stderr.strip()[:200]!r}")
        return out + (["printed a report for bad input"] if stdout.strip() else [])
    if returncode != 0:
        return [f"exit status {returncode}: {stderr.strip()[:300]}"]
    return problems(expect, json.loads(stdout))
