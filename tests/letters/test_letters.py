"""PDF letters: each kind opened, its text extracted, and checked for the establishment, the
sections cited and the deadlines (ARCHITECTURE.md; RULES.md section 10)."""

from __future__ import annotations

import dataclasses
import io
import socket
from datetime import date, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from pypdf import PdfReader

from fogkeeper.enforcement.letters import LocalFetcher, RemoteFetchRefused, render_letter
from fogkeeper.rules import evaluate, parse_case
from fogkeeper.rules.packs import default_registry

from ..rules.builders import sc_case, town_case

ISSUED_ON = date(2025, 4, 1)
EMERGENCY_AT = "2025-03-03T14:00:00-08:00"

SC_ACTIONS = {
    "notice_of_noncompliance": {"delivered_on": "2025-03-06", "correct_by": "2025-03-31"},
    "manager_decision": {"delivered_on": "2025-04-10"},
    "suspension_notice": {"mailed_on": "2025-04-01", "hearing_on": "2025-04-20"},
    "revocation_notice": {"mailed_on": "2025-04-01", "hearing_on": "2025-04-20"},
    "emergency_suspension": {"ordered_at": EMERGENCY_AT},
    "emergency_decision": {"delivered_on": "2025-03-06"},
    "administrative_complaint": {"served_on": "2025-05-01"},
    "penalty_order": {
        "issued_by": "manager",
        "issued_on": "2025-04-01",
        "served_on": "2025-04-02",
        "amount": 1500,
        "class": "records",
        "days": 1,
    },
    "final_decision": {"final_on": "2025-04-01"},
    "city_manager_decision": {"delivered_on": "2025-03-12", "orders": "discontinuance_stands"},
}

TOWN_ACTIONS = {
    "hearing_decision": {"noticed_on": "2025-04-01"},
    "suspension_notice": {"mailed_on": "2025-04-01", "hearing_on": "2025-04-20"},
    "revocation_notice": {"mailed_on": "2025-04-01", "hearing_on": "2025-04-20"},
    "emergency_suspension": {"ordered_at": EMERGENCY_AT},
    "administrative_complaint": {"served_on": "2025-05-01"},
    "penalty_order": {
        "issued_by": "hearing_officer",
        "issued_on": "2025-04-01",
        "served_on": "2025-04-02",
        "amount": 2000,
        "class": "records",
        "days": 1,
    },
}

CASES = {"san-clemente": (sc_case, SC_ACTIONS), "town-10-02": (town_case, TOWN_ACTIONS)}
LETTERS = [(pack, kind) for pack, (_, actions) in CASES.items() for kind in actions]


def pack(pack_id):
    return default_registry().get(pack_id)


def agency(pack_id, the_pack=None):
    return SimpleNamespace(
        name={"san-clemente": "City of San Clemente"}.get(pack_id, "Town of Example"),
        letterhead="910 Calle Negocio\nSan Clemente, CA 92673",
        get_pack=lambda: the_pack or pack(pack_id),
    )


def establishment(name="Pier Taqueria", operator="Pier Foods LLC"):
    tenure = SimpleNamespace(operator=SimpleNamespace(name=operator)) if operator else None
    return SimpleNamespace(
        name=name,
        address="101 Avenida Del Mar",
        city="San Clemente",
        code="FSE-1",
        current_tenure=lambda: tenure,
    )


def engine_deadlines(pack_id, action_type, fields):
    """The engine's deadlines for a case file holding this one action."""
    build = CASES[pack_id][0]
    case = build(enforcement=[{"id": "A-1", "type": action_type, **fields}])
    report = evaluate(parse_case(case, as_of=date(2025, 6, 30)))
    return [d for d in report.to_dict()["deadlines"] if d["action"] == "A-1"]


def letter(pack_id, action_type, fields, deadlines, **kw):
    args = {
        "agency": agency(pack_id),
        "establishment": establishment(),
        "action_type": action_type,
        "action_code": "A-1",
        "fields": fields,
        "deadlines": deadlines,
        "issued_on": ISSUED_ON,
        "facts": "Interceptor GI-1 not pumped out since 2024-09-01.",
        "signer": "Jane Roe",
    } | kw
    return render_letter(**args)


def text_of(pdf: bytes) -> str:
    pages = PdfReader(io.BytesIO(pdf)).pages
    return " ".join(" ".join(page.extract_text() for page in pages).split())


def printed(value: str) -> str:
    """A deadline's date as a letter prints it: March 17, 2025 (date-times add the time)."""
    when = datetime.fromisoformat(value)
    return f"{when:%B} {when.day}, {when.year}"


@pytest.mark.parametrize(("pack_id", "action_type"), LETTERS)
def test_it_prints_the_establishment_sections_and_deadlines(pack_id, action_type):
    fields = CASES[pack_id][1][action_type]
    deadlines = engine_deadlines(pack_id, action_type, fields)
    assert deadlines, "every letter here sets a deadline"

    pdf = letter(pack_id, action_type, fields, deadlines)

    assert pdf.startswith(b"%PDF")
    text = text_of(pdf)
    assert "Pier Taqueria" in text
    assert pack(pack_id).actions[action_type].citation in text
    for d in deadlines:
        assert d["citation"] in text
        assert printed(d["date"]) in text, f"{d['name']} {d['date']}"


def test_it_prints_the_time_of_an_hour_based_deadline():
    fields = SC_ACTIONS["emergency_suspension"]
    deadlines = engine_deadlines("san-clemente", "emergency_suspension", fields)

    text = text_of(letter("san-clemente", "emergency_suspension", fields, deadlines))

    assert "March 5, 2025, 2:00 PM PST" in text


def test_it_gives_the_sc_final_decision_the_1094_6_notice():
    fields = SC_ACTIONS["final_decision"]
    deadlines = engine_deadlines("san-clemente", "final_decision", fields)

    text = text_of(letter("san-clemente", "final_decision", fields, deadlines))

    assert (
        "Code of Civil Procedure Section 1094.6 governs the time within which judicial review "
        "must be sought" in text
    )
    assert "June 30, 2025" in text  # final + 90 days


def test_it_states_the_sc_daily_fine_and_correction_date():
    fields = SC_ACTIONS["notice_of_noncompliance"]
    deadlines = engine_deadlines("san-clemente", "notice_of_noncompliance", fields)

    text = text_of(letter("san-clemente", "notice_of_noncompliance", fields, deadlines))

    assert "$600 per day" in text
    assert "13.30.080(E)(3)" in text
    assert "March 31, 2025" in text
    assert "March 17, 2025" in text  # appeal: delivered + 10 days


def test_it_states_the_penalty_finality_review_and_lien_dates():
    fields = SC_ACTIONS["penalty_order"]
    deadlines = engine_deadlines("san-clemente", "penalty_order", fields)

    text = text_of(letter("san-clemente", "penalty_order", fields, deadlines))

    assert "$1,500" in text
    assert "Failure to keep or submit records: 1 day " in text
    assert "not to exceed $2,000 per day" in text
    assert "April 13, 2025" in text  # final on the 11th day after service
    assert "May 13, 2025" in text  # judicial review: final + 30 days
    assert "June 12, 2025" in text  # lien: final + 60 days
    assert "Government Code Section 54740.6" in text


def test_it_bounds_the_town_hearing_between_15_and_45_days():
    fields = TOWN_ACTIONS["suspension_notice"]
    deadlines = engine_deadlines("town-10-02", "suspension_notice", fields)

    text = text_of(letter("town-10-02", "suspension_notice", fields, deadlines))

    assert "not before April 16, 2025 and not after May 16, 2025" in text


def test_it_uses_each_packs_own_titles():
    sc = text_of(letter("san-clemente", "suspension_notice", SC_ACTIONS["suspension_notice"], []))
    town = text_of(letter("town-10-02", "suspension_notice", TOWN_ACTIONS["suspension_notice"], []))

    assert "Utilities Manager" in sc and "Discharge Permit" in sc
    assert "FOG Permit" in town and "Hearing Officer" in town
    assert "Discharge Permit" not in town and "Utilities Manager" not in town


def test_it_prints_the_letterhead_and_the_operator():
    text = text_of(letter("san-clemente", "manager_decision", {"delivered_on": "2025-04-10"}, []))

    assert "City of San Clemente" in text
    assert "910 Calle Negocio" in text
    assert "Pier Foods LLC" in text
    assert "Jane Roe" in text


def test_it_renders_without_a_current_operator():
    fse = establishment(operator=None)

    pdf = letter(
        "town-10-02", "hearing_decision", {"noticed_on": "2025-04-01"}, [], establishment=fse
    )

    assert "Pier Taqueria" in text_of(pdf)


def test_it_escapes_markup_in_the_facts():
    pdf = letter("town-10-02", "hearing_decision", {}, [], facts="Grease <b>at</b> the outlet")

    assert "Grease <b>at</b> the outlet" in text_of(pdf)


@pytest.mark.parametrize("pack_id", list(CASES))
def test_it_falls_back_to_the_default_letter(pack_id):
    fields = {"noticed_on": "2025-04-01", "amount": 428}
    deadlines = engine_deadlines(pack_id, "invoice", fields)

    text = text_of(letter(pack_id, "invoice", fields, deadlines))

    assert "Invoice" in text and "Pier Taqueria" in text
    assert pack(pack_id).actions["invoice"].citation in text
    for d in deadlines:
        assert printed(d["date"]) in text


@pytest.mark.parametrize("pack_id", list(CASES))
def test_every_letter_template_of_a_pack_is_tested(pack_id):
    folder = pack(pack_id).source / "letters"
    letters = {p.stem for p in folder.glob("*.html") if not p.stem.startswith("_")}

    # a hearing's notice and a compliance schedule are tested with the actions taken
    # (test_action_letters.py), the permit and its modification notice in
    # tests/permits/test_permit_documents.py
    tested_elsewhere = {
        "base",
        "default",
        "hearing",
        "compliance_schedule",
        "permit",
        "permit_modification_notice",
    }
    assert letters - tested_elsewhere == set(CASES[pack_id][1]) | set(UNDATED.get(pack_id, {}))


# Letters that set no deadline: each with its fields and words the ordinance asks for.
UNDATED = {
    "town-10-02": {
        "administrative_citation": (
            {"issued_on": "2025-04-01", "cited_for": "schedule", "amount": 900, "days": 3},
            ["Chapter 1.01", "10.02.330(D)(3)", "$900", "separate and distinct"],
        ),
        "service_termination": (
            {"terminated_on": "2025-04-01", "disconnection_cost": 640, "reinstatement_cost": 310},
            ["10.02.290(B)", "$640", "$310", "April 1, 2025"],
        ),
        "overflow_order": (
            {"ordered_on": "2025-04-01", "closure": True, "cleanup_contractor": True},
            ["10.02.170(A)(2)", "10.02.170(A)(3)", "licensed professional clean up"],
        ),
    }
}


@pytest.mark.parametrize(
    ("pack_id", "action_type"), [(p, t) for p, types in UNDATED.items() for t in types]
)
def test_a_letter_with_no_deadline_cites_its_section_and_says_what_the_law_asks(
    pack_id, action_type
):
    fields, words = UNDATED[pack_id][action_type]
    text = text_of(letter(pack_id, action_type, fields, []))
    assert "Pier Taqueria" in text
    assert pack(pack_id).actions[action_type].citation in text
    for word in words:
        assert word in text, word


def findings(lines: int) -> str:
    return "\n".join(f"Finding {i}: GI-1 held grease above 25% of its depth." for i in range(lines))


@pytest.mark.parametrize(
    ("pack_id", "action_type", "lines"),
    [
        ("town-10-02", "hearing_decision", 1),  # was: page 2 held the footer alone
        ("town-10-02", "hearing_decision", 3),  # was: page 2 held the closing alone
        ("san-clemente", "penalty_order", 20),  # was: page 3 held the footer alone
    ],
)
def test_the_signature_and_footer_end_the_page_the_text_ends_on(pack_id, action_type, lines):
    fields = CASES[pack_id][1][action_type]
    deadlines = engine_deadlines(pack_id, action_type, fields)

    pdf = letter(pack_id, action_type, fields, deadlines, facts=findings(lines))

    last = " ".join(PdfReader(io.BytesIO(pdf)).pages[-1].extract_text().split())
    assert last.index("Jane Roe") > 0, last  # some of the text comes before the signature
    assert "Issued under" in last


def test_it_refuses_an_action_type_that_is_not_a_name():
    with pytest.raises(ValueError):
        letter("san-clemente", "../pack", {}, [])


def test_it_fetches_no_remote_url_a_template_names(tmp_path, monkeypatch):
    (tmp_path / "letters").mkdir()
    (tmp_path / "letters" / "default.html").write_text(
        '<link rel="stylesheet" href="https://fonts.example.com/letter.css">'
        '<img src="http://example.com/logo.png">'
        "<p>{{ establishment.name }}</p>"
    )
    connects = []
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connects.append(a))
    monkeypatch.setattr(socket.socket, "connect", lambda self, *a: connects.append(a))
    local = dataclasses.replace(pack("san-clemente"), source=tmp_path)

    pdf = letter("san-clemente", "invoice", {}, [], agency=agency("san-clemente", local))

    assert "Pier Taqueria" in text_of(pdf)
    assert connects == []


def test_its_fetcher_refuses_remote_urls_and_files_outside_the_letters_folder(tmp_path):
    fetcher = LocalFetcher(tmp_path)

    with pytest.raises(RemoteFetchRefused):
        fetcher.fetch("https://example.com/logo.png")
    with pytest.raises(RemoteFetchRefused):
        fetcher.fetch(Path("/etc/hostname").as_uri())


def test_its_fetcher_reads_a_file_in_the_letters_folder(tmp_path):
    (tmp_path / "seal.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")

    response = LocalFetcher(tmp_path).fetch((tmp_path / "seal.svg").as_uri())

    assert b"<svg" in response.read()
