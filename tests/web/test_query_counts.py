"""Each of the four busiest staff pages runs the same queries for a small agency as for a
larger one: what grows with the agency is counted and ranked by the database."""

import pytest

from fogkeeper.compliance.runs import sweep_agency
from tests.compliance.records import AS_OF
from tests.pages import queries
from tests.records import (
    make_device,
    make_establishment,
    make_incident,
    make_inspection,
    make_permit,
    make_service,
    make_training,
)
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

PAGES = [
    "/dashboard/?as_of=2025-06-30",
    "/establishments/?status=non_compliant&as_of=2025-06-30",
    "/establishments/FSE-000/?as_of=2025-06-30",
    "/inspections/field/?as_of=2025-06-30",
]


def add(agency, start: int, stop: int) -> None:
    """Establishments with a permit, a device pumped out, an inspection, some an overflow,
    a few already due for their annual inspection; then the agency is swept."""
    for i in range(start, stop):
        fse = make_establishment(agency, code=f"FSE-{i:03}", name=f"Place {i:03}")
        make_permit(fse, f"DP-{i}", issued_on="2024-01-01", expires_on="2025-08-31")
        device = make_device(fse, "GI-1")
        make_service(device, f"M-{i}", "2025-03-01")
        make_inspection(fse, f"I-{i}", "2024-06-25" if i % 3 else "2024-07-03")
        if i % 2:
            make_incident(fse, f"SSO-{i}", "2025-06-20", kind="overflow", attributed=True)
    sweep_agency(agency, as_of=AS_OF)


@pytest.mark.parametrize("url", PAGES)
def test_it_runs_the_same_queries_for_3_as_for_40_establishments(client, url):
    sc, _ = two_agencies()
    client.force_login(make_user("alice", sc))
    add(sc, 0, 3)
    few = queries(client, url)
    add(sc, 3, 40)
    assert queries(client, url) == few


STAFF_PAGE_QUERIES = 15  # issue 41: no staff page over 15 queries, the chrome's 5 included


def test_the_dashboard_of_the_swept_day_reads_its_stored_figures_in_15_queries(client):
    sc, _ = two_agencies()
    client.force_login(make_user("alice", sc))
    add(sc, 0, 40)
    assert queries(client, "/dashboard/?as_of=2025-06-30") <= STAFF_PAGE_QUERIES


def busy_history(fse, device, start: int, stop: int) -> None:
    """A year of records of each kind the establishment's page shows, per `i`."""
    for i in range(start, stop):
        year = 2000 + i
        make_permit(fse, f"DP-{i}", issued_on=f"{year}-01-01", expires_on=f"{year}-12-31")
        make_service(device, f"M-{i}", f"{year}-03-01", fog_inches=1, solids_inches=2)
        make_inspection(
            fse,
            f"I-{i}",
            f"{year}-06-25",
            answers=[("bmp_posted", False)],
            measurements=[(device, {"fog_inches": 2, "solids_inches": 3})],
        )
        make_incident(fse, f"SSO-{i}", f"{year}-07-01", kind="overflow", attributed=True)
        make_training(fse, f"T-{i}", f"{year}-09-01", [])


def test_the_establishment_page_makes_at_most_15_queries_however_long_its_history(client):
    sc, _ = two_agencies()
    client.force_login(make_user("alice", sc))
    fse = make_establishment(sc, code="FSE-1", name="Busy Diner", opened_on="1999-01-01")
    device = make_device(fse, "GI-1", installed_on="1999-01-01", design_depth_inches=30)
    busy_history(fse, device, 0, 2)
    sweep_agency(sc, as_of=AS_OF)
    few = queries(client, "/establishments/FSE-1/")
    busy_history(fse, device, 2, 26)
    sweep_agency(sc, as_of=AS_OF)
    assert queries(client, "/establishments/FSE-1/") == few <= STAFF_PAGE_QUERIES
    paged = "/establishments/FSE-1/?timeline_page=2&inspections_page=2"
    assert queries(client, paged) <= STAFF_PAGE_QUERIES
