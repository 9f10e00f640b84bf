from decimal import Decimal

import pytest

from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import Letter
from fogkeeper.inspections.models import Inspection, Measurement
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.rules.packs import Parameter, ParameterValue
from tests.compliance.records import AS_OF, make_pier_taqueria
from tests.records import d, make_establishment
from tests.web.enforcement import san_clemente_case
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture
def agencies():
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    sweep_agency(sc, as_of=AS_OF)
    return sc, town


def test_it_shows_open_findings_with_citation_and_since_date(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/establishments/FSE-0042/").content.decode()
    row = html.split('<th scope="row">Pump-out overdue</th>', 1)[1].split("</tr>", 1)[0]
    assert "<td>GT-2</td>" in row
    assert "<td>2020-06-01</td>" in row
    assert "<td>13.30.050(H)(1)(b)</td>" in row


def test_it_shows_status_schedule_devices_and_timeline(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.get("/establishments/FSE-0042/")
    html = response.content.decode()
    assert "Not in compliance as of 2025-06-30" in html
    assert '<th scope="row">Annual Restaurant Grease Inspection</th>' in html
    assert "<caption>Accumulation readings of GI-1</caption>" in html
    timeline = response.context["establishment_page"].timeline
    assert timeline[0]["date"] >= timeline[-1]["date"]
    assert "No enforcement case." in html


def test_it_answers_404_for_another_agencys_establishment(client, agencies):
    sc, town = agencies
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("alice", sc))
    assert client.get("/establishments/T-1/").status_code == 404


def test_it_answers_404_for_an_unknown_code(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    assert client.get("/establishments/NOPE/").status_code == 404


def test_it_names_the_schedule_in_the_packs_words_with_the_citation(client, agencies):
    sc, town = agencies
    make_pier_taqueria(town, code="T-0042")
    sweep_agency(town, as_of=AS_OF)
    client.force_login(make_user("bob", sc, town))
    html = client.get("/establishments/FSE-0042/").content.decode()
    schedule = html.split('id="schedule"', 1)[1].split("</table>", 1)[0]
    assert '<th scope="row">Pump-out of the grease control device</th><td>GT-2</td>' in schedule
    assert '<th scope="row">Annual Restaurant Grease Inspection</th>' in schedule
    assert "<td>13.30.050(M)</td>" in schedule
    client.post("/agency/switch/", {"agency": town.code})
    html = client.get("/establishments/T-0042/").content.decode()
    assert '<th scope="row">Cleaning of the grease control device</th>' in html


def charts(response) -> dict[str, dict]:
    return {c["device"]: c for c in response.context["charts"]}


def test_it_charts_each_devices_accumulation_as_a_share_of_its_depth(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.get(f"/establishments/FSE-0042/?as_of={AS_OF}")
    gi = charts(response)["GI-1"]
    assert [(p["date"], p["percent"]) for p in gi["points"]] == [
        ("2025-02-11", 17.2),  # (3 + 5.25) / 48
        ("2025-03-02", 21.9),  # (4 + 6.5) / 48
    ]
    assert (gi["limit"], gi["citation"]) == (25.0, "13.30.040(C)(6)")
    html = response.content.decode()
    assert '<script id="accumulation-data" type="application/json">' in html
    assert '<canvas id="accumulation-' in html and "web/accumulation.js" in html
    assert "<caption>Accumulation readings of GI-1</caption>" in html  # the table stays


def test_it_reads_the_limit_from_the_pack_in_force(client, agencies, monkeypatch):
    pack = agencies[0].get_pack()
    limit = pack.parameters["gcd.accumulation_limit"]
    raised = ParameterValue(d("2025-06-01"), 0.3, "Ord. 9999")
    monkeypatch.setitem(
        pack.parameters,
        "gcd.accumulation_limit",
        Parameter(limit.name, limit.description, (*limit.values, raised)),
    )
    client.force_login(make_user("alice", agencies[0]))
    before = charts(client.get("/establishments/FSE-0042/?as_of=2025-05-31"))["GI-1"]
    after = charts(client.get("/establishments/FSE-0042/?as_of=2025-06-01"))["GI-1"]
    assert (before["limit"], after["limit"], after["citation"]) == (25.0, 30.0, "Ord. 9999")


def test_it_draws_the_limit_only_for_the_devices_the_pack_applies_it_to(client, agencies):
    sc, town = agencies
    for agency, code in ((sc, "FSE-0042"), (town, "T-0042")):
        if agency == town:
            make_pier_taqueria(town, code="T-0042")
        trap = GreaseControlDevice.objects.get(establishment__code=code, code="GT-2")
        trap.design_depth_inches = Decimal("10")
        trap.save()
        Measurement.objects.create(
            inspection=Inspection.objects.get(establishment__code=code, code="I-55"),
            device=trap,
            fog_inches=Decimal("1"),
            solids_inches=Decimal("2"),
        )
    client.force_login(make_user("bob", sc, town))
    assert charts(client.get("/establishments/FSE-0042/"))["GT-2"]["limit"] is None
    client.post("/agency/switch/", {"agency": town.code})
    assert charts(client.get("/establishments/T-0042/"))["GT-2"]["limit"] == 25.0


def test_it_links_the_cases_and_their_letters(client, agencies):
    san_clemente_case(FoodServiceEstablishment.objects.get(code="FSE-0042"))
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/establishments/FSE-0042/").content.decode()
    assert '<li><a href="/cases/FSE-0042/EC-7/">Case EC-7</a>, opened 2025-03-01.</li>' in html
    letter = Letter.objects.get(action__code="NNC-1")
    assert (
        f'<a href="/letters/{letter.pk}.pdf" download>Notice of Non-Compliance (NNC-1), PDF' in html
    )


def test_it_shows_each_inspections_failed_items_in_the_packs_words_with_the_note(client, agencies):
    from fogkeeper.inspections.models import ChecklistAnswer

    failed = ChecklistAnswer.objects.filter(
        inspection__establishment__code="FSE-0042", compliant=False
    ).first()
    failed.note = "Screen missing at the prep sink"
    failed.save()
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/establishments/FSE-0042/").content.decode()
    item = agencies[0].get_pack().checklist[failed.item]
    section = html.split('id="inspections"', 1)[1].split("</section>", 1)[0]
    assert item.finding in section and item.question not in section  # what was found
    assert "Inspector's note:</span> Screen missing at the prep sink" in section
    assert failed.item not in html


def test_it_shows_the_establishment_as_the_engine_sees_it_on_the_day_asked(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.get("/establishments/FSE-0042/?as_of=2025-01-05")
    html = response.content.decode()
    assert "as of 2025-01-05" in html
    rules = {row["finding"].rule for row in response.context["establishment_page"].findings}
    assert "bmp.drain_screens" not in rules and "gcd.service_overdue" in rules
    assert (
        '<input class="usa-input" type="date" id="as-of" name="as_of" value="2025-01-05">' in html
    )


def test_it_keeps_the_day_asked_in_the_links_of_the_page(client, agencies):
    san_clemente_case(FoodServiceEstablishment.objects.get(code="FSE-0042"))
    client.force_login(make_user("alice", agencies[0]))
    html = client.get("/establishments/FSE-0042/?as_of=2025-06-30").content.decode()
    assert '<a href="/cases/FSE-0042/EC-7/?as_of=2025-06-30">Case EC-7</a>' in html


def test_it_shows_today_with_a_message_for_an_impossible_day(client, agencies):
    client.force_login(make_user("alice", agencies[0]))
    response = client.get("/establishments/FSE-0042/?as_of=2026-02-30")
    assert response.status_code == 200
    assert "“2026-02-30” is not a date (YYYY-MM-DD)" in response.content.decode()
