"""The ordinance page (/ordinance/): every rule of the agency's pack with its citation, the
checklist's questions, every dated value of each parameter with the day it took effect and the
one in force marked, and the findings of each rule on record, the agency's own only; words to
look for narrow it, and too many are refused."""

from __future__ import annotations

from datetime import UTC, date, datetime
from html import escape

import pytest
import time_machine

from fogkeeper.compliance.models import Finding, SweepRun
from fogkeeper.rules.packs import Parameter as PackParameter
from fogkeeper.rules.packs import ParameterValue
from fogkeeper.web.ordinance.selectors import area_title, history, in_words, ordinance, shown
from fogkeeper.web.vocabulary import reference_words
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

URL = "/ordinance/"


@pytest.fixture(autouse=True)
def today():
    with time_machine.travel("2026-06-30 12:00 -07:00", tick=False):
        yield


def finding(fse, rule: str, *, open: bool = True, closed_on: date | None = None, subject="GI-1"):
    return Finding.objects.create(
        establishment=fse,
        agency=fse.agency,
        rule=rule,
        subject=subject,
        severity="violation",
        since=date(2026, 1, 10),
        open=open,
        closed_on=closed_on,
        resolved_on=closed_on,
        citation="13.30.050(H)(1)(b)",
        message="m",
        first_seen_on=date(2026, 1, 10),
        last_seen_on=date(2026, 6, 1),
    )


@pytest.fixture
def program():
    sc, town = two_agencies()
    first = make_establishment(sc, code="FSE-1")
    second = make_establishment(sc, code="FSE-2")
    finding(first, "gcd.service_overdue")
    finding(first, "gcd.service_overdue", subject="GI-2")
    finding(second, "gcd.service_overdue")
    finding(second, "gcd.service_overdue", open=False, closed_on=date(2026, 3, 1), subject="GI-9")
    finding(second, "gcd.service_overdue", open=False, closed_on=date(2024, 3, 1), subject="GI-8")
    elsewhere = make_establishment(town, code="T-1")
    finding(elsewhere, "gcd.service_overdue")
    SweepRun.objects.create(
        agency=sc,
        as_of=date(2026, 6, 1),
        status=SweepRun.COMPLETE,
        finished_at=datetime(2026, 6, 1, 3, tzinfo=UTC),
    )
    return sc, town


@pytest.mark.parametrize("role", ["manager", "inspector", "clerk", "auditor"])
def test_it_shows_every_staff_role_each_rule_with_its_citation(client, program, role):
    sc, _ = program
    client.force_login(make_user(role, sc, role=role))
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    assert "San Clemente Municipal Code ch. 13.30" in html
    pack = sc.get_pack()
    for spec in pack.rules.values():
        assert escape(spec.title) in html
        assert escape(spec.citation) in html
    for parameter in pack.parameters.values():
        assert escape(reference_words(pack, parameter.description)) in html
    for item in pack.checklist.values():
        assert escape(item.question) in html


def test_it_counts_the_agencys_findings_of_each_rule_after_the_last_sweep(program):
    sc, _ = program
    page = ordinance(sc, on=date(2026, 6, 30))
    assert page.last_sweep.as_of == date(2026, 6, 1)
    assert page.closed_since == date(2025, 6, 1)  # the pack's 365-day look-back
    devices = next(a for a in page.areas if a.key == "gcd")
    overdue = next(r for r in devices.rules if r.id == "gcd.service_overdue")
    # three open at two establishments; one closed within the look-back, one before it; the
    # Town's finding is not San Clemente's
    assert (overdue.findings.open, overdue.findings.establishments) == (3, 2)
    assert overdue.findings.closed == 1
    missing = next(r for r in devices.rules if r.id == "gcd.missing")
    assert missing.findings.open == 0


def test_it_links_the_open_findings_to_the_establishments_that_have_them(client, program):
    sc, _ = program
    client.force_login(make_user("m", sc, role="manager"))
    html = client.get(URL).content.decode()
    assert '<a href="/establishments/?rule=gcd.service_overdue">3 at 2 establishments</a>' in html


def test_it_gives_every_value_a_parameter_held_and_marks_the_one_in_force(client, program):
    sc, _ = program
    page = ordinance(sc, on=date(2026, 6, 30))
    params = {p.name: p for a in page.areas for p in a.parameters}
    assert set(params) == set(sc.get_pack().parameters)
    pack = sc.get_pack()
    for name, p in pack.parameters.items():
        shown_values = params[name].values
        assert [v.effective for v in shown_values] == [v.effective for v in p.values]
        assert [v.reference for v in shown_values] == [
            in_words(pack, v.reference) for v in p.values
        ]
        in_force = [v.effective for v in shown_values if v.in_force]
        assert in_force == [p.value_on(date(2026, 6, 30)).effective]


def test_the_value_in_force_follows_the_day_shown():
    first = ParameterValue(date(2009, 8, 20), 90, "13.30.050(H)(1)(b)")
    second = ParameterValue(date(2018, 3, 1), 60, "Ord. 1664")
    changed = PackParameter("gcd.x", "A frequency", (first, second))
    marked = {
        on: [v.effective for v in history(changed, on).values if v.in_force]
        for on in (date(2009, 8, 20), date(2018, 2, 28), date(2018, 3, 1), date(2026, 6, 30))
    }
    assert marked == {
        date(2009, 8, 20): [first.effective],
        date(2018, 2, 28): [first.effective],
        date(2018, 3, 1): [second.effective],
        date(2026, 6, 30): [second.effective],
    }
    assert history(changed, date(2026, 6, 30)).values[1].lines == ["60"]


def test_words_narrow_the_page_to_what_mentions_them(client, program):
    sc, _ = program
    client.force_login(make_user("m", sc, role="manager"))
    html = client.get(URL, {"q": "PUMP-OUT"}).content.decode()
    assert 'id="rule-gcdservice_overdue"' in html
    assert 'id="rule-trainingrefresher_overdue"' not in html
    assert 'id="matches"' in html and "mention “PUMP-OUT”" in html
    nothing = client.get(URL, {"q": "zeppelin"}).content.decode()
    assert "Nothing in the ordinance mentions “zeppelin”" in nothing


def test_too_many_words_are_refused_with_a_reason(client, program):
    sc, _ = program
    client.force_login(make_user("m", sc, role="manager"))
    response = client.get(URL, {"q": "x" * 101})
    assert response.status_code == 400
    assert "Look for at most 100 characters." in response.content.decode()


def test_without_a_sweep_it_says_so_and_where_one_is_started(client):
    sc, _ = two_agencies()
    client.force_login(make_user("m", sc, role="manager"))
    html = client.get(URL).content.decode()
    assert "No full sweep of the program has run yet" in html
    assert 'href="/sweeps/"' in html


def test_the_town_sees_its_own_ordinance(client, program):
    _, town = program
    client.force_login(make_user("t", town, role="auditor"))
    html = client.get(URL).content.decode()
    assert escape(town.get_pack().ordinance) in html
    assert "San Clemente Municipal Code" not in html


def test_a_value_is_shown_as_lines_a_reader_can_follow():
    limits = {"interceptor": {"capacity_gallons": {"min": 750}}, "trap": {}}
    assert shown(limits) == ["interceptor › capacity gallons › min: 750", "trap: none"]
    assert shown([30, 60, 90]) == ["30, 60, 90"]
    assert shown(True) == ["yes"] and shown(None) == ["none"] and shown("1 year") == ["1 year"]
    assert area_title("gcd") == "Grease control devices"
    pack = two_agencies()[0].get_pack()
    assert in_words(pack, "see gcd.frequency_review") == "see “Service frequency to review”"
    assert in_words(pack, "13.30.050(H)(1)(b); RULES.md 5 (gcd.frequency_review)") == (
        "13.30.050(H)(1)(b)"
    )
    assert in_words(pack, "City observed holidays (RULES.md 1)") == "City observed holidays"
    assert area_title("odour_control") == "Odour control"
