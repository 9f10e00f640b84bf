"""The audit trail page (/audit/) and an establishment's own trail: the manager's and the
auditor's, filtered by who, kind of change, record and days, with what each row changed,
exported with the same filters; never another agency's rows; read-only."""

import csv
import io
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook

from fogkeeper.audit.models import AuditEvent
from fogkeeper.audit.services import audit_record, snapshot
from fogkeeper.web.models import Membership
from tests.records import make_device, make_establishment, make_permit
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

LA = ZoneInfo("America/Los_Angeles")


def on(event: AuditEvent, day: str) -> AuditEvent:
    """Place a row on a day (noon, Pacific time) of the test's choosing."""
    at = datetime.fromisoformat(f"{day}T12:00").replace(tzinfo=LA)
    AuditEvent.objects.filter(pk=event.pk).update(at=at)
    return event


@pytest.fixture
def world():
    sc, town = two_agencies()
    mona = make_user("mona", sc, role="manager")
    mona.first_name, mona.last_name = "Mona", "Reyes"
    mona.save()
    audrey = make_user("audrey", sc, role="auditor")
    pier = make_establishment(sc, code="SC-1", name="Pier Taqueria")
    dock = make_establishment(sc, code="SC-2", name="Dock Grill")
    permit = make_permit(pier, "DP-1", holder="Pier Foods LLC")
    before = snapshot(permit)
    permit.holder = "Harbor Group"
    permit.save()
    on(audit_record(action="permit.issue", obj=permit, actor=mona, before=None), "2026-03-02")
    on(audit_record(action="permit.modify", obj=permit, actor=mona, before=before), "2026-04-10")
    on(audit_record(action="device.install", obj=make_device(dock), actor=mona), "2026-04-11")
    on(
        audit_record(action="ciwqs.import", obj=sc, agency=sc, reason='=HYPERLINK("x")'),
        "2026-04-12",
    )
    charlie = make_user("charlie", town, role="manager")
    diner = make_establishment(town, code="T-1", name="Town Diner")
    on(
        audit_record(action="permit.issue", obj=make_permit(diner, "FP-9"), actor=charlie),
        "2026-04-10",
    )
    for made in AuditEvent.objects.filter(action="membership.create"):  # the people, made first
        on(made, "2026-01-05")
    return {"sc": sc, "mona": mona, "audrey": audrey, "pier": pier, "dock": dock}


def page(client, user, url="/audit/", **query):
    client.force_login(user)
    return client.get(url, query)


def actions(response) -> list[str]:
    return [row["event"].action for row in response.context["rows"]]


def test_it_shows_the_auditor_every_row_of_the_agency_newest_first(client, world):
    response = page(client, world["audrey"])
    assert response.status_code == 200
    assert actions(response) == [
        "ciwqs.import",
        "device.install",
        "permit.modify",
        "permit.issue",
        "membership.create",
        "membership.create",
    ]
    assert "FP-9" not in response.content.decode() and "Town Diner" not in response.content.decode()


def test_it_filters_by_who(client, world):
    mine = page(client, world["audrey"], who=world["mona"].pk)
    assert actions(mine) == ["device.install", "permit.modify", "permit.issue"]
    by_system = ["ciwqs.import", "membership.create", "membership.create"]
    assert actions(page(client, world["audrey"], who="system")) == by_system
    assert "Mona Reyes" in mine.content.decode()


def test_it_refuses_a_person_of_another_agency(client, world):
    charlie = AuditEvent.objects.exclude(agency=world["sc"]).get(action="permit.issue").actor
    response = page(client, world["audrey"], who=charlie.pk)
    assert response.status_code == 400
    assert 'id="id_who_error"' in response.content.decode()


def test_it_filters_by_kind_of_change(client, world):
    response = page(client, world["audrey"], kind="permit")
    assert actions(response) == ["permit.modify", "permit.issue"]
    assert "Changed a Discharge Permit DP-1 of Pier Taqueria (SC-1)" in response.content.decode()


def test_it_filters_by_record_type_and_by_an_establishments_code_or_an_id(client, world):
    device = AuditEvent.objects.get(action="device.install")
    by_type = page(client, world["audrey"], object_type="registry.greasecontroldevice")
    assert actions(by_type) == ["device.install"]
    assert actions(page(client, world["audrey"], record="sc-1")) == [
        "permit.modify",
        "permit.issue",
    ]
    # an id is a record's of one type: records of other types may share it
    by_id = page(client, world["audrey"], object_type=device.object_type, record=device.object_id)
    assert actions(by_id) == ["device.install"]


def test_it_filters_by_days_both_ends_included(client, world):
    response = page(client, world["audrey"], date_from="2026-04-10", date_to="2026-04-11")
    assert actions(response) == ["device.install", "permit.modify"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"date_from": "2026-04-12", "date_to": "2026-04-10"}, "date_to"),
        ({"date_from": "2026-02-30"}, "date_from"),
        ({"date_to": "2026-13-01"}, "date_to"),  # a year out of range is refused at the edge
    ],
)
def test_it_refuses_an_impossible_or_reversed_range_on_its_field(client, world, query, field):
    response = page(client, world["audrey"], **query)
    assert response.status_code == 400
    assert f'id="id_{field}_error"' in response.content.decode()
    assert response.context["rows"] == []


def test_it_shows_the_fields_a_change_changed_old_and_new(client, world):
    response = page(client, world["audrey"], kind="permit")
    modify, issue = response.context["rows"]
    assert [(c.field, c.old, c.new) for c in modify["changes"]] == [
        ("Holder", "Pier Foods LLC", "Harbor Group")
    ]
    assert "Pier Foods LLC → Harbor Group" in response.content.decode()
    assert {"Number", "Holder", "Issued on"} <= {c.field for c in issue["changes"]}


def test_it_links_the_record_to_its_establishment(client, world):
    html = page(client, world["audrey"], kind="device").content.decode()
    assert 'href="/establishments/SC-2/"' in html


def test_it_exports_what_it_shows_as_csv_with_a_formula_neutralised(client, world):
    response = page(client, world["audrey"], export="csv", date_from="2026-04-11")
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["Action"] for r in rows] == ["ciwqs.import", "device.install"]
    assert rows[0]["Reason"] == '\'=HYPERLINK("x")' and rows[0]["Who"] == "The system"
    assert rows[1]["Establishment"] == "SC-2" and '"code": "GI-1"' in rows[1]["After"]
    assert "T-1" not in text and "FP-9" not in text


def test_it_exports_an_excel_workbook(client, world):
    response = page(client, world["audrey"], export="xlsx", kind="permit")
    book = load_workbook(io.BytesIO(b"".join(response.streaming_content)), read_only=True)
    rows = list(book["Audit trail"].values)
    assert rows[0][:4] == ("When", "Who", "What", "Action")
    assert [r[3] for r in rows[1:]] == ["permit.modify", "permit.issue"]


def test_it_refuses_to_export_with_a_refused_filter(client, world):
    response = page(client, world["audrey"], export="csv", date_from="2026-13-01")
    assert response.status_code == 400 and b"From: give a real date" in response.content


def test_an_establishments_trail_holds_only_its_rows_and_exports_them(client, world):
    response = page(client, world["audrey"], "/establishments/SC-1/audit/")
    assert actions(response) == ["permit.modify", "permit.issue"]
    exported = page(client, world["audrey"], "/establishments/SC-1/audit/", export="csv")
    assert exported["Content-Disposition"].endswith('"san-clemente-SC-1-audit-trail.csv"')
    assert b"device.install" not in b"".join(exported.streaming_content)


def test_another_agencys_establishment_has_no_trail_here(client, world):
    assert page(client, world["audrey"], "/establishments/T-1/audit/").status_code == 404


def test_the_establishment_page_links_its_trail_for_those_who_may_read_it(client, world):
    link = 'href="/establishments/SC-1/audit/"'
    assert link in page(client, world["audrey"], "/establishments/SC-1/").content.decode()
    ines = make_user("ines", world["sc"])
    assert link not in page(client, ines, "/establishments/SC-1/").content.decode()


@pytest.mark.parametrize("role", ["inspector", "clerk"])
def test_other_staff_may_not_read_the_trail(client, world, role):
    person = make_user(role, world["sc"], role=role)
    assert page(client, person).status_code == 403
    assert page(client, person, "/establishments/SC-1/audit/").status_code == 403


def test_an_operator_finds_no_trail(client, world):
    olga = make_user("olga")
    operator = world["pier"].current_tenure().operator
    Membership.objects.create(user=olga, agency=world["sc"], role="operator", operator=operator)
    assert page(client, olga).status_code == 404
    assert page(client, olga, "/establishments/SC-1/audit/").status_code == 404


def test_nobody_writes_here(client, world):
    client.force_login(world["mona"])
    count = AuditEvent.objects.count()
    assert client.post("/audit/").status_code == 405
    assert client.post("/establishments/SC-1/audit/").status_code == 405
    assert AuditEvent.objects.count() == count


def test_it_says_so_when_nothing_matches(client, world):
    response = page(client, world["audrey"], record="nothing-such")
    assert "No audit row matches these filters." in response.content.decode()


def test_it_shows_a_deleted_records_fields_and_children(client, world):
    device = AuditEvent.objects.get(action="device.install")
    before = {**device.after, "measurements": [{"value": "3.5"}]}
    audit_record(action="device.delete", obj=world["dock"].devices.get(), before=before, after=None)
    (row,) = page(client, world["audrey"], kind="device", record="SC-2").context["rows"][:1]
    assert row["deleted"]
    assert ("Measurements", '[{"value": "3.5"}]') in [(c.field, c.old) for c in row["technical"]]


def test_a_row_says_what_happened_in_words_with_the_internals_folded_away(client, world):
    """Issue 39: rows read "Establishment: 128", "Errors: []", "Timings: {…}"; now a sentence
    names the record by its code and establishment, a foreign key by the record it names, and
    the ids, identifiers and raw data are under the row's technical details."""
    device = world["dock"].devices.get() if world["dock"].devices.exists() else None
    html = page(client, world["audrey"], kind="device").content.decode()
    (row,) = page(client, world["audrey"], kind="device").context["rows"]
    assert row["sentence"] == "Installed a grease control device GI-1 of Dock Grill (SC-2)"
    shown = {c.field: c.new for c in row["changes"]}
    assert shown["Establishment"] == "Dock Grill (SC-2)"  # not its database id
    assert shown["Kind"] == "interceptor"
    assert "Id" not in shown and str(device.pk) not in shown.values()
    technical = html.split("<details", 1)[1].split("</details>", 1)[0]
    assert "<summary>Technical details</summary>" in technical and "device.install" in technical
    assert "device.install" not in html.replace(technical, "").split('id="audit"', 1)[1]


def test_a_runs_data_is_folded_away_not_shown_as_a_change(client, world):
    run = AuditEvent.objects.create(
        action="sweep.start",
        object_type="compliance.sweeprun",
        object_id="7",
        agency=world["sc"],
        after={"errors": [], "timings": {"load": 0.1}, "as_of": "2026-11-30"},
    )
    on(run, "2026-04-13")
    (row,) = page(client, world["audrey"], kind="sweep").context["rows"]
    assert [c.field for c in row["changes"]] == ["As of"]
    assert {c.field for c in row["technical"]} == {"Errors", "Timings"}
    assert row["sentence"].startswith("Started a sweep run")


def test_a_packs_value_is_shown_in_words():
    from fogkeeper.audit.selectors import value_words

    assert value_words("limited_food_preparation") == "limited food preparation"
    assert value_words("Pier Foods LLC") == "Pier Foods LLC"
