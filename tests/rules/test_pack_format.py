"""What real ordinances say, by pack keys (issue 38 item 2): the reach-town test pack
(tests/rules/format_packs/) uses each new key, and its cases (format_cases/) are decided
through the real CLI at each key's boundaries."""

import shutil
from pathlib import Path

import pytest
import yaml

from fogkeeper.rules.packcheck import check_pack

from .conformance import check_case_with_cli

HERE = Path(__file__).parent
PACKS = HERE / "format_packs"
CASES = sorted((HERE / "format_cases").glob("*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_it_meets_the_pack_format_case(path, tmp_path):
    spec = yaml.safe_load(path.read_text())
    assert check_case_with_cli(spec, tmp_path, "--packs", str(PACKS)) == []


REACH = PACKS / "reach-town"


def copy(tmp_path: Path) -> Path:
    folder = tmp_path / REACH.name
    shutil.copytree(REACH, folder)
    return folder


def edit(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def lines(folder: Path) -> list[str]:
    """`packs check`'s lines for the folder, each with its file and line."""
    return [str(p) for p in check_pack(folder).problems]


def line_of(path: Path, text: str) -> int:
    return next(i for i, x in enumerate(path.read_text().splitlines(), start=1) if text in x)


def test_the_pack_that_uses_every_new_key_passes_the_check():
    assert lines(REACH) == []


def test_check_names_a_comparator_that_is_neither_over_nor_at_or_over(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", "value: at_or_over", "value: reaches")
    line = line_of(pack / "parameters.yaml", "gcd.accumulation_comparator:")
    assert lines(pack) == [
        f"reach-town/parameters.yaml:{line}: gcd.accumulation_comparator: "
        "'reaches' is not one of over, at_or_over"
    ]
