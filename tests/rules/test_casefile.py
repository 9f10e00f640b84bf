"""Reading a case file (CASEFILE.md): every bad input is a CaseFileError naming the field."""

import copy
import re
from datetime import date

import pytest

from fogkeeper.rules import CaseFileError, parse_case
from tests.rules.builders import sc_case, town_case

FULL = sc_case(
    establishment={"changes": [{"date": "2025-09-01", "kind": "remodel"}]},
    devices=[{"id": "GI-1", "kind": "interceptor", "installed_on": "2012-03-20"}],
    haulers=[{"id": "H-1"}],
    services=[{"id": "M-1", "device": "GI-1", "date": "2025-03-02", "hauler": "H-1"}],
    yellow_grease_pickups=[{"date": "2025-05-30", "hauler": "H-1"}],
    employees=[{"id": "E-1", "hired_on": "2024-11-04"}],
    trainings=[{"id": "T-1", "date": "2025-01-10", "attendees": [{"employee": "E-1"}]}],
    inspections=[
        {
            "id": "I-1",
            "date": "2025-02-11",
            "measurements": [{"device": "GI-1", "fog_inches": 3, "solids_inches": 5}],
            "answers": [{"item": "bmp.signage", "compliant": True, "device": "GI-1"}],
        }
    ],
    incidents=[{"id": "SSO-1", "date": "2025-04-02", "kind": "overflow"}],
    enforcement=[
        {
            "id": "A-1",
            "type": "notice_of_noncompliance",
            "delivered_on": "2025-02-14",
            "correct_by": "2025-03-16",
        },
        {
            "id": "A-2",
            "type": "compliance_schedule",
            "entered_on": "2025-04-01",
            "balance_due": 0,
            "payment_arrangement": False,
            "milestones": [{"id": "MS-1", "due": "2025-05-01"}],
        },
        {
            "id": "A-3",
            "type": "penalty_order",
            "issued_by": "manager",
            "issued_on": "2025-04-01",
            "served_on": "2025-04-02",
            "amount": 1000,
            "class": "records",
            "days": 1,
        },
    ],
)


def _parts(path: str) -> list:
    return [int(p) if p.isdigit() else p for p in re.findall(r"[^.\[\]]+", path)]


def changed(case: dict, path: str, value) -> dict:
    """A copy of `case` with the field at `path` set to `value`."""
    out = copy.deepcopy(case)
    *parents, last = _parts(path)
    obj = out
    for p in parents:
        obj = obj[p]
    obj[last] = value
    return out


def without(case: dict, path: str) -> dict:
    """A copy of `case` without the field at `path`."""
    out = copy.deepcopy(case)
    *parents, last = _parts(path)
    obj = out
    for p in parents:
        obj = obj[p]
    del obj[last]
    return out


def problems(case: dict, **kwargs) -> dict[str, str]:
    """The problems parse_case reports, as {path: message}."""
    with pytest.raises(CaseFileError) as err:
        parse_case(case, **kwargs)
    return {p.path: p.message for p in err.value.problems}


def action(**fields) -> dict:
    return {"id": "A-1", **fields}


def penalty_order(**fields) -> dict:
    order = {
        "type": "penalty_order",
        "issued_on": "2025-04-01",
        "served_on": "2025-04-02",
        "amount": 1000,
    }
    return action(**{**order, **fields})


def test_it_accepts_the_complete_case_file():
    case = parse_case(FULL)
    assert case.pack.id == "san-clemente"
    assert len(case.actions) == 3


# Dates and types


def test_it_rejects_an_impossible_date_naming_its_field():
    found = problems(changed(FULL, "services[0].date", "2025-02-30"))
    assert "not a date" in found["services[0].date"]
    assert "2025-02-30" in found["services[0].date"]


@pytest.mark.parametrize("text", ["2025/03/02", "03/02/2025", "2025-3-2", "2025-03-02T10:00:00"])
def test_it_rejects_a_date_in_the_wrong_format(text):
    assert "establishment.opened_on" in problems(changed(FULL, "establishment.opened_on", text))


def test_it_rejects_an_integer_where_a_date_is_expected():
    assert "devices[0].installed_on" in problems(changed(FULL, "devices[0].installed_on", 20120320))


def test_it_rejects_a_date_where_a_date_time_is_expected():
    case = sc_case(enforcement=[action(type="emergency_suspension", ordered_at="2025-07-01")])
    assert "enforcement[0].ordered_at" in problems(case)


@pytest.mark.parametrize(
    "path",
    [
        "services[0].fog_inches",
        "devices[0].design_depth_inches",
        "inspections[0].measurements[0].solids_inches",
    ],
)
def test_it_rejects_a_negative_depth(path):
    assert path in problems(changed(FULL, path, -1))


def test_it_rejects_a_negative_amount_of_dollars():
    assert "enforcement[2].amount" in problems(changed(FULL, "enforcement[2].amount", -5))


@pytest.mark.parametrize(
    "path, text",
    [
        ("establishment.on_public_sewer", "no"),
        ("services[0].full_pump_out", "yes"),
        ("inspections[0].answers[0].compliant", "false"),
        ("enforcement[1].payment_arrangement", "no"),
    ],
)
def test_it_rejects_a_string_for_a_true_or_false_field(path, text):
    assert path in problems(changed(FULL, path, text))


def test_it_rejects_a_fraction_of_compartments():
    assert "devices[0].compartments" in problems(changed(FULL, "devices[0].compartments", 2.5))


def test_it_rejects_a_fraction_of_penalty_days():
    assert "enforcement[2].days" in problems(changed(FULL, "enforcement[2].days", 2.5))


@pytest.mark.parametrize(
    "path, days",
    [
        ("permit.service_frequency_days", 0),
        ("permit.service_frequency_days", -90),
        ("devices[0].service_frequency_days", -30),
        ("permit.yellow_grease_frequency_days", 0),
    ],
)
def test_it_rejects_a_frequency_that_is_not_positive(path, days):
    assert path in problems(changed(FULL, path, days))


@pytest.mark.parametrize(
    "path, value",
    [("devices[0].kind", "sump"), ("establishment.category", "bistro")],
)
def test_it_rejects_a_value_outside_its_choices(path, value):
    assert path in problems(changed(FULL, path, value))


# Unknown fields


@pytest.mark.parametrize(
    "path",
    [
        "colour",
        "establishment.colour",
        "establishment.operator.colour",
        "establishment.changes[0].colour",
        "permit.colour",
        "devices[0].colour",
        "services[0].colour",
        "trainings[0].attendees[0].colour",
        "inspections[0].measurements[0].colour",
        "inspections[0].answers[0].colour",
        "enforcement[0].colour",
        "enforcement[1].milestones[0].colour",
    ],
)
def test_it_rejects_an_unknown_field_at_any_depth(path):
    found = problems(changed(FULL, path, "red"))
    assert "unknown" in found[path]


# Required fields


@pytest.mark.parametrize(
    "path",
    [
        "jurisdiction",
        "establishment",
        "establishment.id",
        "establishment.opened_on",
        "establishment.operator",
        "establishment.operator.name",
        "establishment.operator.since",
        "establishment.changes[0].date",
        "establishment.changes[0].kind",
        "permit.number",
        "permit.holder",
        "permit.issued_on",
        "permit.expires_on",
        "devices[0].id",
        "devices[0].kind",
        "devices[0].installed_on",
        "haulers[0].id",
        "services[0].id",
        "services[0].device",
        "services[0].date",
        "yellow_grease_pickups[0].date",
        "employees[0].id",
        "employees[0].hired_on",
        "trainings[0].id",
        "trainings[0].date",
        "trainings[0].attendees[0].employee",
        "inspections[0].id",
        "inspections[0].date",
        "inspections[0].measurements[0].device",
        "inspections[0].answers[0].item",
        "inspections[0].answers[0].compliant",
        "incidents[0].id",
        "incidents[0].date",
        "incidents[0].kind",
        "enforcement[0].id",
        "enforcement[0].type",
        "enforcement[0].delivered_on",
        "enforcement[0].correct_by",
        "enforcement[1].entered_on",
        "enforcement[1].balance_due",
        "enforcement[1].payment_arrangement",
        "enforcement[1].milestones[0].id",
        "enforcement[1].milestones[0].due",
        "enforcement[2].issued_by",
        "enforcement[2].issued_on",
        "enforcement[2].served_on",
        "enforcement[2].amount",
        "enforcement[2].class",
    ],
)
def test_it_reports_a_missing_required_field_at_its_path(path):
    assert path in problems(without(FULL, path))


def test_it_treats_a_null_required_field_as_missing():
    assert "establishment.opened_on" in problems(changed(FULL, "establishment.opened_on", None))


def test_it_requires_as_of_when_neither_the_file_nor_the_caller_gives_it():
    assert "as_of" in problems(without(FULL, "as_of"))


def test_it_takes_as_of_from_the_caller_when_the_file_has_none():
    case = parse_case(without(FULL, "as_of"), as_of=date(2025, 6, 30))
    assert case.as_of == date(2025, 6, 30)


def test_it_lets_the_callers_as_of_override_the_files():
    assert parse_case(FULL, as_of=date(2025, 1, 2)).as_of == date(2025, 1, 2)


def test_it_rejects_an_as_of_before_the_pack_took_effect():
    case = town_case(as_of="2023-03-29", devices=[], services=[], inspections=[])
    assert "as_of" in problems(case)


def test_it_accepts_an_as_of_on_the_day_the_pack_took_effect():
    case = town_case(as_of="2023-03-30", devices=[], services=[], inspections=[])
    assert parse_case(case).as_of == date(2023, 3, 30)


def test_it_rejects_a_callers_as_of_before_the_pack_took_effect():
    assert "as_of" in problems(FULL, as_of=date(2009, 8, 19))


# Ids and references


@pytest.mark.parametrize(
    "items, path",
    [
        ("devices", "devices[1].id"),
        ("haulers", "haulers[1].id"),
        ("services", "services[1].id"),
        ("employees", "employees[1].id"),
        ("trainings", "trainings[1].id"),
        ("inspections", "inspections[1].id"),
        ("incidents", "incidents[1].id"),
        ("enforcement", "enforcement[3].id"),
        ("enforcement[1].milestones", "enforcement[1].milestones[1].id"),
    ],
)
def test_it_rejects_a_duplicate_id(items, path):
    case = copy.deepcopy(FULL)
    listed = case
    for p in _parts(items):
        listed = listed[p]
    listed.append(copy.deepcopy(listed[-1]))
    assert "duplicate" in problems(case)[path]


@pytest.mark.parametrize("path", ["devices[0].id", "enforcement[0].id"])
def test_it_rejects_an_empty_id(path):
    assert path in problems(changed(FULL, path, " "))


@pytest.mark.parametrize(
    "path, ref",
    [
        ("services[0].device", "GI-9"),
        ("services[0].hauler", "H-9"),
        ("yellow_grease_pickups[0].hauler", "H-9"),
        ("trainings[0].attendees[0].employee", "E-9"),
        ("inspections[0].measurements[0].device", "GI-9"),
        ("inspections[0].answers[0].device", "GI-9"),
    ],
)
def test_it_rejects_a_reference_to_an_unknown_id(path, ref):
    found = problems(changed(FULL, path, ref))
    assert ref in found[path]


# What depends on the jurisdiction


def test_it_rejects_an_unknown_jurisdiction():
    found = problems(changed(FULL, "jurisdiction", "laguna-beach"))
    assert "laguna-beach" in found["jurisdiction"]


def test_it_rejects_a_town_checklist_item_in_san_clemente():
    case = changed(FULL, "inspections[0].answers[0].item", "gcd.baffles")
    assert "inspections[0].answers[0].item" in problems(case)


def test_it_rejects_a_san_clemente_checklist_item_in_the_town():
    answer = {"item": "bmp.mop_water", "compliant": True}
    case = town_case(inspections=[{"id": "I-1", "date": "2025-02-11", "answers": [answer]}])
    assert "inspections[0].answers[0].item" in problems(case)


def test_it_rejects_a_town_action_type_in_san_clemente():
    case = sc_case(enforcement=[action(type="hearing_decision", noticed_on="2025-01-02")])
    assert "enforcement[0].type" in problems(case)


def test_it_rejects_a_san_clemente_action_type_in_the_town():
    notice = action(type="notice_of_noncompliance", delivered_on="2025-02-14")
    case = town_case(enforcement=[{**notice, "correct_by": "2025-03-16"}])
    assert "enforcement[0].type" in problems(case)


def test_it_rejects_a_town_penalty_class_in_san_clemente():
    order = penalty_order(issued_by="manager", **{"class": "overflow"}, occurrences=1)
    assert "enforcement[0].class" in problems(sc_case(enforcement=[order]))


def test_it_rejects_a_san_clemente_penalty_class_in_the_town():
    order = penalty_order(issued_by="council", **{"class": "permit"}, days=1)
    assert "enforcement[0].class" in problems(town_case(enforcement=[order]))


def test_it_rejects_a_penalty_order_issued_by_a_hearing_officer_in_san_clemente():
    order = penalty_order(issued_by="hearing_officer", **{"class": "records"}, days=1)
    assert "enforcement[0].issued_by" in problems(sc_case(enforcement=[order]))


def test_it_rejects_a_penalty_order_issued_by_the_manager_in_the_town():
    order = penalty_order(issued_by="manager", **{"class": "records"}, days=1)
    assert "enforcement[0].issued_by" in problems(town_case(enforcement=[order]))


def test_it_rejects_a_penalty_counted_in_the_wrong_unit():
    order = penalty_order(issued_by="manager", **{"class": "records"}, gallons=100)
    assert "enforcement[0].gallons" in problems(sc_case(enforcement=[order]))


def test_it_rejects_an_occurrence_penalty_counted_in_days():
    order = penalty_order(issued_by="council", **{"class": "overflow"}, days=1)
    assert "enforcement[0].days" in problems(town_case(enforcement=[order]))


def test_it_requires_the_quantity_a_penalty_class_is_counted_in():
    assert "enforcement[2].days" in problems(without(FULL, "enforcement[2].days"))


def test_it_rejects_an_action_field_of_another_action_type():
    case = changed(FULL, "enforcement[0].served_on", "2025-02-14")
    assert "enforcement[0].served_on" in problems(case)


# Several problems


def test_it_reports_every_problem_of_the_structure_at_once():
    case = changed(FULL, "services[0].date", "2025-02-30")
    case = changed(case, "devices[0].compartments", 2.5)
    case = changed(case, "establishment.colour", "red")
    found = problems(case)
    assert {"services[0].date", "devices[0].compartments", "establishment.colour"} <= set(found)


def test_it_reports_every_problem_of_the_content_at_once():
    case = changed(FULL, "services[0].device", "GI-9")
    case = changed(case, "inspections[0].answers[0].item", "gcd.baffles")
    case = changed(case, "enforcement[2].issued_by", "hearing_officer")
    found = problems(case)
    expected = {
        "services[0].device",
        "inspections[0].answers[0].item",
        "enforcement[2].issued_by",
    }
    assert expected <= set(found)


def test_it_reports_a_broken_reference_alongside_a_bad_date():
    case = changed(FULL, "services[0].date", "2025-02-30")
    case = changed(case, "trainings[0].attendees[0].employee", "E-9")
    found = problems(case)
    assert {"services[0].date", "trainings[0].attendees[0].employee"} <= set(found)


def test_it_reports_an_unknown_jurisdiction_alongside_a_bad_date():
    case = changed(FULL, "jurisdiction", "laguna-beach")
    case = changed(case, "services[0].date", "2025-02-30")
    assert {"jurisdiction", "services[0].date"} <= set(problems(case))


# Defaults and null


def test_it_defaults_the_establishment_to_full_service_on_the_public_sewer():
    est = parse_case(FULL).model.establishment
    assert est.category == "full_service"
    assert est.on_public_sewer is True


def test_it_defaults_a_service_to_a_full_pump_out():
    assert parse_case(FULL).model.services[0].full_pump_out is True


def test_it_defaults_a_trap_service_to_a_full_pump_out():
    case = changed(FULL, "devices[0].kind", "trap")
    assert parse_case(case).model.services[0].full_pump_out is True


def test_it_defaults_an_employee_to_kitchen_duties():
    assert parse_case(FULL).model.employees[0].kitchen_duties is True


def test_it_defaults_an_attendance_to_signed():
    assert parse_case(FULL).model.trainings[0].attendees[0].signed is True


def test_it_defaults_a_hauler_to_licensed():
    assert parse_case(FULL).model.haulers[0].licensed is True


def test_it_defaults_the_false_flags_to_false():
    model = parse_case(FULL).model
    assert model.establishment.food_grinder is False
    assert model.establishment.variance_granted is False
    assert model.employees[0].contractor is False
    assert model.incidents[0].attributed is False


def test_it_reads_a_null_permit_as_no_permit():
    assert parse_case(changed(FULL, "permit", None)).model.permit is None


def test_it_reads_a_null_optional_date_as_absent():
    case = changed(FULL, "establishment.closed_on", None)
    assert parse_case(case).model.establishment.closed_on is None


def test_it_reads_a_null_optional_action_field_as_absent():
    case = changed(FULL, "enforcement[0].corrected_on", None)
    assert parse_case(case).actions[0].get("corrected_on") is None


@pytest.mark.parametrize(
    "path, read, default",
    [
        ("establishment.category", lambda m: m.establishment.category, "full_service"),
        ("establishment.on_public_sewer", lambda m: m.establishment.on_public_sewer, True),
        ("services[0].full_pump_out", lambda m: m.services[0].full_pump_out, True),
        ("employees[0].kitchen_duties", lambda m: m.employees[0].kitchen_duties, True),
        ("trainings[0].attendees[0].signed", lambda m: m.trainings[0].attendees[0].signed, True),
        ("haulers[0].licensed", lambda m: m.haulers[0].licensed, True),
        ("establishment.food_grinder", lambda m: m.establishment.food_grinder, False),
    ],
)
def test_it_reads_a_null_defaulted_field_as_its_default(path, read, default):
    assert read(parse_case(changed(FULL, path, None)).model) == default


@pytest.mark.parametrize("items", ["incidents", "yellow_grease_pickups", "establishment.changes"])
def test_it_reads_a_null_list_as_an_empty_list(items):
    model = parse_case(changed(FULL, items, None)).model
    listed = model
    for p in _parts(items):
        listed = getattr(listed, p)
    assert listed == []


# RULES.md 11.13: device kinds and categories are the pack's


def test_it_refuses_a_device_kind_the_pack_does_not_know():
    case = town_case(
        devices=[{"id": "H-1", "kind": "hydromechanical", "installed_on": "2024-01-01"}]
    )
    with pytest.raises(CaseFileError) as err:
        parse_case(case)
    assert "devices[0].kind: 'hydromechanical' is not a device kind of town-10-02" in str(err.value)


def test_it_refuses_a_category_the_pack_does_not_know():
    with pytest.raises(CaseFileError) as err:
        parse_case(sc_case(establishment={"category": "food_truck"}))
    assert "establishment.category: 'food_truck' is not a category of san-clemente" in str(
        err.value
    )


def test_it_takes_the_packs_default_category_when_none_is_given():
    assert parse_case(town_case()).model.establishment.category == "full_service"


def test_it_refuses_an_approved_exception_where_the_pack_allows_none():
    device = {
        "id": "GI-1",
        "kind": "interceptor",
        "installed_on": "2015-01-01",
        "capacity_gallons": 600,
        "approved_exceptions": [{"field": "capacity_gallons", "approved_on": "2014-12-01"}],
    }
    with pytest.raises(CaseFileError) as err:
        parse_case(sc_case(devices=[device]))
    assert "devices[0].approved_exceptions" in str(err.value)
