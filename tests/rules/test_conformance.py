"""The conformance cases of ../shared/spec/cases (copied here), run through the real CLI."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conformance import norm, problems

CASES = sorted((Path(__file__).parent / "cases").glob("*.yaml"))


def run_cli(case: dict, tmp_path: Path) -> subprocess.CompletedProcess:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(case, default=norm))
    return subprocess.run(
        [sys.executable, "-m", "fogkeeper.cli", "evaluate", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_it_meets_the_conformance_case(path, tmp_path):
    spec = yaml.safe_load(path.read_text())
    proc = run_cli(spec["case"], tmp_path)
    expect = spec.get("expect", {})
    if "error" in expect:
        assert proc.returncode == 2
        assert expect["error"].lower() in proc.stderr.lower()
        assert proc.stdout == ""
        return
    assert proc.returncode == 0, proc.stderr
    assert problems(expect, json.loads(proc.stdout)) == []


def test_it_has_every_shared_case():
    shared = Path(__file__).resolve().parents[3] / "shared" / "spec" / "cases"
    if not shared.is_dir():
        pytest.fail(f"the shared conformance cases are not at {shared}")
    ours = {p.name for p in CASES}
    assert {p.name for p in shared.glob("*.yaml")} <= ours
