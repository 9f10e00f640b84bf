"""`fogkeeper packs new FOLDER`: a new agency's pack, every key commented with what it means and
every value its ordinance must give a "TODO" placeholder; `packs check` lists each placeholder
with its line, and once they hold the ordinance's words the pack passes and loads."""

from __future__ import annotations

import pytest

from fogkeeper.cli import main
from fogkeeper.rules.packcheck import check_pack
from fogkeeper.rules.packs import load_pack
from tests.rules.new_pack import fill

FILES = ("pack.yaml", "parameters.yaml", "checklist.yaml", "enforcement.yaml")


def test_it_writes_a_commented_pack_and_says_what_comes_next(tmp_path, capsys):
    folder = tmp_path / "example-city"
    assert main(["packs", "new", str(folder), "--name", "City of Example"]) == 0
    out = capsys.readouterr().out
    assert f"{folder}: a new pack 'example-city'" in out
    assert f"fogkeeper packs check {folder}" in out
    assert sorted(p.name for p in folder.iterdir()) == sorted([*FILES, "letters"])
    pack_yaml = (folder / "pack.yaml").read_text(encoding="utf-8")
    assert "\nid: example-city\n" in pack_yaml and "\nname: City of Example\n" in pack_yaml
    for key in ("id", "name", "ordinance", "effective", "effective_reference", "timezone",
                "titles", "device_kinds", "categories", "holidays", "rules",
                "state_reporting"):  # fmt: skip
        assert f"\n# {key}" in pack_yaml, f"{key} is not explained"


def test_check_lists_each_placeholder_with_its_line_and_nothing_else(tmp_path, capsys):
    folder = tmp_path / "example-city"
    main(["packs", "new", str(folder)])
    capsys.readouterr()
    problems = check_pack(folder).problems
    assert len(problems) > 50
    assert {p.message for p in problems} == {
        "a placeholder of the new pack: put the ordinance's words here"
    }
    for p in problems:
        line = (tmp_path / p.file).read_text(encoding="utf-8").splitlines()[p.line - 1]
        assert "TODO" in line.split("#")[0]
    assert main(["packs", "check", str(folder)]) == 1
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].startswith("example-city/pack.yaml:13: ordinance: a placeholder of the new")


def test_filled_in_it_passes_and_loads(tmp_path, capsys):
    folder = tmp_path / "example-city"
    main(["packs", "new", str(folder), "--name", "City of Example"])
    fill(folder)
    assert check_pack(folder).problems == []
    pack = load_pack(folder)
    assert (pack.id, pack.name) == ("example-city", "City of Example")
    assert pack.rules["gcd.service_overdue"].citation == "7.40.050(B)"
    assert main(["packs", "check", str(folder)]) == 0


def test_each_checklist_item_comes_with_the_words_of_its_finding(tmp_path):
    folder = tmp_path / "example-city"
    main(["packs", "new", str(folder)])
    fill(folder)
    checklist = load_pack(folder).checklist
    assert checklist
    for item in checklist.values():
        assert item.finding and item.finding != item.question and not item.finding.endswith("?")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("My City", "a pack's id is lower-case letters, digits and hyphens"),
        ("san-clemente", "is the id of a bundled pack"),
    ],
)
def test_it_refuses_an_id_it_cannot_use_and_writes_nothing(tmp_path, capsys, name, why):
    assert main(["packs", "new", str(tmp_path / name)]) == 2
    assert why in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_it_refuses_a_folder_that_exists_and_leaves_it_alone(tmp_path, capsys):
    folder = tmp_path / "example-city"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["packs", "new", str(folder)]) == 2
    assert "already exists: nothing was written" in capsys.readouterr().err
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def test_it_refuses_a_name_of_two_lines(tmp_path, capsys):
    assert main(["packs", "new", str(tmp_path / "x"), "--name", 'The "Town"']) == 2
    assert "a name is one line of text" in capsys.readouterr().err
