"""The case page (/cases/<establishment>/<case>/): its violations, actions, facts, deadlines
and fines in the pack's words, for the agency's staff only.

The agencies and their cases are built once for the module (a transaction rolled back when it
ends); each test runs in a savepoint of it, so what a test writes is undone after it, and is
given the agencies read again."""

import pytest

from fogkeeper.compliance import selectors as compliance_selectors
from fogkeeper.enforcement.models import Letter
from fogkeeper.rules.errors import CaseFileError, Problem
from tests.records import make_establishment
from tests.web.enforcement import (
    closed_case,
    read_again,
    two_cases_once,
)
from tests.web.people import make_user

pytestmark = pytest.mark.django_db

URL = "/cases/FSE-0042/EC-7/?as_of=2025-06-06"


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """San Clemente's case EC-7 and the Town's EC-1: the ids of the two agencies."""
    with two_cases_once(django_db_blocker) as ids:
        yield ids


@pytest.fixture
def agencies(built, db):
    """San Clemente and the Town, read again for this test."""
    return read_again(built)


def section(html: str, element_id: str) -> str:
    return html.split(f'id="{element_id}"', 1)[1].split("</table>", 1)[0].split("</ol>", 1)[0]


def test_it_shows_the_establishment_and_the_violation_with_its_citation(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    assert '<a href="/establishments/FSE-0042/">Pier Taqueria</a>' in html
    violations = section(html, "violations")
    assert (
        '<th scope="row">Pump-out overdue (V-1)</th><td>GT-2</td><td>2020-06-01</td>' in violations
    )
    assert "<td>13.30.050(H)(1)(b)</td>" in violations


def test_it_lists_the_actions_in_the_order_taken_in_the_packs_words(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.get(URL)
    assert [row["action"].code for row in response.context["case_page"].actions] == [
        "NNC-1",
        "SN-1",
        "H-1",
        "MD-1",
    ]
    html = response.content.decode()
    assert "2025-03-03: Notice of Non-Compliance" in html
    assert "2025-06-05: Decision of the Utilities Manager" in html
    notice = section(html, "action-NNC-1")
    assert "<dt>Citation</dt><dd>13.30.080(D)(1), (E)</dd>" in notice
    assert "<dt>By</dt><dd>Authorized Inspector</dd>" in notice
    assert (
        "<dt>Delivered on</dt><dd>2025-03-03</dd><dt>Correct by</dt><dd>2025-03-31</dd>" in notice
    )


def test_it_shows_the_facts_recorded_since_each_action(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    assert "<li>Corrected on: 2025-04-15 " in section(html, "action-NNC-1")
    suspension = section(html, "action-SN-1")
    assert "<li>Hearing on: 2025-06-02 " in suspension
    assert "<li>Hearing concluded on: 2025-06-02 " in suspension
    assert "<dt>On</dt><dd>Hearing (H-1)</dd>" in section(html, "action-MD-1")


def test_it_gives_the_deadlines_the_engine_computes_with_their_citations(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.get(URL)
    rows = [
        (d["action"], d["name"], d["kind"], d["shown"], d["citation"], d["passed"])
        for d in response.context["case_page"].deadlines
    ]
    assert ("NNC-1", "appeal", "deadline", "2025-03-13", "13.30.080(D)(1)", True) in rows
    assert ("SN-1", "hearing", "earliest", "2025-05-30", "13.30.080(G)(2)", True) in rows
    assert (
        "MD-1",
        "council_review_request",
        "deadline",
        "2025-06-16",
        "13.30.080(D)(2)",
        False,
    ) in rows
    assert '<th scope="row">Council review request</th>' in response.content.decode()


def test_it_shows_the_daily_fine_accrued_until_corrected(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = section(client.get(URL).content.decode(), "accruals")
    assert '<th scope="row">Daily fine (NNC-1)</th><td>2025-04-01</td><td>2025-04-14</td>' in html
    assert '<td class="num">$8,400.00</td><td>13.30.080(E)(3)</td>' in html


def test_it_links_each_letter_for_download(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get(URL).content.decode()
    letter = Letter.objects.get(action__code="MD-1", action__establishment__code="FSE-0042")
    assert f'<a href="/letters/{letter.pk}.pdf" download>Letter for MD-1 (PDF)</a>' in html


def test_it_counts_a_case_open_while_its_violation_is_still_found(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/cases/FSE-0042/EC-7/?as_of=2025-07-30").content.decode()
    assert "Open as of 2025-07-30" in html  # every date passed, GT-2 still not pumped out
    assert "<td>yes</td>" in section(html, "violations")


def test_it_counts_a_case_closed_once_nothing_of_it_is_live(client, agencies):
    closed_case(make_establishment(agencies[0], "FSE-0100", name="Harbor Grill"))
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/cases/FSE-0100/EC-2/?as_of=2025-06-06").content.decode()
    assert "Closed as of 2025-06-06" in html
    assert "<td>2025-01-13 (passed)</td>" in section(html, "deadlines")


def test_it_answers_404_for_another_agencys_case(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    assert client.get("/cases/T-0042/EC-1/").status_code == 404
    assert client.get("/cases/FSE-0042/EC-1/").status_code == 404


def test_it_shows_the_town_its_own_case(client, agencies):
    client.force_login(make_user("charlie", agencies[1]))
    html = client.get("/cases/T-0042/EC-1/?as_of=2025-03-04").content.decode()
    assert "2025-03-03: Decision of the hearing officer" in html
    assert "<dt>By</dt><dd>Hearing Officer</dd>" in html
    deadlines = section(html, "deadlines")
    assert '<td>2025-03-18</td><th scope="row">Council appeal</th>' in deadlines
    assert "<td>10.02.330(C)</td>" in deadlines


def test_it_sends_anonymous_visitors_to_sign_in(client, agencies):
    response = client.get("/cases/FSE-0042/EC-7/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/cases/FSE-0042/EC-7/"


def test_it_reads_a_date_before_the_ordinance_as_the_day_it_took_effect(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/cases/FSE-0042/EC-7/?as_of=2000-01-01").content.decode()
    assert "as of 2009-08-20" in html


def test_it_still_shows_the_case_when_the_engine_cannot_evaluate_it(client, agencies, monkeypatch):
    def refuse(**kw):
        raise CaseFileError([Problem("devices[0].kind", "not a device kind")])

    # the engine's word is read where the case page asks for it (compliance.selectors.day_word)
    monkeypatch.setattr(compliance_selectors, "establishment_report", refuse)
    client.force_login(make_user("alice", agencies[0]))
    response = client.get(URL)
    assert response.status_code == 200
    assert "could not evaluate this establishment" in response.content.decode()
    assert "not a device kind" in response.content.decode()
    assert len(response.context["case_page"].actions) == 4
