"""What real ordinances say, by pack keys (issue 38 item 2): the reach-town test pack
(tests/rules/format_packs/) uses each new key, and its cases (format_cases/) are decided
through the real CLI at each key's boundaries."""

from pathlib import Path

import pytest
import yaml

from fogkeeper.rules.formula import FormulaError, parse
from fogkeeper.rules.packcheck import check_pack
from fogkeeper.rules.packs import load_pack
from fogkeeper.rules.scaffold import new_pack
from tests.rules.new_pack import fill
from tests.rules.test_packs_check import copy as copy_pack
from tests.rules.test_packs_check import edit

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
    return copy_pack(tmp_path, REACH)


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


# The sizing formula: arithmetic only, read without eval


def test_a_formula_is_worked_out_from_its_named_inputs():
    f = parse("max(seats * 5 * (hours / 2), 50) - -1")
    assert f.names == {"seats", "hours"}
    assert f.evaluate({"seats": 50, "hours": 8}) == 1001


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('true')",
        "seats ** 2",
        "open('x')",
        "seats.real",
        "[1][0]",
        "seats if 1 else 2",
        "lambda: 1",
        "'a' * 3",
        "True * 2",
        "min(*seats)",
        "max(seats, key=1)",
        "seats; 1",
        "",
        "x" * 600,
    ],
)
def test_a_formula_refuses_anything_but_arithmetic_in_words(text):
    with pytest.raises(FormulaError) as err:
        parse(text)
    assert "Traceback" not in str(err.value) and str(err.value)


def test_a_formula_names_what_it_lacks_and_a_division_by_zero():
    f = parse("seats / hours")
    with pytest.raises(FormulaError, match="no value for hours"):
        f.evaluate({"seats": 1})
    with pytest.raises(FormulaError, match="divides by zero"):
        f.evaluate({"seats": 1, "hours": 0})


def test_check_names_a_formula_that_is_not_arithmetic_and_a_name_not_defined(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", "max(fixture_flow_gpm * 30, 50)", "fixture_flow * 30")
    edit(pack, "parameters.yaml", "seats * gallons_per_meal", "seats ** gallons_per_meal")
    line = line_of(pack / "parameters.yaml", "gcd.sizing:")
    assert lines(pack) == [
        f"reach-town/parameters.yaml:{line}: gcd.sizing: interceptor.formula: "
        "'seats ** gallons_per_meal * hours_open / 2 * storage_factor': only + - * / are allowed",
        f"reach-town/parameters.yaml:{line}: gcd.sizing: trap.formula: "
        "'fixture_flow' is neither one of its inputs nor a constant",
    ]


def test_check_wants_the_sizing_rule_when_the_pack_lists_gcd_undersized(tmp_path):
    pack = copy(tmp_path)
    text = (pack / "parameters.yaml").read_text()
    start, end = text.index("gcd.sizing:"), text.index("hauler.certification:")
    (pack / "parameters.yaml").write_text(text[:start] + text[end:])
    assert [p.split(": ", 1)[1] for p in lines(pack)] == [
        "gcd.sizing: missing: rule gcd.undersized reads it"
    ]


def uncomment(path: Path, first: str, last: str) -> None:
    """Uncomment the lines of a scaffold's example from the one holding `first` to `last`."""
    out, inside = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        inside = inside or first in line
        out.append(line.replace("# ", "", 1) if inside else line)
        inside = inside and last not in line
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def test_the_new_packs_sizing_example_passes_once_uncommented(tmp_path):
    folder = tmp_path / "example-city"
    new_pack(folder)
    uncomment(folder / "parameters.yaml", "# gcd.sizing:", "reference:")
    uncomment(folder / "pack.yaml", "# gcd.undersized:", "gcd.undersized")
    fill(folder)
    assert lines(folder) == []
    assert "gcd.undersized" in load_pack(folder).rules


def test_check_wants_the_certifications_name_when_the_ordinance_requires_one(tmp_path):
    pack = copy(tmp_path)
    edit(
        pack,
        "parameters.yaml",
        "{required: true, name: FOG hauler certification}",
        "{required: yes please}",
    )
    line = line_of(pack / "parameters.yaml", "hauler.certification:")
    assert lines(pack) == [
        f"reach-town/parameters.yaml:{line}: hauler.certification: "
        "required: 'yes please' is not true or false"
    ]
    edit(pack, "parameters.yaml", "{required: yes please}", "{required: true}")
    assert lines(pack) == [
        f"reach-town/parameters.yaml:{line}: hauler.certification: "
        "name: required: the certification's name in the ordinance's words"
    ]


def test_the_new_packs_certification_example_passes_once_uncommented(tmp_path):
    folder = tmp_path / "example-city"
    new_pack(folder)
    uncomment(folder / "parameters.yaml", "# hauler.certification:", "reference:")
    uncomment(folder / "pack.yaml", "# gcd.uncertified_hauler:", "gcd.uncertified_hauler")
    fill(folder)
    assert lines(folder) == []
    assert "gcd.uncertified_hauler" in load_pack(folder).rules


# Penalties set by council resolution, dated like any value


def test_check_names_a_resolution_that_is_not_a_number_on_its_line(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", 'resolution: "Resolution 2025-17"', 'resolution: ""')
    line = line_of(pack / "parameters.yaml", 'resolution: ""')
    assert lines(pack) == [
        f"reach-town/parameters.yaml:{line}: enforcement.daily_fine.values.2025-07-01."
        "resolution: '' is not a resolution's number, as 'Resolution 2024-17'"
    ]


def test_a_value_set_by_resolution_is_cited_as_that_resolution_in_the_letters(tmp_path):
    from datetime import date

    from fogkeeper.enforcement.letters import _law, _penalty

    pack = load_pack(REACH)
    before = _penalty(pack, {"class": "maintenance", "days": 1}, date(2025, 6, 30))
    after = _penalty(pack, {"class": "maintenance", "days": 1}, date(2025, 7, 1))
    assert (before["cap"], before["reference"]) == (
        2500,
        "Resolution 2023-41, adopted under 7.40.110(C)(2)",
    )
    assert (after["cap"], after["reference"]) == (
        3000,
        "Resolution 2025-17, adopted under 7.40.110(C)(2)",
    )
    fine = _law(pack, date(2025, 7, 1))["enforcement_daily_fine"]
    assert fine == {"value": 400, "reference": "Resolution 2025-17, adopted under 7.40.110(B)"}


def test_the_new_packs_resolution_example_passes_once_filled(tmp_path):
    folder = tmp_path / "example-city"
    new_pack(folder)
    fill(folder)
    text = (folder / "parameters.yaml").read_text()
    start = text.index("enforcement.daily_fine:")
    line = text.index("reference:", start)
    text = text[:line] + 'resolution: "Resolution 2023-41", ' + text[line:]
    (folder / "parameters.yaml").write_text(text)
    assert lines(folder) == []
    fine = load_pack(folder).parameters["enforcement.daily_fine"].values[0]
    assert fine.resolution == "Resolution 2023-41"
    assert fine.reference.startswith("Resolution 2023-41, adopted under ")
