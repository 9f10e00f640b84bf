"""The conformance cases of ../shared/spec/cases (copied here), run through the real CLI."""

from pathlib import Path

import pytest
import yaml

from .conformance import check_case_with_cli

CASES = sorted((Path(__file__).parent / "cases").glob("*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_it_meets_the_conformance_case(path, tmp_path):
    assert check_case_with_cli(yaml.safe_load(path.read_text()), tmp_path) == []


def test_it_has_every_shared_case():
    shared = Path(__file__).resolve().parents[3] / "shared" / "spec" / "cases"
    if not shared.is_dir():
        pytest.fail(f"the shared conformance cases are not at {shared}")
    ours = {p.name for p in CASES}
    assert {p.name for p in shared.glob("*.yaml")} <= ours
