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
    for key in (
        "id",
        "name",
        "ordinance",
        "effective",
        "effective_reference",
        "timezone",
        "titles",
        "device_kinds",
        "categories",
        "holidays",
        "rules",
        "state_reporting",
    ):
        assert f"\n# {key}" in pack_yaml, f"{key} is not explained"


def test_check_lists_each_placeholder_with_its_line_and_nothing_else(tmp_path, capsys):
    folder = tmp_path / "example-city"
    main(["packs", "new", str(folder)])
    capsys.readouterr()
    problems = check_pack(folder).problems
    assert len(problems) > 50
    assert all(p.message.startswith("to decide: ") for p in problems), problems
    for p in problems:
        line = (tmp_path / p.file).read_text(encoding="utf-8").splitlines()[p.line - 1]
        assert "TODO" in line.split("#")[0]
        assert p.key.rpartition(".")[2] in line, (p, line)
    assert main(["packs", "check", str(folder)]) == 1
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == (
        "example-city/pack.yaml:15: ordinance: to decide: the chapter, as Town Code ch. 7.40 "
        "(Ord. 77, 2023)"
    )


# Every value an agency must decide, with the words `packs check` names it by (issue 38 item 3):
# none of them may pass unnoticed with the scaffold's example in it.
DECISIONS = {
    ("pack.yaml", "timezone"): "the jurisdiction's time zone",
    ("pack.yaml", "effective"): "the day the chapter took effect",
    ("pack.yaml", "titles.permit"): "the ordinance's name for its permit",
    ("pack.yaml", "titles.manager"): "the official who runs the program",
    ("pack.yaml", "titles.inspector"): "the inspector's title",
    ("pack.yaml", "titles.hearing_body"): "who hears an appeal of a notice",
    ("pack.yaml", "titles.appeal_body"): "who hears an appeal of an order",
    ("pack.yaml", "titles.emergency_appeal"): "who hears an appeal of an emergency order",
    ("pack.yaml", "area.centre"): "the centre of the city",
    (
        "parameters.yaml",
        "gcd.default_service_frequency.values.2024-01-01.value.interceptor",
    ): "how often an interceptor is pumped out",
    (
        "parameters.yaml",
        "gcd.default_service_frequency.values.2024-01-01.value.trap",
    ): "how often a grease trap is pumped out",
    (
        "parameters.yaml",
        "gcd.accumulation_limit.values.2024-01-01.value",
    ): "the share of the depth FOG and solids may fill",
    (
        "parameters.yaml",
        "enforcement.daily_fine.values.2024-01-01.value",
    ): "the fine for each day after the correction date",
    (
        "parameters.yaml",
        "enforcement.penalty_cap.overflow.values.2024-01-01.value",
    ): "the cap of this class",
    (
        "parameters.yaml",
        "gcd.design_limits.values.2024-01-01.value",
    ): "the design limits by device kind",
}


def test_every_value_the_agency_must_decide_is_named_with_what_to_decide(tmp_path):
    folder = tmp_path / "example-city"
    main(["packs", "new", str(folder)])
    named = {(p.file.partition("/")[2], p.key): p.message for p in check_pack(folder).problems}
    for where, what in DECISIONS.items():
        assert where in named, f"{where} is not named by packs check"
        assert named[where].startswith(f"to decide: {what}"), named[where]
    text = "".join((folder / f).read_text(encoding="utf-8") for f in FILES)
    for scaffold_answer in (
        "America/Los_Angeles",
        "Board of Selectmen",
        "2024-01-01\n",
        "30%",
        "{value: 250",
        '"60 days"',
    ):
        assert scaffold_answer not in text.replace('"TODO', "#"), scaffold_answer


def test_a_value_left_undecided_is_the_one_problem(tmp_path):
    folder = tmp_path / "example-city"
    main(["packs", "new", str(folder)])
    pack_yaml = folder / "pack.yaml"
    kept = next(
        ln
        for ln in pack_yaml.read_text(encoding="utf-8").splitlines()
        if ln.startswith("timezone:")
    )
    fill(folder)
    text = pack_yaml.read_text(encoding="utf-8").replace('timezone: "America/Chicago"', kept)
    pack_yaml.write_text(text, encoding="utf-8")
    (problem,) = check_pack(folder).problems
    assert (problem.file, problem.key) == ("example-city/pack.yaml", "timezone")
    assert problem.message == "to decide: the jurisdiction's time zone, as America/Chicago"
    assert problem.line == text.splitlines().index(kept) + 1


def test_a_problem_of_enforcement_yaml_names_its_line(tmp_path):
    folder = tmp_path / "example-city"
    main(["packs", "new", str(folder)])
    fill(folder)
    path = folder / "enforcement.yaml"
    text = path.read_text(encoding="utf-8").replace("date_field: noticed_on", "date_field: sent_on")
    path.write_text(text, encoding="utf-8")
    (problem,) = check_pack(folder).problems
    assert problem.key == "actions.invoice.date_field"
    assert "'sent_on' is not one of its fields" in problem.message
    assert text.splitlines()[problem.line - 1].strip() == "date_field: sent_on"


def test_a_deadline_problem_names_the_line_of_the_deadline(tmp_path):
    folder = tmp_path / "example-city"
    main(["packs", "new", str(folder)])
    fill(folder)
    path = folder / "enforcement.yaml"
    text = path.read_text(encoding="utf-8").replace("appeal_to: coordinator", "appeal_to: mayor")
    path.write_text(text, encoding="utf-8")
    (problem,) = check_pack(folder).problems
    assert problem.key == "actions.notice_of_violation.deadlines[0] appeal.appeal_to"
    assert "appeal_to: mayor" in text.splitlines()[problem.line - 1]


@pytest.mark.parametrize(
    ("area", "key", "words"),
    [
        (
            "{centre: [41.6, 93.6, 1], radius_km: 5, streets: [Main St]}",
            "area.centre",
            "is not [latitude, longitude] in decimal degrees",
        ),
        (
            "{centre: [41.6, -93.6], radius_km: 0, streets: [Main St]}",
            "area.radius_km",
            "is not a distance in km",
        ),
        (
            "{centre: [41.6, -93.6], radius_km: 5, streets: []}",
            "area.streets",
            "expected a list of street names",
        ),
        ("{centre: [41.6, -93.6], radius: 5, streets: [Main St]}", "area.radius", "unknown key"),
    ],
)
def test_a_wrong_area_is_named_with_its_line(tmp_path, area, key, words):
    folder = tmp_path / "example-city"
    main(["packs", "new", str(folder)])
    fill(folder)
    path = folder / "pack.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("\narea:\n") + 1
    end = text.index("\n# ", start) + 1
    path.write_text(text[:start] + f"area: {area}\n" + text[end:], encoding="utf-8")
    problems = [p for p in check_pack(folder).problems if p.key == key]
    assert len(problems) == 1 and words in problems[0].message, check_pack(folder).problems
    assert problems[0].line == text[:start].count("\n") + 1


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
