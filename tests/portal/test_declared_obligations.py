"""The operator's portal says an obligation of the schedule, names the rule broken when it is
missed and tells the operator's own from the agency's as the check module that plans it
declares (its RULES): a new obligation needs no list of the portal's."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

from fogkeeper.portal.operator.selectors import overdue_rows, schedule_rows
from fogkeeper.rules.checks import devices
from fogkeeper.rules.declared import Rule
from fogkeeper.rules.packs import load_pack

IMAGINARY = Path(__file__).resolve().parents[1] / "rules" / "packs" / "imaginary-town"
AS_OF = date(2025, 7, 15)
NAMES = {"GI-1": "the interceptor GI-1"}
FINE = {"amount": "150.00"}


def _pack(tmp_path: Path):
    """The imaginary town with a rule of lids and its title."""
    folder = tmp_path / IMAGINARY.name
    shutil.copytree(IMAGINARY, folder)
    path = folder / "pack.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "\nrules:\n", '\nrules:\n  gcd.lid_missing: {citation: "7.40.050(G)", title: "Lid off"}\n'
    )
    path.write_text(text, encoding="utf-8")
    return load_pack(folder)


def _declare(monkeypatch, rule: Rule) -> None:
    """`rule` added to devices.py's declarations, and nowhere else."""
    monkeypatch.setattr(devices, "RULES", (*getattr(devices, "RULES", ()), rule), raising=False)


def _rows(pack):
    item = {"obligation": "gcd.lid_check", "subject": "GI-1", "due": "2025-07-01", "citation": "G"}
    fines = {("gcd.lid_missing", "GI-1"): FINE}
    overdue = overdue_rows(pack, [item], NAMES, fines, AS_OF)
    return schedule_rows(pack, [item], NAMES, AS_OF), overdue


def test_a_declared_obligation_is_said_titled_and_overdue_as_its_module_declares(
    tmp_path, monkeypatch
):
    pack = _pack(tmp_path)
    _declare(
        monkeypatch,
        Rule("gcd.lid_missing", obligation="gcd.lid_check", says="Lid check of {subject}"),
    )
    [row], [overdue] = _rows(pack)
    assert (row["text"], row["if_missed"], row["citation"]) == (
        "Lid check of the interceptor GI-1",
        "Lid off",
        "G",
    )
    assert (overdue["text"], overdue["days"], overdue["fine"]) == (
        "Lid check of the interceptor GI-1",
        14,
        FINE,
    )


def test_an_obligation_declared_the_agencys_is_not_the_operators_overdue(tmp_path, monkeypatch):
    pack = _pack(tmp_path)
    _declare(
        monkeypatch,
        Rule("gcd.lid_missing", obligation="gcd.lid_check", says="Lid check", agency_does=True),
    )
    [row], overdue = _rows(pack)
    assert (row["text"], row["if_missed"], overdue) == ("Lid check", "Lid off", [])
