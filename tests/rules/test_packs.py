"""Jurisdiction packs: the ordinance as cited data, looked up as of a date."""

import io
import re
import shutil
import tokenize
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from fogkeeper.rules import PackError, ParameterNotInForce
from fogkeeper.rules.calendar import Duration
from fogkeeper.rules.packs import PACKS_DIR, PackRegistry, default_registry, load_pack

PACKS = ["san-clemente", "town-10-02", "us-oh-aurora", "us-tx-cleburne"]
RULES_DIR = Path(__file__).resolve().parents[2] / "fogkeeper" / "rules"
ORDINANCE_NUMBERS = re.compile(
    r"(?<![\w.])(0\.25|600|750|365|180|140|2000|3000|5000|10000|25000)(?![\w.])"
)


@pytest.fixture(params=PACKS)
def pack(request):
    return default_registry().get(request.param)


@pytest.fixture
def sc():
    return default_registry().get("san-clemente")


def pack_copy(tmp_path: Path, name: str = "san-clemente") -> Path:
    folder = tmp_path / name
    shutil.copytree(PACKS_DIR / name, folder)
    return folder


def edit_parameters(folder: Path, edit) -> None:
    path = folder / "parameters.yaml"
    params = yaml.safe_load(path.read_text())
    edit(params)
    path.write_text(yaml.safe_dump(params, sort_keys=False))


def test_it_loads_every_bundled_pack():
    assert default_registry().ids() == PACKS


@pytest.mark.parametrize("name", PACKS)
def test_it_loads_a_bundled_pack_from_its_folder(name):
    assert load_pack(PACKS_DIR / name).id == name


def test_it_records_the_effective_dates_of_the_packs():
    registry = default_registry()
    assert registry.get("san-clemente").effective == date(2009, 8, 20)
    assert registry.get("town-10-02").effective == date(2023, 3, 30)


# Citations


def test_it_cites_every_parameter_value(pack):
    uncited = [
        (p.name, v.effective)
        for p in pack.parameters.values()
        for v in p.values
        if not v.reference.strip()
    ]
    assert pack.parameters
    assert uncited == []


def test_it_cites_every_rule(pack):
    assert pack.rules
    assert [r.id for r in pack.rules.values() if not r.citation.strip()] == []


def test_it_cites_every_checklist_item(pack):
    assert pack.checklist
    assert [c.item for c in pack.checklist.values() if not c.citation.strip()] == []


def test_it_cites_every_enforcement_action_and_deadline(pack):
    deadlines = [(a.type, dl.name) for a in pack.actions.values() for dl in a.deadlines]
    uncited = [
        (a.type, dl.name) for a in pack.actions.values() for dl in a.deadlines if not dl.citation
    ]
    assert deadlines or not pack.actions  # a pack whose enforcement was not read has none
    assert uncited == []
    assert [a.type for a in pack.actions.values() if not a.citation.strip()] == []


def test_it_cites_its_effective_date(pack):
    assert pack.effective_reference.strip()


def test_it_rejects_a_parameter_value_without_a_reference(tmp_path):
    folder = pack_copy(tmp_path)
    edit_parameters(
        folder, lambda p: p["enforcement.daily_fine"]["values"][date(2009, 8, 20)].pop("reference")
    )
    with pytest.raises(PackError, match=re.escape("enforcement.daily_fine")):
        load_pack(folder)


def test_it_rejects_a_parameter_value_with_an_empty_reference(tmp_path):
    folder = pack_copy(tmp_path, "town-10-02")
    edit_parameters(
        folder,
        lambda p: p["gcd.accumulation_limit"]["values"][date(2023, 3, 30)].update(reference=" "),
    )
    with pytest.raises(PackError, match=re.escape("gcd.accumulation_limit")):
        load_pack(folder)


def test_it_refuses_a_registry_holding_an_uncited_pack(tmp_path):
    folder = pack_copy(tmp_path)
    edit_parameters(
        folder, lambda p: p["report.lookback_days"]["values"][date(2009, 8, 20)].pop("reference")
    )
    with pytest.raises(PackError, match=re.escape("report.lookback_days")):
        PackRegistry([tmp_path])


# Parameters as of a date


def test_it_raises_for_a_parameter_looked_up_before_its_effective_date(sc):
    with pytest.raises(ParameterNotInForce):
        sc.param("enforcement.daily_fine", date(2009, 8, 19))


def test_it_finds_a_parameter_on_its_effective_date(sc):
    assert sc.param("enforcement.daily_fine", date(2009, 8, 20)) == 600


def test_it_raises_rather_than_reading_zero_from_the_day_before(sc):
    params = sc.params_on(date(2009, 8, 19))
    with pytest.raises(ParameterNotInForce):
        params["enforcement.daily_fine"]


def test_it_raises_for_a_parameter_the_pack_does_not_have(sc):
    with pytest.raises(ParameterNotInForce):
        sc.param("enforcement.no_such_fine", date(2025, 1, 1))


def test_it_raises_for_a_town_parameter_in_the_year_before_the_town_ordinance():
    town = default_registry().get("town-10-02")
    with pytest.raises(ParameterNotInForce):
        town.param("gcd.default_service_frequency", date(2023, 3, 29))


def _raise_the_fine_in_2020(params: dict) -> None:
    params["enforcement.daily_fine"]["values"][date(2020, 1, 1)] = {
        "value": 1000,
        "reference": "test amendment",
    }


def test_it_uses_the_old_value_on_the_day_before_a_change(tmp_path):
    folder = pack_copy(tmp_path)
    edit_parameters(folder, _raise_the_fine_in_2020)
    assert load_pack(folder).param("enforcement.daily_fine", date(2019, 12, 31)) == 600


def test_it_uses_the_new_value_on_the_day_of_a_change(tmp_path):
    folder = pack_copy(tmp_path)
    edit_parameters(folder, _raise_the_fine_in_2020)
    assert load_pack(folder).param("enforcement.daily_fine", date(2020, 1, 1)) == 1000


def test_it_gives_each_dated_value_its_own_reference(tmp_path):
    folder = pack_copy(tmp_path)
    edit_parameters(folder, _raise_the_fine_in_2020)
    pack = load_pack(folder)
    assert pack.params_on(date(2019, 12, 31)).reference("enforcement.daily_fine") == (
        "13.30.080(E)(3)"
    )
    assert pack.params_on(date(2020, 1, 1)).reference("enforcement.daily_fine") == (
        "test amendment"
    )


def _lengthen_the_refresher_interval_in_2020(params: dict) -> None:
    params["training.refresher_interval"]["values"][date(2020, 1, 1)] = {
        "value": "12 months",
        "reference": "test amendment",
    }


def test_it_reads_a_period_once_for_a_date_and_anew_for_a_date_with_another_value(tmp_path):
    folder = pack_copy(tmp_path)
    edit_parameters(folder, _lengthen_the_refresher_interval_in_2020)
    pack = load_pack(folder)
    before, after = pack.params_on(date(2019, 12, 31)), pack.params_on(date(2020, 1, 1))
    assert pack.params_on(date(2019, 12, 31)) is before
    first = before.duration("training.refresher_interval")
    assert first == Duration(6, "months")
    assert before.duration("training.refresher_interval") is first
    assert before._durations == {"training.refresher_interval": first}
    assert after.duration("training.refresher_interval") == Duration(12, "months")
    assert before.duration("training.refresher_interval") == Duration(6, "months")


# Law as data


def numbers_outside_comments(source: str) -> list[tuple[int, str]]:
    """(line, literal) for each ordinance number in `source` outside its comments."""
    hits = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            continue
        text = tok.string.replace("_", "") if tok.type == tokenize.NUMBER else tok.string
        hits += [(tok.start[0], m.group(1)) for m in ORDINANCE_NUMBERS.finditer(text)]
    return hits


def test_it_spells_no_ordinance_number_in_the_engine_code():
    files = sorted(RULES_DIR.rglob("*.py"))
    hits = [(f.name, *hit) for f in files for hit in numbers_outside_comments(f.read_text())]
    assert len(files) > 10
    assert hits == []


def test_it_finds_ordinance_numbers_in_code_but_not_in_comments():
    source = "FINE = 600  # not 750\nLIMIT = 0.25\nOK = 1600\nCAP = 25_000\n"
    assert numbers_outside_comments(source) == [(1, "600"), (2, "0.25"), (4, "25000")]


# Titles


def test_it_lists_san_clementes_own_titles(sc):
    assert sc.titles["permit"] == "Discharge Permit"
    assert sc.titles["manager"] == "Utilities Manager"


def test_it_lists_the_towns_own_titles():
    town = default_registry().get("town-10-02")
    assert town.titles["permit"] == "FOG Permit"
    assert town.titles["manager"] == "FOG Manager"


# What the engine schedules, and the rule that enforces each (the schedule's citation).
OBLIGATION_RULES = {
    "permit.renewal_application": "permit.renewal_late",
    "permit.expiry": "permit.expired",
    "gcd.service": "gcd.service_overdue",
    "inspection.annual": "inspection.annual_due",
    "yellow_grease.collection": "yellow_grease.collection_overdue",
    "training.new_hire": "training.new_hire_overdue",
    "training.refresher": "training.refresher_overdue",
    "incident.written_report": "incident.written_report_late",
    "report.due": "report.overdue",
}


def test_it_knows_every_obligation_the_engine_schedules():
    planned = {
        match
        for f in RULES_DIR.rglob("*.py")
        for match in re.findall(r'\.plan\(\s*"([\w.]+)"', f.read_text())
    }
    assert planned == set(OBLIGATION_RULES)


def test_it_titles_every_obligation_its_rules_schedule(pack):
    scheduled = {o for o, rule in OBLIGATION_RULES.items() if pack.has(rule)}
    assert set(pack.obligations) == scheduled
    assert all(title.strip() for title in pack.obligations.values())


def test_it_names_obligations_in_each_ordinances_words(sc):
    town = default_registry().get("town-10-02")
    assert sc.obligations["inspection.annual"] == "Annual Restaurant Grease Inspection"
    assert town.obligations["gcd.service"] == "Cleaning of the grease control device"


def test_it_rejects_an_obligation_without_a_title(tmp_path):
    folder = pack_copy(tmp_path)
    path = folder / "pack.yaml"
    text = path.read_text().replace(
        'gcd.service: "Pump-out of the grease control device"', "gcd.service: "
    )
    path.write_text(text)
    with pytest.raises(PackError, match="obligations.gcd.service: expected a title"):
        load_pack(folder)


def test_it_reads_the_enforcement_procedure_of_each_pack(sc):
    town = load_pack(PACKS_DIR / "town-10-02")
    assert sc.procedure["sequence"] == ("inspector", "manager", "city_manager", "council", "court")
    assert town.procedure["levels"]["hearing_decision"] == "hearing_officer"
    assert (sc.procedure["judicial_bar"], town.procedure["judicial_bar"]) == (
        "13.30.080(I)(8)",
        "10.02.330(J)",
    )


def test_it_rejects_a_procedure_level_outside_the_sequence(tmp_path):
    folder = pack_copy(tmp_path)
    path = folder / "enforcement.yaml"
    path.write_text(path.read_text().replace("final_decision: council", "final_decision: mayor"))
    with pytest.raises(PackError, match="final_decision: 'mayor' is not in the sequence"):
        load_pack(folder)


# Revision 2: device kinds, categories, penalty classes and appeal routes are pack data


@pytest.mark.parametrize(
    ("pack_id", "permits", "actions"),
    [
        ("san-clemente", True, True),
        ("town-10-02", True, True),
        ("us-oh-aurora", True, True),  # a permit only as needed: its title, no permit rule
        ("us-tx-cleburne", False, False),  # the plumbing permit is no FOG permit; no enforcement
    ],
)
def test_a_pack_says_whether_it_has_permits_and_enforcement_actions(pack_id, permits, actions):
    """One decision, read by every page, report and export that would speak of permits or
    take an enforcement step (issue 38)."""
    pack = default_registry().get(pack_id)
    assert (pack.has_permits, pack.has_actions) == (permits, actions)


def test_it_lists_each_packs_device_kinds_and_categories(pack):
    assert pack.device_kinds  # the ordinance's own
    assert all(v.citation for v in pack.device_kinds.values())
    assert pack.default_category in pack.categories


def test_it_rejects_a_pack_without_device_kinds(tmp_path):
    folder = pack_copy(tmp_path)
    path = folder / "pack.yaml"
    meta = yaml.safe_load(path.read_text())
    del meta["device_kinds"]
    path.write_text(yaml.safe_dump(meta, sort_keys=False))
    with pytest.raises(PackError, match="device_kinds is required"):
        load_pack(folder)


def test_it_rejects_a_parameter_naming_an_unknown_device_kind(tmp_path):
    folder = pack_copy(tmp_path)

    def edit(params):
        params["gcd.accumulation_device_kinds"]["values"][date(2009, 8, 20)]["value"] = ["tarp"]

    edit_parameters(folder, edit)
    with pytest.raises(
        PackError, match="gcd.accumulation_device_kinds .*unknown device kind 'tarp'"
    ):
        load_pack(folder)


def test_it_rejects_a_month_interval_where_whole_days_are_required(tmp_path):
    folder = pack_copy(tmp_path)

    def edit(params):
        params["report.lookback_days"]["values"][date(2009, 8, 20)]["value"] = "12 months"

    edit_parameters(folder, edit)
    with pytest.raises(PackError, match="report.lookback_days .*not a whole number of days"):
        load_pack(folder)


def test_it_rejects_a_penalty_cap_that_does_not_say_who_imposes_it(tmp_path):
    folder = pack_copy(tmp_path)

    def edit(params):
        del params["enforcement.penalty_cap.judicial"]["values"][date(2009, 8, 20)]["value"][
            "imposed_by"
        ]

    edit_parameters(folder, edit)
    with pytest.raises(PackError, match="penalty_cap.judicial .*imposed_by"):
        load_pack(folder)


# San Clemente and the Town set a judicial civil penalty (13.30.080(I)(3), 10.02.340); the
# Aurora pack sets none (its 922.25 "Civil penalties" could not be read, see its ordinance.txt).
@pytest.mark.parametrize("name", ["san-clemente", "town-10-02"])
def test_it_marks_judicial_penalties_for_the_court_in_the_california_packs(name):
    pack = default_registry().get(name)
    assert pack.court_classes() == {"judicial": "days"}
    assert "judicial" not in pack.administrative_classes()


def test_it_reads_the_appeal_routes_of_a_penalty_order():
    sc = default_registry().get("san-clemente")
    town = default_registry().get("town-10-02")
    assert sc.actions["penalty_order"].appeal_routes() == {
        "appeal": "council",
        "judicial_review": "court",
    }
    assert town.actions["penalty_order"].appeal_routes() == {"council_appeal": "council"}


def test_it_rejects_an_appeal_to_a_level_outside_the_procedure(tmp_path):
    folder = pack_copy(tmp_path)
    path = folder / "enforcement.yaml"
    path.write_text(path.read_text().replace("appeal_to: council", "appeal_to: mayor", 1))
    with pytest.raises(PackError, match="appeal_to 'mayor' is not a level of the procedure"):
        load_pack(folder)


def test_it_gives_the_town_interceptor_three_calendar_months():
    town = default_registry().get("town-10-02")
    assert str(town.default_frequency("interceptor", date(2025, 1, 1))) == "3 months"
    assert str(town.default_frequency("trap", date(2025, 1, 1))) == "30 days"
    assert town.default_frequency("grinder", date(2025, 1, 1)) is None


def test_it_rejects_a_design_limit_on_a_field_a_device_does_not_have(tmp_path):
    folder = pack_copy(tmp_path)

    def edit(params):
        limits = params["gcd.design_limits"]["values"][date(2009, 8, 20)]["value"]
        limits["interceptor"]["capacity_gallon"] = {"min": 750}

    edit_parameters(folder, edit)
    with pytest.raises(PackError, match="interceptor.capacity_gallon is not a design field"):
        load_pack(folder)


def test_it_rejects_a_check_raising_a_rule_the_pack_does_not_list(tmp_path):
    folder = pack_copy(tmp_path)
    path = folder / "pack.yaml"
    path.write_text(
        "\n".join(
            line
            for line in path.read_text().splitlines()
            if "enforcement.schedule_missed" not in line
        )
    )
    with pytest.raises(PackError, match="missed_rule: 'enforcement.schedule_missed' is not a rule"):
        load_pack(folder)


def test_it_rejects_a_time_zone_that_does_not_exist(tmp_path):
    folder = pack_copy(tmp_path)
    path = folder / "pack.yaml"
    path.write_text(path.read_text().replace("America/Los_Angeles", "America/San_Clemente"))
    with pytest.raises(PackError, match="timezone 'America/San_Clemente' is not a time zone"):
        load_pack(folder)


def test_it_loads_a_pack_from_its_own_folder_as_well_as_from_a_folder_of_packs(tmp_path):
    folder = pack_copy(tmp_path, "town-10-02")
    text = (folder / "pack.yaml").read_text().replace("id: town-10-02", "id: town-copy")
    (folder / "pack.yaml").write_text(text)
    assert PackRegistry([folder]).ids() == ["town-copy"]
    assert PackRegistry([tmp_path]).ids() == ["town-copy"]


def test_the_default_registry_is_loaded_once_for_each_value_of_fogkeeper_packs(monkeypatch):
    monkeypatch.delenv("FOGKEEPER_PACKS", raising=False)
    bundled = default_registry()
    assert default_registry() is bundled
    monkeypatch.setenv("FOGKEEPER_PACKS", str(Path(__file__).parent / "packs"))
    more = default_registry()
    assert more is not bundled and default_registry() is more
    assert set(more.ids()) == set(bundled.ids()) | {"imaginary-town"}
    monkeypatch.delenv("FOGKEEPER_PACKS")
    assert default_registry() is bundled


# Penalty caps: one reading for the engine, the services, the order form and the letter


def test_it_reads_a_penalty_cap_in_force_with_its_unit_and_section():
    town = default_registry().get("town-10-02")
    cap = town.penalty_cap("overflow", date(2024, 6, 1))
    assert (cap.amount, cap.per, cap.imposed_by) == (Decimal(5000), "occurrences", "administrative")
    assert (cap.reference, cap.description) == ("10.02.330(D)(4)", "An overflow caused by the FSE")
    assert cap.maximum(3) == Decimal(15000)


def test_a_penalty_at_its_cap_is_within_it_and_a_cent_more_is_not(sc):
    cap = sc.penalty_cap("discharge_under_order", date(2020, 1, 1))
    assert cap.maximum(Decimal("120.5")) == Decimal("1205.0")
    assert not cap.exceeded_by(Decimal("1205.00"), Decimal("120.5"))
    assert cap.exceeded_by(Decimal("1205.01"), Decimal("120.5"))
    assert cap.exceeded_by(1, 0)  # nothing counted: no penalty is within the cap


def test_a_class_the_pack_sets_no_cap_for_has_none():
    aurora = default_registry().get("us-oh-aurora")
    assert aurora.penalty_cap("records", date(2020, 1, 1)) is None
    assert aurora.penalty_cap("per_violation_day", date(2020, 1, 1)).per == "violation_days"


def test_a_cap_read_for_a_day_before_it_took_effect_is_its_first_one(tmp_path):
    folder = pack_copy(tmp_path)
    edit_parameters(folder, _raise_the_records_cap_in_2020)
    pack = load_pack(folder)
    first = pack.penalty_cap("records", date(2000, 1, 1))
    assert (first.amount, first.resolution) == (Decimal(2000), None)
    raised = pack.penalty_cap("records", date(2020, 1, 1))
    assert (raised.amount, raised.resolution) == (Decimal(2500), "Resolution 2019-40")
    assert pack.penalty_cap("records", date(2019, 12, 31)) == first


def _raise_the_records_cap_in_2020(params: dict) -> None:
    params["enforcement.penalty_cap.records"]["values"][date(2020, 1, 1)] = {
        "value": {"amount": 2500, "per": "days", "imposed_by": "administrative"},
        "reference": "13.30.080(I)(4)(c)(1)",
        "resolution": "Resolution 2019-40",
    }


def test_the_examples_in_the_pack_models_docstrings_hold():
    import doctest

    from fogkeeper.rules import packmodel

    assert doctest.testmod(packmodel).failed == 0


def test_an_appeal_may_suspend_nothing_and_then_names_no_final_date(sc):
    """The emergency decision's appeal to the City Manager: recorded on it (`filed`,
    `decided`), dates run from it, and no finality waits on it (13.30.080(H)(4))."""
    assert sc.actions["emergency_decision"].appeal == {
        "deadline": "city_manager_appeal",
        "filed": "appealed_on",
        "decided": "appeal_decided_on",
    }


def test_it_rejects_an_appeal_whose_final_is_not_a_deadline_of_the_action(tmp_path):
    folder = pack_copy(tmp_path)
    path = folder / "enforcement.yaml"
    text = path.read_text()
    old = "decided: appeal_decided_on}\n  city_manager_decision:"
    assert old in text
    path.write_text(
        text.replace(old, "decided: appeal_decided_on, final: never}\n  city_manager_decision:")
    )
    with pytest.raises(PackError, match="appeal.final: 'never' is not a deadline of the action"):
        load_pack(folder)


def test_it_reads_the_costs_an_action_puts_on_the_person():
    town = load_pack(PACKS_DIR / "town-10-02")
    spec = town.actions["service_termination"]
    assert spec.costs == ("disconnection_cost", "reinstatement_cost")
    assert spec.costs_citation == "10.02.290(B)"


def test_it_rejects_costs_that_are_not_money_fields_of_the_action(tmp_path):
    folder = pack_copy(tmp_path, "town-10-02")
    path = folder / "enforcement.yaml"
    text = path.read_text()
    old = "costs: {fields: [disconnection_cost, reinstatement_cost]"
    assert old in text
    path.write_text(text.replace(old, "costs: {fields: [disconnection_cost, reinstated_on]"))
    with pytest.raises(PackError, match="'reinstated_on' is not a money field of the action"):
        load_pack(folder)
