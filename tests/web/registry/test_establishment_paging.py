"""An establishment with a long history (issue 15, item 7: one with 159,704 pump-outs took
67 s): its staff page shows the most recent rows of each long list, a page at a time, with
a link to the rest, in a number of queries that does not grow with the history."""

from datetime import date, timedelta

import pytest
from django.urls import reverse

from fogkeeper.maintenance.models import Service
from tests.records import make_device, make_establishment, make_inspection, make_training
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

SERVICES = 3000


@pytest.fixture
def busy(client):
    sc, _town = two_agencies()
    fse = make_establishment(sc, code="FSE-1", name="Busy Diner", opened_on="2000-01-01")
    device = make_device(fse, "GI-1", installed_on="2000-01-01")
    first = date(2010, 1, 1)
    Service.objects.bulk_create(
        Service(device=device, manifest_number=f"M-{n:05}", date=first + timedelta(days=n))
        for n in range(SERVICES)
    )
    for n in range(30):
        make_inspection(fse, f"I-{n:02}", (first + timedelta(days=100 * n)).isoformat())
    make_training(fse, "T-1", "2012-01-01", [])
    client.force_login(make_user("ivy", sc))
    return client


def test_it_shows_the_most_recent_rows_and_links_all_the_pump_outs(
    busy, django_assert_max_num_queries
):
    with django_assert_max_num_queries(60):
        html = busy.get("/establishments/FSE-1/").content.decode()
    timeline = html.split('id="timeline"', 1)[1].split("</table>", 1)[0]
    assert timeline.count("pumped out") == 25
    assert "M-02999" in timeline and "M-02974" not in timeline
    assert "Records 1 to 25 of 3,031, newest first" in timeline
    assert 'href="?timeline_page=2"' in html
    assert 'href="/pump-outs/?establishment=FSE-1">All 3,000 pump-outs of Busy Diner' in html
    assert "the 25 most recent of 3,000" in html


def test_the_timeline_as_of_a_day_stops_there_and_its_pages_keep_the_day(busy):
    html = busy.get("/establishments/FSE-1/?as_of=2014-01-01").content.decode()
    timeline = html.split('id="timeline"', 1)[1].split("</table>", 1)[0]
    assert "M-01461" in timeline and "M-01462" not in timeline  # 1 January 2014 and after
    assert 'href="?as_of=2014-01-01&amp;timeline_page=2"' in html
    second = busy.get("/establishments/FSE-1/?as_of=2014-01-01&timeline_page=2")
    assert "Records 26 to 50 of" in second.content.decode()


def test_the_inspections_are_shown_a_page_at_a_time_with_a_link_to_all(busy):
    html = busy.get("/establishments/FSE-1/").content.decode()
    inspections = html.split('id="inspections"', 1)[1].split("</section>", 1)[0]
    assert inspections.count("<strong>") == 25
    assert "inspection I-29" in inspections and "inspection I-04<" not in inspections
    assert 'href="?inspections_page=2"' in inspections
    assert 'id="all-inspections">All 30 inspections of Busy Diner' in inspections


def test_the_list_of_pump_outs_filters_to_the_establishments_code_exactly(busy):
    fse = make_establishment(
        Service.objects.first().device.establishment.agency, code="FSE-10", name="Other"
    )
    Service.objects.create(device=make_device(fse), manifest_number="X-1", date=date(2020, 1, 1))
    page = busy.get("/pump-outs/?establishment=FSE-1").context["page"]
    assert page.paginator.count == SERVICES


def test_the_device_page_shows_its_pump_outs_a_page_at_a_time(busy):
    device = Service.objects.first().device
    html = busy.get(reverse("web:device", args=["FSE-1", device.pk])).content.decode()
    services = html.split('id="services"', 1)[1].split("</table>", 1)[0]
    assert services.count("<tr><td>") == 25 and "M-02999" in services
    assert 'href="?services_page=2"' in html
