"""`fogkeeper packs check`: every problem of a pack folder, one line each, naming its file
and key; the bundled packs and the imaginary town pass."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from fogkeeper.cli import main
from fogkeeper.rules import packcheck
from fogkeeper.rules.errors import PackError
from fogkeeper.rules.packcheck import PARAMETERS, check_pack, check_packs
from fogkeeper.rules.packs import PACKS_DIR, load_pack

ROOT = Path(__file__).resolve().parents[2]
PACKS = Path(__file__).resolve().parent / "packs"
IMAGINARY = PACKS / "imaginary-town"
ALL = [PACKS_DIR / "san-clemente", PACKS_DIR / "town-10-02", IMAGINARY]


def copy(tmp_path: Path, source: Path = IMAGINARY) -> Path:
    folder = tmp_path / source.name
    shutil.copytree(source, folder)
    return folder


def edit(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def problems(folder: Path) -> list[str]:
    """Each problem as file, key and message (its line is checked on its own, below)."""
    return [str(replace(p, line=None)) for p in check_pack(folder).problems]


# The packs we ship pass


@pytest.mark.parametrize("folder", ALL, ids=lambda f: f.name)
def test_it_finds_no_problem_in_the_packs_we_ship(folder):
    assert problems(folder) == []


def test_it_counts_what_a_clean_pack_holds():
    result = check_pack(IMAGINARY)
    assert re.fullmatch(
        r"imaginary-town: ok \(\d+ rules, \d+ parameters, 6 checklist items, 3 action types\)",
        result.summary(),
    )


# Each problem is named with its file and key


def test_it_names_a_rule_without_a_citation(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", 'gcd.missing: {citation: "7.40.040(A)", ', "gcd.missing: {")
    assert problems(pack) == [
        "imaginary-town/pack.yaml: rules.gcd.missing: no citation "
        "(every value of an ordinance must cite its section)"
    ]


def test_it_names_a_parameter_value_without_a_reference(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", '{value: "14 days", reference: "7.40.110(A)(2)"}', '"14 days"')
    edit(
        pack,
        "parameters.yaml",
        '2024-01-01: {value: "30 days", reference: "7.40.120(A)"}',
        '2024-01-01: {value: "30 days"}',
    )
    found = problems(pack)
    assert (
        "imaginary-town/parameters.yaml: enforcement.notice_appeal_period.values.2024-01-01: "
        "expected {value, reference}" in found
    )
    assert (
        "imaginary-town/parameters.yaml: fees.payment_period.values.2024-01-01: no reference "
        "(every value of an ordinance must cite its section)" in found
    )


def test_it_names_an_unknown_device_kind_with_the_packs_kinds(tmp_path):
    pack = copy(tmp_path)
    edit(
        pack, "parameters.yaml", "[interceptor, trap], reference", "[interceptor, tarp], reference"
    )
    assert problems(pack) == [
        "imaginary-town/parameters.yaml: gcd.accumulation_device_kinds: unknown device kind "
        "'tarp' (the pack's kinds: interceptor, trap, under_sink_trap)"
    ]


def test_it_names_an_unknown_device_kind_keying_a_mapping(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", 'under_sink_trap: "1 week"', 'hydro: "1 week"')
    assert problems(pack) == [
        "imaginary-town/parameters.yaml: gcd.default_service_frequency: unknown device kind "
        "'hydro' (the pack's kinds: interceptor, trap, under_sink_trap)"
    ]


def test_it_names_a_period_in_months_where_whole_days_are_required(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", "{value: 365, reference", "{value: '3 months', reference")
    assert problems(pack) == [
        "imaginary-town/parameters.yaml: report.lookback_days: '3 months' is a period in months "
        "where a whole number of days is required"
    ]


def test_it_names_a_bare_number_where_a_period_is_required(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", '{value: "14 days", reference', "{value: 14, reference")
    assert problems(pack) == [
        "imaginary-town/parameters.yaml: training.new_hire_window: 14 is a bare number where a "
        "period is required (write e.g. '14 days')"
    ]


def test_it_names_a_value_dated_before_the_pack_takes_effect(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", "    2024-01-01: {value: 0.30,", "    2023-12-01: {value: 0.30,")
    assert problems(pack) == [
        "imaginary-town/parameters.yaml: gcd.accumulation_limit.values.2023-12-01: before the "
        "pack takes effect (2024-01-01)"
    ]


def test_it_names_a_share_that_is_not_a_fraction(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", "{value: 0.30,", "{value: 30,")
    assert problems(pack) == [
        "imaginary-town/parameters.yaml: gcd.accumulation_limit: 30 is not a fraction above 0 "
        "and at most 1 (a share: 0.3 is 30%)"
    ]


def test_it_names_an_unknown_category(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", "{value: [full_service], reference", "{value: [cafe], reference")
    assert problems(pack) == [
        "imaginary-town/parameters.yaml: gcd.required_categories: unknown category 'cafe' "
        "(the pack's categories: full_service, limited_food_preparation, prepackaged_only)"
    ]


def test_it_names_a_penalty_cap_unit_and_imposer_it_does_not_know(tmp_path):
    pack = copy(tmp_path)
    edit(
        pack,
        "parameters.yaml",
        "amount: 1500, per: days, imposed_by: administrative",
        "amount: 1500, per: weeks, imposed_by: judge",
    )
    assert problems(pack) == [
        "imaginary-town/parameters.yaml: enforcement.penalty_cap.records: per: 'weeks' is not "
        "one of days, occurrences, gallons, violation_days",
        "imaginary-town/parameters.yaml: enforcement.penalty_cap.records: imposed_by: 'judge' "
        "is not one of administrative, court",
    ]


def test_it_names_a_parameter_a_listed_rule_reads_but_the_pack_lacks(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "parameters.yaml", "inspection.annual_interval:", "inspection.yearly_interval:")
    assert problems(pack) == [
        "imaginary-town/parameters.yaml: inspection.annual_interval: missing: rule "
        "inspection.annual_due reads it"
    ]


def test_it_names_missing_pack_keys_and_a_default_category_not_among_the_categories(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", "effective_reference:", "effective_note:")
    edit(pack, "pack.yaml", "default_category: full_service", "default_category: diner")
    found = problems(pack)
    assert "imaginary-town/pack.yaml: effective_reference: required" in found
    assert (
        "imaginary-town/pack.yaml: effective_note: unknown key (expected id, name, "
        "ordinance, effective, effective_reference, holidays, device_kinds, categories, "
        "default_category, timezone, titles, obligations, rules, area, state_reporting, "
        "billing, reports)" in found
    )
    assert (
        "imaginary-town/pack.yaml: default_category: unknown category 'diner' (the pack's "
        "categories: full_service, limited_food_preparation, prepackaged_only)" in found
    )


def test_it_names_a_wrong_payment_term_and_payment_link(tmp_path):
    pack = copy(tmp_path)
    edit(
        pack,
        "pack.yaml",
        "timezone:",
        "billing: {payment_term_days: 0, online: 'http://pay.example'}\ntimezone:",
    )
    found = problems(pack)
    assert (
        "imaginary-town/pack.yaml: billing.payment_term_days: expected whole days from 1 to "
        "366" in found
    )
    assert "imaginary-town/pack.yaml: billing.online: expected a link starting https://" in found


def test_it_names_a_state_pack_fogkeeper_does_not_have_with_its_line(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", "timezone:", "state_reporting: wq-2023-ohio\ntimezone:")
    (problem,) = check_pack(pack).problems
    assert str(replace(problem, line=None)) == (
        "imaginary-town/pack.yaml: state_reporting: 'wq-2023-ohio' is no State pack fogkeeper "
        "has: name one of wq-2022-0103-dwq, or none where the agency owes no State spill "
        "reports fogkeeper keeps"
    )
    assert problem.line == line_of(pack / "pack.yaml", "state_reporting:")


@pytest.mark.parametrize("value", ["none", "wq-2022-0103-dwq"])
def test_a_pack_names_the_state_pack_it_reports_to_or_none(tmp_path, value):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", "timezone:", f"state_reporting: {value}\ntimezone:")
    assert problems(pack) == []
    assert load_pack(pack).state_reporting == (None if value == "none" else value)


def test_the_loader_refuses_a_state_pack_fogkeeper_does_not_have(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", "timezone:", "state_reporting: ohio\ntimezone:")
    with pytest.raises(PackError, match="state_reporting: 'ohio' is no State pack"):
        load_pack(pack)


def test_it_names_a_device_kind_without_a_citation(tmp_path):
    pack = copy(tmp_path)
    edit(
        pack,
        "pack.yaml",
        '{title: Under-sink grease trap, citation: "7.40.040(B)(3)"}',
        "{title: Under-sink grease trap}",
    )
    assert problems(pack) == [
        "imaginary-town/pack.yaml: device_kinds.under_sink_trap: no citation (every value of an "
        "ordinance must cite its section)"
    ]


def test_it_names_holidays_without_a_reference_and_a_bad_weekday(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", '  reference: "Imaginary Town Code 2.08.020', '  source: "2.08.020')
    edit(pack, "pack.yaml", "month: 9, weekday: MO", "month: 9, weekday: MON")
    found = problems(pack)
    assert (
        "imaginary-town/pack.yaml: holidays: no reference (every value of an ordinance "
        "must cite its section)" in found
    )
    assert any(
        p.startswith("imaginary-town/pack.yaml: holidays.list[5].weekday: 'MON'") for p in found
    )


def test_it_names_a_checklist_item_without_a_citation(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "checklist.yaml", '  citation: "7.40.090(A)(2)"\n', "")
    assert problems(pack) == [
        "imaginary-town/checklist.yaml: [1] bmp.signage: no citation (every value of an "
        "ordinance must cite its section)"
    ]


def test_it_names_a_checklist_item_without_the_words_of_its_finding(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "checklist.yaml", '  finding: A sink had no "No Grease" sign posted over it\n', "")
    assert problems(pack) == [
        "imaginary-town/checklist.yaml: [1] bmp.signage: no finding (the words of the finding "
        "when the answer is not compliant: what was found, as a statement)"
    ]
    [problem] = check_pack(pack).problems
    assert problem.line == line_of(pack / "checklist.yaml", "- item: bmp.signage")
    assert str(problem).startswith(f"imaginary-town/checklist.yaml:{problem.line}: [1] ")


def test_it_names_a_finding_worded_as_the_inspectors_question(tmp_path):
    pack = copy(tmp_path)
    edit(
        pack,
        "checklist.yaml",
        'finding: A sink had no "No Grease" sign posted over it',
        'finding: Are "No Grease" signs posted over every sink?',
    )
    assert problems(pack) == [
        "imaginary-town/checklist.yaml: [1] bmp.signage: the finding is a question: say what "
        "was found, as a statement"
    ]


def test_the_loader_refuses_a_checklist_item_without_its_finding(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "checklist.yaml", '  finding: A sink had no "No Grease" sign posted over it\n', "")
    with pytest.raises(PackError, match=r"checklist\[1\]: expected \{item, question, finding"):
        load_pack(pack)


def test_it_names_a_deadline_adding_something_not_a_parameter(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "enforcement.yaml", "add: fees.payment_period", "add: fees.pay_period")
    assert problems(pack) == [
        "imaginary-town/enforcement.yaml: actions.invoice.deadlines[0] payment.add: unknown "
        "parameter 'fees.pay_period'"
    ]


def test_it_names_a_deadline_running_from_neither_a_field_nor_an_earlier_deadline(tmp_path):
    pack = copy(tmp_path)
    edit(
        pack,
        "enforcement.yaml",
        "from: payment, add: enforcement.lien_period",
        "from: paid, add: enforcement.lien_period",
    )
    assert problems(pack) == [
        "imaginary-town/enforcement.yaml: actions.penalty_order.deadlines[3] lien_eligible.from: "
        "'paid' is neither a date field of the action nor an earlier deadline"
    ]


def test_it_names_an_appeal_to_a_level_outside_the_procedure(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "enforcement.yaml", "appeal_to: coordinator", "appeal_to: mayor")
    assert problems(pack) == [
        "imaginary-town/enforcement.yaml: actions.notice_of_violation.deadlines[0] "
        "appeal.appeal_to: 'mayor' is not a level of the procedure (inspector, coordinator, "
        "board, court, city_manager)"
    ]


def test_it_names_a_deadline_filling_a_field_that_is_not_a_planned_date(tmp_path):
    pack = copy(tmp_path)
    edit(
        pack,
        "enforcement.yaml",
        "appeal_to: coordinator,",
        "appeal_to: coordinator, fills: corrected_on,",
    )
    assert problems(pack) == [
        "imaginary-town/enforcement.yaml: actions.notice_of_violation.deadlines[0] appeal.fills: "
        "'corrected_on' is not a planned date the deadline does not run from"
    ]


def test_it_names_a_signer_of_an_unknown_action_and_one_without_a_title(tmp_path):
    pack = copy(tmp_path)
    edit(
        pack,
        "enforcement.yaml",
        "  on_appeal: []",
        "  on_appeal: []\n  signed_by: {warning: inspector, notice_of_violation: mayor}",
    )
    assert problems(pack) == [
        "imaginary-town/enforcement.yaml: procedure.signed_by.warning: not an action type of "
        "the pack"
    ]
    edit(pack, "enforcement.yaml", "warning: inspector, ", "")
    assert problems(pack) == [
        "imaginary-town: the loader refuses it: "
        f"{pack}/enforcement.yaml: procedure.signed_by.notice_of_violation: 'mayor' has no "
        "title in pack.yaml (titles) and is no level of the procedure"
    ]


def test_it_names_a_check_whose_rule_is_not_in_the_pack(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", "  fees.delinquent:", "  fees.late:")
    assert problems(pack) == [
        "imaginary-town/pack.yaml: rules.fees.late: no check raises this rule (the engine's "
        "rules are in RULES.md; an enforcement rule must be named by a check in "
        "enforcement.yaml)",
        "imaginary-town/enforcement.yaml: actions.invoice.checks.delinquency.rule: "
        "'fees.delinquent' is not a rule of pack.yaml (a finding must have its citation)",
    ]


def test_it_names_a_penalty_unit_the_penalty_order_has_no_field_for(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "enforcement.yaml", "      violation_days: count?\n", "")
    assert problems(pack) == [
        "imaginary-town/enforcement.yaml: actions.penalty_order.fields: class discharge is "
        "counted in violation_days: the action needs a field violation_days: count? "
        "(or quantity?)"
    ]


def test_it_names_an_unknown_field_kind(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "enforcement.yaml", "description: text?", "description: string?")
    assert problems(pack) == [
        "imaginary-town/enforcement.yaml: actions.invoice.fields.description: unknown kind "
        "'string?' (date, planned_date, datetime, money, flag, choice, penalty_class, count, "
        "quantity, milestones, text, choice(a, b), action(type); ? marks optional)"
    ]


def test_it_reports_every_problem_at_once(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", 'gcd.missing: {citation: "7.40.040(A)", ', "gcd.missing: {")
    edit(pack, "parameters.yaml", "{value: 365, reference", "{value: '3 months', reference")
    edit(
        pack, "parameters.yaml", "[interceptor, trap], reference", "[interceptor, tarp], reference"
    )
    edit(pack, "checklist.yaml", '  citation: "7.40.090(A)(2)"\n', "")
    edit(pack, "enforcement.yaml", "add: fees.payment_period", "add: fees.pay_period")
    found = problems(pack)
    files = {line.split(":")[0] for line in found}
    assert len(found) == 5
    assert files == {
        f"imaginary-town/{f}"
        for f in ("pack.yaml", "parameters.yaml", "checklist.yaml", "enforcement.yaml")
    }


def test_it_reports_a_file_that_is_not_yaml_and_still_checks_the_others(tmp_path):
    pack = copy(tmp_path)
    (pack / "checklist.yaml").write_text("- item: [unclosed\n", encoding="utf-8")
    edit(pack, "pack.yaml", 'gcd.missing: {citation: "7.40.040(A)", ', "gcd.missing: {")
    found = problems(pack)
    assert len(found) == 2
    assert found[0].startswith("imaginary-town/pack.yaml: rules.gcd.missing: no citation")
    assert found[1].startswith("imaginary-town/checklist.yaml: not YAML: ")


def test_it_reports_a_folder_without_pack_yaml(tmp_path):
    assert problems(tmp_path) == [f"{tmp_path.name}/pack.yaml: missing"]


def test_it_reports_what_the_loader_refuses_when_it_finds_nothing_itself(tmp_path, monkeypatch):
    def refuse(folder):
        raise PackError(f"{folder}/pack.yaml: something new")

    monkeypatch.setattr(packcheck, "load_pack", refuse)
    [line] = problems(IMAGINARY)
    assert line.startswith("imaginary-town: the loader refuses it: ")
    assert line.endswith("pack.yaml: something new")


def test_it_names_a_copy_that_reuses_a_bundled_packs_id(tmp_path):
    pack = copy(tmp_path, PACKS_DIR / "town-10-02")
    [result] = check_packs([pack])
    assert [str(replace(p, line=None)) for p in result.problems] == [
        f"town-10-02/pack.yaml: id: 'town-10-02' is the id of the bundled pack "
        f"{(PACKS_DIR / 'town-10-02').resolve()}: they cannot be loaded together"
    ]


def test_it_knows_every_parameter_the_engine_reads_by_name():
    reads = re.compile(
        r"""(?:\bp|ctx\.params|self\.params)(?:\[|\.get\(|\.duration\(|\.reference\()\s*"([a-z_.]+)"|"""
        r"""ctx\.add\([^)]*?"([a-z_.]+)"|\.param\(\s*"([a-z_.]+)"|"""
        r"""params_on\([^)]*\)\.get\(\s*"([a-z_.]+)\""""
    )
    names = set()
    for path in (ROOT / "fogkeeper" / "rules").rglob("*.py"):
        if "packcheck" not in path.parts:
            names |= {n for m in reads.findall(path.read_text()) for n in m if n}
    assert len(names) > 30
    assert sorted(names - set(PARAMETERS)) == []


# Each problem is named with its line


def line_of(path: Path, text: str) -> int:
    """The line (1-based) of the first line of `path` that holds `text`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


def test_it_gives_the_line_of_the_key_a_problem_is_about(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", 'gcd.missing: {citation: "7.40.040(A)", ', "gcd.missing: {")
    edit(pack, "parameters.yaml", "{value: 365, reference", "{value: '3 months', reference")
    found = {p.key: p.line for p in check_pack(pack).problems}
    assert found["rules.gcd.missing"] == line_of(pack / "pack.yaml", "gcd.missing:")
    assert found["report.lookback_days"] == line_of(
        pack / "parameters.yaml", "report.lookback_days:"
    )


def test_a_missing_key_is_placed_at_the_key_above_it(tmp_path):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", "effective_reference:", "effective_note:")
    found = {p.key: p for p in check_pack(pack).problems}
    assert found["effective_reference"].line is None  # nothing above it: the file is named
    assert found["effective_note"].line == line_of(pack / "pack.yaml", "effective_note:")
    assert str(found["effective_note"]).startswith(
        f"imaginary-town/pack.yaml:{found['effective_note'].line}: effective_note: unknown key"
    )


def test_it_finds_the_line_of_a_list_item_and_of_a_date_key(tmp_path):
    from fogkeeper.rules.yamllines import key_lines
    from fogkeeper.rules.yamllines import line_of as line_of_key

    path = tmp_path / "x.yaml"
    path.write_text(
        "holidays:\n  list:\n    - {name: A, month: 1}\n    - {name: B, month: 13}\n"
        "gcd.limit:\n  values:\n    2024-01-01: {value: 1}\n",
        encoding="utf-8",
    )
    lines = key_lines(path)
    assert line_of_key(lines, "holidays.list[1].month") == 4
    assert line_of_key(lines, "gcd.limit.values.2024-01-01") == 7
    assert line_of_key(lines, "gcd.limit.values.2024-01-01.reference") == 7
    assert line_of_key(lines, "nowhere") is None
    broken = tmp_path / "broken.yaml"
    broken.write_text("a: [1,\n", encoding="utf-8")
    assert key_lines(broken) == {}


# The command


def test_it_prints_a_summary_per_clean_pack_and_exits_0(capsys):
    assert main(["packs", "check", *map(str, ALL)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == ["san-clemente", "town-10-02", "imaginary-town"]
    assert all(
        re.search(
            r": ok \(\d+ rules, \d+ parameters, \d+ checklist items, \d+ action "
            r"types\)$",
            line,
        )
        for line in out
    )


def test_it_checks_every_pack_of_a_folder_of_packs(capsys):
    assert main(["packs", "check", str(PACKS)]) == 0
    assert capsys.readouterr().out.startswith("imaginary-town: ok (")


def test_it_prints_one_line_per_problem_and_exits_1(tmp_path, capsys):
    pack = copy(tmp_path)
    edit(pack, "pack.yaml", 'gcd.missing: {citation: "7.40.040(A)", ', "gcd.missing: {")
    edit(pack, "parameters.yaml", "{value: 365, reference", "{value: '3 months', reference")
    assert main(["packs", "check", str(pack), str(PACKS_DIR / "town-10-02")]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"imaginary-town/pack.yaml:{line_of(pack / 'pack.yaml', 'gcd.missing:')}: "
        "rules.gcd.missing: no citation (every value of an ordinance must cite its section)",
        f"imaginary-town/parameters.yaml:{line_of(pack / 'parameters.yaml', 'lookback_days:')}: "
        "report.lookback_days: '3 months' is a period in months where a whole number of days "
        "is required",
        check_pack(PACKS_DIR / "town-10-02").summary(),
    ]


def test_it_exits_2_for_a_folder_that_does_not_exist(tmp_path, capsys):
    assert main(["packs", "check", str(tmp_path / "nowhere")]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "nowhere: no such folder" in captured.err


def test_it_checks_a_pack_while_a_pack_in_fogkeeper_packs_is_broken(tmp_path):
    broken = copy(tmp_path)
    edit(broken, "pack.yaml", 'gcd.missing: {citation: "7.40.040(A)", ', "gcd.missing: {")
    env = {"PATH": "", "FOGKEEPER_PACKS": str(tmp_path)}

    def fogkeeper(*args):
        return subprocess.run(
            [sys.executable, "-m", "fogkeeper.cli", *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=60,
        )

    assert fogkeeper("packs").returncode == 2  # loading every pack fails
    proc = fogkeeper("packs", "check", str(PACKS_DIR / "town-10-02"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("town-10-02: ok (")
