"""requests.yaml, the requests a pack lets an operator file (fogkeeper/filings): the pack check
names what is wrong with its key; a pack without the file declares none."""

from __future__ import annotations

from pathlib import Path

from fogkeeper.rules.packs import PACKS_DIR
from fogkeeper.rules.requests import parse_requests
from tests.rules.test_packs_check import copy, edit, problems

SC = PACKS_DIR / "san-clemente"


def test_the_shipped_requests_parse_with_their_citations():
    from fogkeeper.safeload import load_yaml

    kinds = parse_requests(load_yaml((SC / "requests.yaml").read_text(encoding="utf-8")))
    record = kinds["record_of_proceedings"]
    assert record.deliver_within is not None and record.deliver_within.days == 90
    assert record.deliver_within.reference.startswith("13.30.090(D)")
    assert kinds["revised_schedule"].citation == "13.30.050(H)(1)(b)"


def test_it_names_an_answer_it_does_not_know(tmp_path: Path):
    folder = copy(tmp_path, SC)
    edit(folder, "requests.yaml", "answer: decide", "answer: ponder")
    assert any(
        "requests.yaml" in p and "requests.revised_schedule.answer" in p and "'ponder'" in p
        for p in problems(folder)
    )


def test_it_names_a_delivery_period_without_its_reference(tmp_path: Path):
    folder = copy(tmp_path, SC)
    edit(
        folder,
        "requests.yaml",
        'deliver_within: {value: 90, reference: "13.30.090(D) (within ninety days after the '
        'written request is filed)"}',
        "deliver_within: {value: 90}",
    )
    assert any("deliver_within" in p and "no reference" in p for p in problems(folder))


def test_a_pack_without_the_file_has_no_problem_of_it():
    assert not (PACKS_DIR / "us-tx-cleburne" / "requests.yaml").exists()
    assert problems(PACKS_DIR / "us-tx-cleburne") == []
