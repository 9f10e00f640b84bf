"""The staff inbox: what operators and haulers file, newest first, with who filed it."""
# ruff: noqa: F811 (the portal's fixtures, imported, are the tests' arguments)

from datetime import timedelta

import pytest
import time_machine
from django.test import Client

from fogkeeper.maintenance.services import service_record, service_submit
from fogkeeper.permits.models import PermitApplication
from fogkeeper.registry.models import GreaseControlDevice, Hauler, Operator, ServiceContract
from fogkeeper.training.models import Employee
from fogkeeper.training.services import training_record
from fogkeeper.web.common.selectors import counts
from fogkeeper.web.inbox.selectors import recent, recent_count_sql
from tests.portal.conftest import member, olive, today, world  # noqa: F401 (fixtures)
from tests.records import d
from tests.web.people import make_user

pytestmark = pytest.mark.django_db

APPLY = "/portal/operator/FSE-0042/permit-application/"
APPLICATION = {
    "kind": "new",
    "applicant_name": "Harbor Eats Inc",
    "applicant_address": "9 Wharf Rd, San Clemente",
    "emergency_contact_name": "Rosa Diaz",
    "emergency_contact_phone": "949-555-0101",
}


@pytest.fixture
def manager(world):
    client = Client()
    client.force_login(make_user("mona", world.sc, role="manager"))
    return client


@pytest.fixture
def hank(world):
    coastal = Hauler.objects.get(code="FSE-0042-H1")
    ServiceContract.objects.create(hauler=coastal, establishment=world.pier, since=d("2011-01-01"))
    return member("hank", world.sc, "hauler", hauler=coastal)


def file_application(olive):
    client = Client()
    client.force_login(olive)
    assert client.post(APPLY, APPLICATION).status_code == 302


def file_training(world, olive, code="T-9"):
    ana = Employee.objects.get(name="Ana Ruiz")
    return training_record(
        establishment=world.pier, code=code, date=d("2025-06-20"), attendees=[ana], actor=olive
    )


def submit_pump_out(world, hank, manifest="CP-900"):
    trap = GreaseControlDevice.objects.get(establishment=world.pier, code="GT-2")
    service, _ = service_submit(
        hauler=hank.memberships.get().hauler,
        device=trap,
        manifest_number=manifest,
        date=d("2025-06-20"),
        source="hauler_form",
        today=d("2025-06-30"),
        actor=hank,
        full_pump_out=True,
    )
    return service


def rows(response):
    return [(r.kind, r.who, r.business) for r in response.context["rows"]]


def test_it_lists_what_operators_and_haulers_filed_newest_first_with_who(
    manager, world, olive, hank, today
):
    file_application(olive)
    with time_machine.travel("2025-06-30 13:00 -07:00", tick=False):
        file_training(world, olive)
    with time_machine.travel("2025-06-30 14:00 -07:00", tick=False):
        submit_pump_out(world, hank)
    response = manager.get("/inbox/")
    assert rows(response) == [
        ("service", "hank", "Coastal Pumping"),
        ("training", "olive", "Harbor Eats Inc"),
        ("application", "olive", "Harbor Eats Inc"),
    ]
    assert {r.establishment.code for r in response.context["rows"]} == {"FSE-0042"}


def test_it_links_each_row_to_the_records_page(manager, world, olive, today):
    file_application(olive)
    url = manager.get("/inbox/").context["rows"][0].url
    application = PermitApplication.objects.get(establishment=world.pier)
    assert url == f"/permits/applications/{application.pk}/"
    assert manager.get(url).status_code == 200


def record_as_staff(world) -> None:
    """A pump-out an inspector records: not something filed."""
    trap = GreaseControlDevice.objects.get(establishment=world.pier, code="GT-2")
    service_record(
        device=trap,
        hauler=Hauler.objects.get(code="FSE-0042-H1"),
        manifest_number="M-77",
        date=d("2025-06-20"),
        agency=world.sc,
        actor=make_user("ivan", world.sc),
    )


def test_it_leaves_out_what_staff_recorded(manager, world, today):
    record_as_staff(world)
    assert rows(manager.get("/inbox/")) == []
    assert "Nothing filed." in manager.get("/inbox/").content.decode()


def test_it_filters_by_kind(manager, world, olive, hank, today):
    file_application(olive)
    submit_pump_out(world, hank)
    assert rows(manager.get("/inbox/?kind=service")) == [("service", "hank", "Coastal Pumping")]
    assert len(rows(manager.get("/inbox/?kind=nonsense"))) == 2


def test_it_shows_nothing_another_agency_received(world, olive, today):
    file_application(olive)
    town = Client()
    town.force_login(make_user("tess", world.town, role="manager"))
    assert rows(town.get("/inbox/")) == []


def test_it_pages_twenty_five_at_a_time(manager, world, hank, today):
    for n in range(27):
        submit_pump_out(world, hank, manifest=f"CP-{n}")
    first = manager.get("/inbox/")
    assert len(first.context["rows"]) == 25
    assert len(manager.get("/inbox/?page=2").context["rows"]) == 2


def test_it_counts_the_last_seven_days_in_the_nav(manager, world, olive, today):
    file_application(olive)
    assert recent(agency=world.sc, today=today).count() == 1
    assert recent(agency=world.sc, today=today + timedelta(days=7)).count() == 0
    html = manager.get("/dashboard/?as_of=2025-06-30").content.decode()
    assert 'id="nav-inbox">Inbox <span class="usa-tag">1<' in html


def test_the_nav_counts_in_sql_what_the_inbox_lists(manager, world, olive, hank, today):
    """recent_count_sql, the nav's count made from SOURCES, counts what recent() lists: an
    operator's application and a hauler's pump-outs, not what staff recorded, not another
    agency's, within the last seven days."""
    file_application(olive)
    submit_pump_out(world, hank)
    submit_pump_out(world, hank, manifest="CP-901")
    record_as_staff(world)
    for agency in (world.sc, world.town):
        for day in (today, today + timedelta(days=6), today + timedelta(days=7)):
            listed = recent(agency=agency, today=day).count()
            counted = counts(filed=recent_count_sql(agency=agency, today=day))["filed"]
            assert counted == listed, (agency.code, day)
    assert counts(filed=recent_count_sql(agency=world.sc, today=today))["filed"] == 3


def test_it_answers_404_to_an_operator(world, olive, today):
    client = Client()
    client.force_login(olive)
    assert client.get("/inbox/").status_code == 404


def test_every_staff_role_reads_it(world, today):
    for role in ("manager", "inspector", "clerk", "auditor"):
        client = Client()
        client.force_login(make_user(role, world.sc, role=role))
        assert client.get("/inbox/").status_code == 200


def test_it_refuses_to_be_written_to(manager, world, today):
    assert manager.post("/inbox/").status_code == 405
    assert Operator.objects.filter(agency=world.sc).exists()
