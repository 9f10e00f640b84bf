"""The dashboard (/dashboard/): what needs doing in the agency on the day shown, each count
linking to what is behind it.

San Clemente's Pier Taqueria and the Town's are built and swept once for the module (a
transaction rolled back when it ends, their writes left to the sweeps that end the building);
each test runs in a savepoint of it, so what a test writes is undone after it. Which sweep the
figures are from is tested in test_dashboard_sweeps.py, on sweeps of its own."""

from datetime import date

import pytest

from fogkeeper import reevaluation
from fogkeeper.compliance.dashboard import compliance_rate
from fogkeeper.compliance.models import ComplianceRate
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, GreaseControlDevice, Hauler
from tests import databases
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import make_establishment, make_permit
from tests.web.enforcement import san_clemente_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """San Clemente's Pier Taqueria and the Town's troubled FSE, swept: San Clemente's id."""
    with databases.rolled_back(django_db_blocker, as_committed=True):
        with reevaluation.held():  # the sweeps evaluate every establishment written
            sc, town = two_agencies()
            make_pier_taqueria(sc)
            make_pier_taqueria(town, code="T-0042")
        sweep_agency(sc, as_of=AS_OF)
        sweep_agency(town, as_of=AS_OF)
        databases.check_constraints()
        yield sc.pk


@pytest.fixture
def alice(client, built, db):
    """Alice works for San Clemente (Pier Taqueria); the Town has its own troubled FSE."""
    client.force_login(make_user("alice", Agency.objects.get(pk=built)))
    return client


def count(html: str, element_id: str) -> str:
    return html.split(f'id="{element_id}">', 1)[1].split("<", 1)[0]


def test_it_counts_overdue_pump_outs_per_establishment_with_a_link(alice):
    html = alice.get(f"/dashboard/?as_of={AS_OF}").content.decode()
    assert count(html, "overdue-pump-outs") == "1"  # two devices, one establishment
    assert 'href="/establishments/?rule=gcd.service_overdue&amp;as_of=2025-06-30"' in html


def test_its_counts_agree_with_their_nouns(alice):
    """Issue 39: "1 overdue pump-outs" read wrong; one is a pump-out, two are pump-outs."""
    html = alice.get(f"/dashboard/?as_of={AS_OF}").content.decode()
    assert '"overdue-pump-outs">1</span> overdue pump-out</a>' in html
    assert "overdue pump-outs</a>" not in html


def test_it_lists_open_violations_by_rule_in_the_packs_words(alice):
    response = alice.get(f"/dashboard/?as_of={AS_OF}")
    rows = [(v["rule"], v["count"]) for v in response.context["board"].violations_by_rule]
    assert rows == [
        ("bmp.drain_screens", 1),
        ("gcd.service_overdue", 1),
        ("gcd.trap_condition", 1),
        ("gcd.trap_prohibited", 1),
        ("permit.new_operator", 1),
    ]
    assert "Pump-out overdue" in response.content.decode()


def test_it_follows_a_number_to_the_establishments_behind_it(alice):
    response = alice.get("/establishments/?rule=gcd.service_overdue")
    assert [fse.code for fse in response.context["page"].object_list] == ["FSE-0042"]


@pytest.mark.parametrize("day", ["2025-06-30", "2026-01-15", "2026-02-05", "2026-03-01"])
def test_it_counts_the_inspections_due_as_the_field_list_does_overdue_ones_included(alice, day):
    board = alice.get(f"/dashboard/?as_of={day}").context["board"]
    field = alice.get(f"/inspections/field/?as_of={day}").context["pages"]
    assert board.inspections_due == field["today"].paginator.count
    assert board.inspections_this_week == field["week"].paginator.count


def test_it_counts_an_overdue_inspection_as_due(alice):
    fse = FoodServiceEstablishment.objects.get(code="FSE-0042")
    overdue = fse.compliance.next_inspection_due.replace(
        year=fse.compliance.next_inspection_due.year + 1
    )
    html = alice.get(f"/dashboard/?as_of={overdue}").content.decode()
    assert count(html, "inspections-due") == "1"
    assert f'href="/inspections/field/?as_of={overdue}"' in html


def test_it_shows_an_impossible_day_as_today_and_says_so(alice):
    response = alice.get("/dashboard/?as_of=2026-02-30")
    assert response.status_code == 200
    assert response.context["board"].as_of == date.today()
    html = response.content.decode()
    assert "“2026-02-30” is not a date (YYYY-MM-DD)" in html
    assert 'id="as-of-error"' in html


def test_it_offers_the_as_of_control_with_a_way_back_to_today(alice):
    html = alice.get(f"/dashboard/?as_of={AS_OF}").content.decode()
    assert (
        '<input class="usa-input" type="date" id="as-of" name="as_of" value="2025-06-30">' in html
    )
    assert '<a id="as-of-today" href="/dashboard/">Back to today</a>' in html
    assert 'id="as-of-today"' not in alice.get("/dashboard/").content.decode()


def test_it_counts_the_violations_open_on_the_day_shown(alice):
    before = alice.get("/dashboard/?as_of=2025-01-05").context["board"].violations_by_rule
    now = alice.get(f"/dashboard/?as_of={AS_OF}").context["board"].violations_by_rule
    assert len(before) < len(now)
    assert "bmp.drain_screens" not in {v["rule"] for v in before}


def test_it_shows_recent_overflows_of_the_agency_only(alice):
    response = alice.get("/dashboard/?as_of=2025-04-15")
    codes = [i.code for i in response.context["board"].overflows]
    assert codes == ["FSE-0042-SSO-X", "FSE-0042-SSO-3"]  # none of the Town's T-0042
    assert count(response.content.decode(), "recent-overflows") == "2"


def test_it_charts_twelve_months_of_compliance(alice):
    html = alice.get(f"/dashboard/?as_of={AS_OF}").content.decode()
    assert '<script id="compliance-data" type="application/json">' in html
    assert "/static/web/vendor/chart.umd.min.js" in html
    assert html.count('<th scope="row">2025-') == 6 and html.count('<th scope="row">2024-') == 6


def test_it_names_the_agency_and_its_permit(alice):
    html = alice.get(f"/dashboard/?as_of={AS_OF}").content.decode()
    assert "What needs doing, City of San Clemente" in html
    assert "Discharge Permits to renew" in html


def test_it_links_this_weeks_deadlines_to_their_case(alice):
    san_clemente_case(FoodServiceEstablishment.objects.get(code="FSE-0042"))
    html = alice.get("/dashboard/?as_of=2025-06-10").content.decode()
    week = html.split('id="week-heading"', 1)[1].split("</section>", 1)[0]
    assert (
        '<a href="/cases/FSE-0042/EC-7/?as_of=2025-06-10">'
        "Council review request (MD-1, case EC-7)</a>"
    ) in week
    assert "<td>13.30.080(D)(2)</td>" in week


def test_it_charts_the_rates_the_sweep_stored_and_counts_the_day_shown(alice):
    sc = Agency.objects.get(code="san-clemente")
    stored = alice.get(f"/dashboard/?as_of={AS_OF}").context["board"].compliance_rate
    ComplianceRate.objects.all().delete()
    counted = alice.get(f"/dashboard/?as_of={AS_OF}").context["board"].compliance_rate
    assert stored == counted
    assert [m["date"] for m in stored][-2:] == [date(2025, 5, 31), AS_OF]
    assert stored[-1] == {"date": AS_OF, "rate": 0.0, "active": 1}
    assert compliance_rate(agency=sc, as_of=date(2025, 7, 15))[-2] == stored[-1]


def test_it_counts_the_day_shown_and_keeps_the_month_ends_of_the_last_sweep(alice):
    sc = Agency.objects.get(code="san-clemente")
    fse = make_establishment(sc, code="FSE-NEW", name="New Place", opened_on="2025-05-01")
    # evaluated as the registry's services ask: no permit, so not compliant either
    reevaluation.reevaluate_on_commit(fse, as_of=AS_OF)
    html = alice.get(f"/dashboard/?as_of={AS_OF}").content.decode()
    assert '<th scope="row">2025-06-30</th><td class="num">0.0 %</td><td class="num">2' in html
    assert '<th scope="row">2025-05-31</th><td class="num">0.0 %</td><td class="num">1' in html


def test_it_counts_permits_to_renew_from_the_schedule(alice):
    sc = Agency.objects.get(code="san-clemente")
    fse = make_establishment(sc, code="FSE-R", name="Renewing Grill")
    make_permit(fse, "DP-R", issued_on="2021-08-01", expires_on="2025-08-31")
    sweep_agency(sc, as_of=AS_OF)
    board = alice.get(f"/dashboard/?as_of={AS_OF}").context["board"]
    assert board.permits_to_renew == 1 and board.renew_by == date(2025, 7, 31)
    listed = alice.get("/establishments/?obligation=permit.renewal_application&due_to=2025-07-31")
    assert [fse.code for fse in listed.context["page"].object_list] == ["FSE-R"]


def test_it_shows_no_overdue_pump_out_once_both_are_recorded_through_the_page(alice):
    url = "/establishments/FSE-0042/record/service/?as_of=2025-06-30"
    hauler = Hauler.objects.get(code="FSE-0042-H1")
    for device, manifest in (("GT-2", "M-901"), ("GI-1", "M-902")):
        device = GreaseControlDevice.objects.get(establishment__code="FSE-0042", code=device)
        data = {
            "device": device.pk,
            "hauler": hauler.pk,
            "date": "2025-06-29",
            "manifest_number": manifest,
            "full_pump_out": "on",
        }
        response = alice.post(url, data)
        assert response.status_code == 302
    html = alice.get(f"/dashboard/?as_of={AS_OF}").content.decode()
    assert count(html, "overdue-pump-outs") == "0"


def test_it_shows_the_day_the_ordinance_took_effect_for_an_earlier_day(alice):
    response = alice.get("/dashboard/?as_of=2000-01-01")
    assert response.status_code == 200
    assert (
        response.context["board"].as_of
        == Agency.objects.get(code="san-clemente").get_pack().effective
    )


def state_spill(agency, code="SSO-9", **kw):
    """A category 2 spill the agency learned of on Monday June 2, 2025, ended that day."""
    from datetime import datetime
    from decimal import Decimal
    from zoneinfo import ZoneInfo

    from fogkeeper.incidents.models import Incident

    la = ZoneInfo("America/Los_Angeles")
    return Incident.objects.create(
        agency=agency,
        code=code,
        date=date(2025, 6, 2),
        kind="spill",
        gallons=Decimal(1500),
        category=2,
        category_source="derived",
        known_at=datetime(2025, 6, 2, 8, tzinfo=la),
        ended_at=datetime(2025, 6, 2, 10, tzinfo=la),
        **kw,
    )


def overdue_segment(agency):
    from fogkeeper.registry.models import SewerSegment
    from fogkeeper.sewers.models import SegmentCleaning

    segment = SewerSegment.objects.create(
        agency=agency, code="MH-12-MH-13", prone_to_blockage=True, cleaning_frequency_days=90
    )
    SegmentCleaning.objects.create(
        agency=agency,
        segment=segment,
        cleaned_on=date(2025, 1, 6),
        crew="Crew 2",
        method="hydro_jet",
        fog_found="heavy",
    )
    return segment


def test_it_lists_spill_reports_late_and_due_with_their_citations(alice):
    sc = Agency.objects.get(pack="san-clemente")
    spill = state_spill(sc)
    html = alice.get("/dashboard/?as_of=2025-06-11").content.decode()
    assert count(html, "spill-reports-late") == "1"
    table = html.split('id="dashboard-spill-reports"', 1)[1].split("</table>", 1)[0]
    assert '2025-06-05 <span class="usa-tag">Late</span>' in table  # draft: 3 business days
    assert "2025-06-17" in table and "Att. E1 §3.2.2" in table  # certified: due this week
    assert f'href="/incidents/{spill.pk}/?as_of=2025-06-11"' in table


def test_it_leaves_out_another_agencys_spill_reports(alice):
    state_spill(Agency.objects.get(pack="town-10-02"))
    html = alice.get("/dashboard/?as_of=2025-06-10").content.decode()
    assert count(html, "spill-reports-late") == "0"
    assert "No spill report is late or due this week." in html


def test_it_lists_overdue_segment_cleanings_with_a_link_to_the_segment(alice):
    segment = overdue_segment(Agency.objects.get(pack="san-clemente"))
    html = alice.get("/dashboard/?as_of=2025-06-10").content.decode()
    assert count(html, "cleanings-overdue") == "1"
    table = html.split('id="dashboard-cleanings"', 1)[1].split("</table>", 1)[0]
    assert f'<a href="/registry/segments/{segment.pk}/">MH-12-MH-13</a>' in table
    assert "2025-04-06" in table and "2025-01-06" in table


def test_it_shows_the_same_figures_from_the_sweeps_row_as_counted_afresh(alice):
    from fogkeeper.compliance.models import DashboardFigures

    san_clemente_case(FoodServiceEstablishment.objects.get(code="FSE-0042"))
    sc = Agency.objects.get(code="san-clemente")
    assert DashboardFigures.objects.filter(agency=sc, as_of=AS_OF).exists()
    stored = alice.get(f"/dashboard/?as_of={AS_OF}").content.decode()
    DashboardFigures.objects.filter(agency=sc).delete()
    counted = alice.get(f"/dashboard/?as_of={AS_OF}").content.decode()
    assert stored.split('id="now-heading"')[1] == counted.split('id="now-heading"')[1]
