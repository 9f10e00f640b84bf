"""The operator's page of an establishment with a long history (issue 15, item 7): each long
list (pump-outs, inspections) shows its most recent rows a page at a time, in a number of
queries that does not grow with the history."""

from datetime import date, timedelta

import pytest

from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import GreaseControlDevice

from .conftest import PIER

pytestmark = pytest.mark.django_db

SERVICES = 3000


@pytest.fixture
def busy(world, as_olive):
    device = GreaseControlDevice.objects.get(establishment=world.pier, code="GI-1")
    first = date(2025, 6, 29) - timedelta(days=SERVICES - 1)  # the last the day before
    Service.objects.bulk_create(
        Service(device=device, manifest_number=f"B-{n:05}", date=first + timedelta(days=n))
        for n in range(SERVICES)
    )
    return as_olive


def test_it_shows_the_most_recent_pump_outs_a_page_at_a_time(busy, django_assert_max_num_queries):
    with django_assert_max_num_queries(50):
        html = busy.get(PIER).content.decode()
    services = html.split('<table id="services">', 1)[1].split("</table>", 1)[0]
    assert services.count("<tr><td>") == 25
    assert "B-02999" in services and "B-02950" not in services
    assert "Pump-outs 1 to 25 of 3,0" in services  # the demo's own pump-outs among them
    assert 'href="?services_page=2"' in html


def test_a_later_page_shows_older_pump_outs(busy):
    html = busy.get(f"{PIER}?services_page=2").content.decode()
    services = html.split('<table id="services">', 1)[1].split("</table>", 1)[0]
    assert "Pump-outs 26 to 50 of" in services
    assert "B-02950" in services and "B-02999" not in services
