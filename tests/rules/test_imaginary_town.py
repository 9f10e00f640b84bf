"""A third ordinance by data alone: the imaginary-town pack (tests/rules/packs/) loads next
to the bundled ones and decides its own conformance cases through the real CLI."""

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from fogkeeper.rules import CaseFileError, evaluate, parse_case
from fogkeeper.rules.packs import PACKS_DIR, PackRegistry, default_registry

from .conformance import check_case_with_cli

HERE = Path(__file__).parent
PACKS = HERE / "packs"
CASES = sorted((HERE / "imaginary_cases").glob("*.yaml"))
OWN_ITEMS = ("bmp.grease_bin_lid", "records.hauler_receipts")


def fogkeeper(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fogkeeper.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def registry() -> PackRegistry:
    return PackRegistry([PACKS_DIR, PACKS])


def inspected(jurisdiction: str, item: str) -> dict:
    return {
        "jurisdiction": jurisdiction,
        "as_of": "2025-05-01",
        "establishment": {
            "id": "FSE-X",
            "opened_on": "2024-05-01",
            "operator": {"name": "X", "since": "2024-05-01"},
        },
        "inspections": [
            {"id": "I-1", "date": "2025-03-03", "answers": [{"item": item, "compliant": False}]}
        ],
    }


def checklist_error(jurisdiction: str, item: str) -> str:
    with pytest.raises(CaseFileError) as err:
        parse_case(inspected(jurisdiction, item), packs=registry())
    return str(err.value)


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_it_meets_the_imaginary_town_case(path, tmp_path):
    spec = yaml.safe_load(path.read_text())
    assert spec["case"]["jurisdiction"] == "imaginary-town"
    assert check_case_with_cli(spec, tmp_path, "--packs", str(PACKS)) == []


def test_it_has_enough_imaginary_town_cases():
    assert len(CASES) >= 6


def test_it_loads_the_pack_without_the_bundled_ones():
    pack = PackRegistry([PACKS]).get("imaginary-town")
    assert pack.ordinance.startswith("Imaginary Town Code ch. 7.40")
    assert str(pack.effective) == "2024-01-01"
    assert pack.titles["permit"] == "Grease Discharge License"


def test_it_uses_the_imaginary_town_holidays():
    cal = registry().get("imaginary-town").calendar
    days = {str(d) for d in cal.holidays(2025)}
    assert "2025-06-12" in days  # Founders' Day
    assert "2025-03-31" not in days  # Cesar Chavez Day is not a Town holiday
    assert "2025-06-19" not in days  # nor is Juneteenth


@pytest.mark.parametrize("item", OWN_ITEMS)
@pytest.mark.parametrize("jurisdiction", ["san-clemente", "town-10-02"])
def test_it_rejects_imaginary_town_items_for_the_bundled_packs(jurisdiction, item):
    assert f"{item!r} is not on the {jurisdiction} checklist" in checklist_error(jurisdiction, item)


@pytest.mark.parametrize("item", ["bmp.mop_water", "bmp.spill_kit", "discharge.dishwasher_to_gcd"])
def test_it_rejects_bundled_only_items_for_imaginary_town(item):
    assert f"{item!r} is not on the imaginary-town checklist" in checklist_error(
        "imaginary-town", item
    )


def test_it_finds_only_the_bundled_packs_own_items_missing_from_imaginary_town():
    packs = registry()
    own = set(packs.get("imaginary-town").checklist)
    for bundled in ("san-clemente", "town-10-02"):
        assert own - set(packs.get(bundled).checklist) == set(OWN_ITEMS)


@pytest.mark.parametrize("item", OWN_ITEMS)
def test_it_reports_an_own_item_with_its_own_citation(item):
    report = evaluate(parse_case(inspected("imaginary-town", item), packs=registry()))
    (finding,) = [f for f in report.findings if f.rule == item]
    assert finding.citation == registry().get("imaginary-town").checklist[item].citation
    assert finding.citation.startswith("7.40.")
    assert finding.open


def test_it_does_not_know_imaginary_town_without_the_extra_folder():
    assert not default_registry().has("imaginary-town")
    with pytest.raises(CaseFileError, match="unknown jurisdiction 'imaginary-town'"):
        parse_case(inspected("imaginary-town", "bmp.signage"))


def test_it_lists_the_pack_with_packs_dir():
    proc = fogkeeper("packs", "--packs", str(PACKS))
    assert proc.returncode == 0, proc.stderr
    rows = {line.split()[0]: line for line in proc.stdout.splitlines()[1:]}
    assert set(rows) == {
        "imaginary-town",
        "san-clemente",
        "town-10-02",
        "us-oh-aurora",
        "us-tx-cleburne",
    }
    assert "2024-01-01" in rows["imaginary-town"]
    assert "Imaginary Town Code ch. 7.40" in rows["imaginary-town"]


def test_it_shows_the_pack_parameters_with_their_references():
    proc = fogkeeper(
        "packs", "show", "imaginary-town", "--as-of", "2025-01-01", "--packs", str(PACKS)
    )
    assert proc.returncode == 0, proc.stderr
    assert "gcd.accumulation_limit = 0.3  [7.40.050(C); since 2024-01-01]" in proc.stdout
    assert "bmp.grease_bin_lid" in proc.stdout
    assert "penalty_order: Order imposing administrative penalties" in proc.stdout
