"""Inspection checklist answers (RULES.md section 8)."""

import pytest

from fogkeeper.rules.errors import CaseFileError
from fogkeeper.rules.packs import default_registry

from .builders import d, evaluate_case, found, one, sc_case, town_case

SC_CHECKLIST = {
    "bmp.food_waste_disposal": "13.30.050(H)(4)(a)",
    "bmp.dry_wipe": "13.30.050(H)(4)(b)",
    "bmp.drain_screens": "13.30.050(H)(4)(c)",
    "bmp.waste_oil_storage": "13.30.050(H)(4)(d)",
    "bmp.mop_water": "13.30.050(H)(4)(e)",
    "bmp.hood_maintenance": "13.30.050(H)(4)(f)",
    "bmp.absorbents": "13.30.050(H)(4)(h)",
    "bmp.spill_kit": "13.30.050(H)(4)(i)",
    "bmp.signage": "13.30.050(H)(4)(k)",
    "discharge.waste_oil_to_drain": "13.30.040(C)(1)",
    "discharge.hot_water": "13.30.040(C)(2), 13.30.050(H)(4)(j)",
    "discharge.sanitary_to_gcd": "13.30.040(C)(3)",
    "discharge.gcd_waste_to_sewer": "13.30.040(C)(4)",
    "discharge.dilution": "13.30.040(C)(12)",
    "discharge.additives": "13.30.040(C)(13)",
    "gcd.trap_condition": "13.30.040(C)(10), 13.30.050(H)(4)(g)",
    "records.service_log": "13.30.050(H)(1)(c)",
    "records.yellow_grease_log": "13.30.050(H)(2)(a)",
    "records.training_log": "13.30.050(H)(3)(b)",
    "inspection.access_refused": "13.30.080(B)",
}

TOWN_CHECKLIST = {
    "bmp.food_waste_disposal": "10.02.070(B)",
    "bmp.dry_wipe": "10.02.070(C)",
    "bmp.drain_screens": "10.02.070(B)",
    "bmp.waste_oil_storage": "10.02.070(B)",
    "bmp.hood_maintenance": "10.02.070(E)",
    "bmp.signage": "10.02.070(F)",
    "discharge.waste_oil_to_drain": "10.02.210",
    "discharge.hot_water": "10.02.220",
    "discharge.sanitary_to_gcd": "10.02.230",
    "discharge.gcd_waste_to_sewer": "10.02.240",
    "discharge.dilution": "10.02.250",
    "discharge.additives": "10.02.200",
    "discharge.dishwasher_to_gcd": "10.02.220",
    "gcd.trap_condition": "10.02.120(C)",
    "gcd.baffles": "10.02.130(C)",
    "gcd.access": "10.02.110(C), (D)",
    "records.service_log": "10.02.140(A), (D), (E)",
    "records.yellow_grease_log": "10.02.070(B)",
    "records.training_log": "10.02.070(C)",
    "inspection.access_refused": "10.02.080(A)",
}

SC_DEVICE = {"id": "GI-1", "kind": "interceptor", "installed_on": "2010-01-01"}


def inspection(id, on, *answers):
    return {"id": id, "date": on, "answers": list(answers)}


def no(item, **fields):
    return {"item": item, "compliant": False, **fields}


def yes(item, **fields):
    return {"item": item, "compliant": True, **fields}


def sc_inspected(*inspections, as_of="2025-06-30"):
    case = sc_case(devices=[SC_DEVICE], inspections=list(inspections))
    return evaluate_case(case, as_of=as_of)


def town_inspected(*inspections, as_of="2025-06-30"):
    return evaluate_case(town_case(inspections=list(inspections)), as_of=as_of)


# A non-compliant answer is a violation


def test_it_opens_a_violation_named_after_the_checklist_item():
    report = sc_inspected(inspection("I-1", "2025-03-05", no("bmp.spill_kit")))
    f = one(report, "bmp.spill_kit", "FSE-1")
    assert f.open
    assert f.severity == "violation"
    assert f.since == d("2025-03-05")
    assert f.citation == "13.30.050(H)(4)(i)"
    assert report.status == "non_compliant"


def test_it_raises_nothing_for_a_compliant_answer():
    report = sc_inspected(inspection("I-1", "2025-03-05", yes("bmp.spill_kit")))
    assert found(report, "bmp.spill_kit") == []
    assert report.status == "compliant"


def test_it_makes_the_device_the_subject_when_the_answer_names_one():
    answer = no("gcd.trap_condition", device="GI-1")
    report = sc_inspected(inspection("I-1", "2025-03-05", answer))
    f = one(report, "gcd.trap_condition", "GI-1")
    assert f.open
    assert found(report, "gcd.trap_condition", "FSE-1") == []


def test_it_makes_the_town_device_the_subject_when_the_answer_names_one():
    report = town_inspected(inspection("I-1", "2025-03-05", no("gcd.baffles", device="GI-1")))
    f = one(report, "gcd.baffles", "GI-1")
    assert f.open
    assert f.citation == "10.02.130(C)"


def test_it_makes_the_establishment_the_subject_when_no_device_is_named():
    report = town_inspected(inspection("I-1", "2025-03-05", no("bmp.signage")))
    assert one(report, "bmp.signage", "FSE-T").citation == "10.02.070(F)"


@pytest.mark.parametrize("item,citation", sorted(SC_CHECKLIST.items()))
def test_it_cites_every_sc_checklist_item(item, citation):
    report = sc_inspected(inspection("I-1", "2025-03-05", no(item)))
    f = one(report, item, "FSE-1")
    assert (f.severity, f.citation) == ("violation", citation)


@pytest.mark.parametrize("item,citation", sorted(TOWN_CHECKLIST.items()))
def test_it_cites_every_town_checklist_item(item, citation):
    report = town_inspected(inspection("I-1", "2025-03-05", no(item)))
    f = one(report, item, "FSE-T")
    assert (f.severity, f.citation) == ("violation", citation)


@pytest.mark.parametrize("item", ["bmp.mop_water", "bmp.absorbents", "bmp.spill_kit"])
def test_it_rejects_an_sc_only_item_in_a_town_case(item):
    with pytest.raises(CaseFileError, match="not on the town-10-02 checklist"):
        town_inspected(inspection("I-1", "2025-03-05", no(item)))


@pytest.mark.parametrize("item", ["discharge.dishwasher_to_gcd", "gcd.baffles", "gcd.access"])
def test_it_rejects_a_town_only_item_in_an_sc_case(item):
    with pytest.raises(CaseFileError, match="not on the san-clemente checklist"):
        sc_inspected(inspection("I-1", "2025-03-05", no(item)))


# Cure: a strictly later inspection answering the item compliant


def test_it_closes_the_violation_when_a_later_inspection_answers_compliant():
    report = sc_inspected(
        inspection("I-1", "2025-03-05", no("bmp.drain_screens")),
        inspection("I-2", "2025-04-02", yes("bmp.drain_screens")),
    )
    f = one(report, "bmp.drain_screens", "FSE-1")
    assert not f.open
    assert f.since == d("2025-03-05")
    assert f.resolved_on == d("2025-04-02")
    assert report.status == "compliant"


def test_it_does_not_cure_with_a_compliant_answer_on_the_same_date():
    report = sc_inspected(
        inspection("I-1", "2025-03-05", no("bmp.drain_screens")),
        inspection("I-2", "2025-03-05", yes("bmp.drain_screens")),
    )
    f = one(report, "bmp.drain_screens", "FSE-1")
    assert f.open
    assert f.resolved_on is None


def test_it_cures_with_a_compliant_answer_the_next_day():
    report = sc_inspected(
        inspection("I-1", "2025-03-05", no("bmp.drain_screens")),
        inspection("I-2", "2025-03-06", yes("bmp.drain_screens")),
    )
    assert one(report, "bmp.drain_screens", "FSE-1").resolved_on == d("2025-03-06")


def test_it_does_not_cure_with_a_compliant_answer_to_another_item():
    report = sc_inspected(
        inspection("I-1", "2025-03-05", no("bmp.drain_screens")),
        inspection("I-2", "2025-04-02", yes("bmp.signage")),
    )
    assert one(report, "bmp.drain_screens", "FSE-1").open


def test_it_does_not_cure_with_an_inspection_that_does_not_answer_the_item():
    report = sc_inspected(
        inspection("I-1", "2025-03-05", no("bmp.drain_screens")),
        inspection("I-2", "2025-04-02"),
    )
    assert one(report, "bmp.drain_screens", "FSE-1").open


def test_it_cures_a_device_violation_with_a_compliant_answer_for_the_device():
    report = town_inspected(
        inspection("I-1", "2025-03-05", no("gcd.access", device="GI-1")),
        inspection("I-2", "2025-05-20", yes("gcd.access", device="GI-1")),
    )
    f = one(report, "gcd.access", "GI-1")
    assert (f.open, f.since, f.resolved_on) == (False, d("2025-03-05"), d("2025-05-20"))
    assert f.citation == "10.02.110(C), (D)"


def test_it_ignores_a_compliant_answer_dated_after_as_of():
    report = sc_inspected(
        inspection("I-1", "2025-03-05", no("bmp.drain_screens")),
        inspection("I-2", "2025-07-02", yes("bmp.drain_screens")),
    )
    assert one(report, "bmp.drain_screens", "FSE-1").open


def test_it_ignores_a_non_compliant_answer_dated_after_as_of():
    report = sc_inspected(inspection("I-1", "2025-07-02", no("bmp.drain_screens")))
    assert found(report, "bmp.drain_screens") == []


# One finding per episode


def test_it_keeps_repeated_observations_before_the_cure_as_one_finding():
    report = sc_inspected(
        inspection("I-1", "2025-02-01", no("bmp.hood_maintenance")),
        inspection("I-2", "2025-03-01", no("bmp.hood_maintenance")),
        inspection("I-3", "2025-04-01", yes("bmp.hood_maintenance")),
    )
    f = one(report, "bmp.hood_maintenance", "FSE-1")
    assert (f.since, f.resolved_on) == (d("2025-02-01"), d("2025-04-01"))


def test_it_keeps_an_uncured_repeated_observation_open_from_the_first_date():
    report = town_inspected(
        inspection("I-1", "2025-02-01", no("discharge.additives")),
        inspection("I-2", "2025-03-01", no("discharge.additives")),
    )
    f = one(report, "discharge.additives", "FSE-T")
    assert f.open
    assert f.since == d("2025-02-01")


def test_it_starts_a_new_finding_when_the_condition_returns_after_a_cure():
    report = sc_inspected(
        inspection("I-1", "2025-02-01", no("bmp.signage")),
        inspection("I-2", "2025-03-01", yes("bmp.signage")),
        inspection("I-3", "2025-05-01", no("bmp.signage")),
    )
    episodes = found(report, "bmp.signage", "FSE-1")
    assert sorted((f.since, f.open, f.resolved_on) for f in episodes) == [
        (d("2025-02-01"), False, d("2025-03-01")),
        (d("2025-05-01"), True, None),
    ]


def test_it_keeps_separate_items_as_separate_findings():
    report = sc_inspected(
        inspection("I-1", "2025-02-01", no("bmp.signage"), no("bmp.dry_wipe")),
    )
    assert one(report, "bmp.signage", "FSE-1").open
    assert one(report, "bmp.dry_wipe", "FSE-1").open


# Look-back of closed findings


def test_it_reports_a_closed_violation_cured_exactly_365_days_before_as_of():
    report = sc_inspected(
        inspection("I-1", "2024-05-01", no("bmp.signage")),
        inspection("I-2", "2024-06-30", yes("bmp.signage")),
    )
    assert one(report, "bmp.signage", "FSE-1").resolved_on == d("2024-06-30")


def test_it_drops_a_closed_violation_cured_366_days_before_as_of():
    report = sc_inspected(
        inspection("I-1", "2024-05-01", no("bmp.signage")),
        inspection("I-2", "2024-06-29", yes("bmp.signage")),
    )
    assert found(report, "bmp.signage") == []


# Each pack's checklist says its own law (RULES.md 12.10)

PACKS = ("san-clemente", "town-10-02", "us-oh-aurora")

# Words of one pack's law that another pack's item must not borrow: San Clemente's waste-oil
# storage (13.30.050(H)(4)(d)) and hood (13.30.050(H)(4)(f)) duties.
SC_ONLY_WORDS = (
    "110%",
    "secondary containment",
    "covered containers",
    "under cover",
    "rooftop",
    "grease guard",
)


def checklist_of(pack_id):
    return default_registry().get(pack_id).checklist


def words(item):
    return f"{item.question} {item.finding}".lower()


@pytest.mark.parametrize("pack_id", ["town-10-02", "us-oh-aurora", "us-tx-cleburne"])
def test_no_item_of_another_pack_speaks_of_110_percent_containment_or_a_rooftop_grease_guard(
    pack_id,
):
    borrowed = {
        (item.item, w)
        for item in checklist_of(pack_id).values()
        for w in SC_ONLY_WORDS
        if w in words(item)
    }
    assert borrowed == set()


def test_san_clemente_keeps_its_containment_and_rooftop_grease_guard():
    sc = checklist_of("san-clemente")
    assert "110% secondary containment" in words(sc["bmp.waste_oil_storage"])
    assert "rooftop" in words(sc["bmp.hood_maintenance"])
    assert "grease guard" in words(sc["bmp.hood_maintenance"])


def test_the_towns_waste_oil_item_is_10_02_070_b():
    item = checklist_of("town-10-02")["bmp.waste_oil_storage"]
    assert item.citation == "10.02.070(B)"
    for phrase in (
        "recycling receptacles",
        "leak",
        "licensed waste hauler",
        "approved recycling facility",
        "manifests",
    ):
        assert phrase in item.question and phrase in item.finding


def test_the_towns_hood_item_is_10_02_070_e():
    item = checklist_of("town-10-02")["bmp.hood_maintenance"]
    assert item.citation == "10.02.070(E)"
    for phrase in (
        "exhaust filters",
        "as frequently as necessary",
        "wastewater from cleaning",
        "disposed of properly",
    ):
        assert phrase in item.question and phrase in item.finding


# A finding says what was found, in the pack's words, not the inspector's question

AURORA_CASE = {
    "jurisdiction": "us-oh-aurora",
    "as_of": "2025-06-30",
    "establishment": {
        "id": "FSE-A",
        "name": "Chagrin Diner",
        "opened_on": "2015-01-01",
        "operator": {"name": "Chagrin Diner LLC", "since": "2015-01-01"},
    },
}


def answered_no(pack_id, item):
    answer = inspection("I-1", "2025-03-05", no(item))
    if pack_id == "san-clemente":
        return sc_inspected(answer)
    if pack_id == "town-10-02":
        return town_inspected(answer)
    return evaluate_case({**AURORA_CASE, "inspections": [answer]}, as_of="2025-06-30")


@pytest.mark.parametrize("pack_id,item", [(p, i) for p in PACKS for i in sorted(checklist_of(p))])
def test_a_non_compliant_answer_gives_the_finding_in_the_packs_words(pack_id, item):
    said = checklist_of(pack_id)[item]
    f = one(answered_no(pack_id, item), item)
    assert f.message == f"{said.finding} (inspection of 2025-03-05)."
    assert said.question not in f.message and "?" not in f.message


def test_a_closed_finding_says_what_was_found_too():
    report = town_inspected(
        inspection("I-1", "2025-03-05", no("bmp.waste_oil_storage")),
        inspection("I-2", "2025-04-02", yes("bmp.waste_oil_storage")),
    )
    f = one(report, "bmp.waste_oil_storage", "FSE-T")
    assert not f.open
    assert f.message.startswith("Waste cooking oil was not kept in recycling receptacles")
    assert f.message.endswith("(inspection of 2025-03-05).")


def test_a_missing_pump_out_log_is_said_as_found():
    f = one(answered_no("san-clemente", "records.service_log"), "records.service_log")
    assert f.message.startswith("No 12-month pump-out log was kept on site")
