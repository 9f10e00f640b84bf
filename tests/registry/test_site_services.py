"""The registry services behind the staff pages: each write has its audit row, each refusal
names its field and writes nothing."""

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import (
    FoodServiceEstablishment,
    Lateral,
    OperationChange,
    Operator,
    Parcel,
    PropertyOwner,
    SewerSegment,
)
from fogkeeper.registry.places import (
    lateral_add,
    lateral_remove,
    owner_register,
    parcel_register,
    parcel_update,
    segment_register,
    segment_update,
)
from fogkeeper.registry.selectors import change_notice
from fogkeeper.registry.services import (
    establishment_close,
    establishment_register,
    establishment_reopen,
    establishment_update,
    operation_change_record,
    operator_register,
    operator_update,
)
from tests.records import make_establishment
from tests.web.people import two_agencies

pytestmark = pytest.mark.django_db

TODAY = date(2026, 12, 1)


@pytest.fixture
def agencies():
    return two_agencies()


def refused(call, **kw) -> dict:
    """The refusal's messages by field, checking that nothing was written."""
    counts = [m.objects.count() for m in (FoodServiceEstablishment, Operator, AuditEvent)]
    with pytest.raises(ValidationError) as e:
        call(**kw)
    assert [m.objects.count() for m in (FoodServiceEstablishment, Operator, AuditEvent)] == counts
    return e.value.message_dict


def register(agency, **kw):
    fields = {
        "code": "FSE-9",
        "name": "Dana Point Deli",
        "address": "1 Main St",
        "opened_on": date(2026, 1, 5),
        "operator": "Deli Co",
        "today": TODAY,
    }
    return establishment_register(agency=agency, **{**fields, **kw})


def test_it_registers_an_establishment_with_a_new_operator_and_audits_both(agencies):
    fse = register(agencies[0])
    assert fse.current_tenure().operator.name == "Deli Co"
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"establishment.register", "operator.register", "tenure.open"} <= actions


def test_it_refuses_a_code_already_used_in_the_agency_naming_the_code(agencies):
    register(agencies[0])
    assert "code" in refused(register, agency=agencies[0], operator="Other Co")


def test_it_allows_the_same_code_in_another_agency(agencies):
    register(agencies[0])
    assert register(agencies[1]).agency == agencies[1]


def test_it_refuses_an_opening_in_the_future(agencies):
    errors = refused(register, agency=agencies[0], opened_on=date(2027, 1, 1))
    assert errors["opened_on"] == ["2027-01-01 is in the future (today is 2026-12-01)."]


def test_it_refuses_another_agencys_parcel(agencies):
    sc, town = agencies
    parcel = Parcel.objects.create(agency=town, apn="T-1", address="2 Elm")
    assert "parcel" in refused(register, agency=sc, parcel=parcel)


def test_it_refuses_a_latitude_off_the_globe(agencies):
    errors = refused(register, agency=agencies[0], latitude=95, longitude=-117)
    assert "latitude" in errors


def test_it_edits_an_establishment_with_before_and_after_in_the_audit(agencies):
    fse = make_establishment(agencies[0])
    assert establishment_update(establishment=fse, today=TODAY, name="Pier Cantina")
    event = AuditEvent.objects.get(action="establishment.update")
    assert (event.before["name"], event.after["name"]) == ("Pier Taqueria", "Pier Cantina")


def test_an_unchanged_edit_writes_no_audit_row(agencies):
    fse = make_establishment(agencies[0])
    assert not establishment_update(establishment=fse, today=TODAY, name=fse.name)
    assert not AuditEvent.objects.exists()


def test_an_edit_refused_leaves_the_record_as_it_was(agencies):
    fse = make_establishment(agencies[0])
    errors = refused(
        establishment_update, establishment=fse, today=TODAY, name="X", opened_on=date(2027, 1, 1)
    )
    assert "opened_on" in errors
    fse.refresh_from_db()
    assert fse.name == "Pier Taqueria"


def test_it_refuses_an_opening_after_the_first_operators_start(agencies):
    fse = make_establishment(agencies[0])
    errors = refused(
        establishment_update, establishment=fse, today=TODAY, opened_on=date(2010, 1, 1)
    )
    assert errors["opened_on"] == ["2010-01-01 is after the first operator's start (2005-01-01)."]


def test_it_closes_and_reopens_with_audit_rows(agencies):
    fse = make_establishment(agencies[0])
    establishment_close(establishment=fse, closed_on=date(2026, 6, 1), today=TODAY)
    assert fse.closed_on == date(2026, 6, 1)
    establishment_reopen(establishment=fse)
    fse.refresh_from_db()
    assert fse.closed_on is None
    actions = list(AuditEvent.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["establishment.close", "establishment.reopen"]


def test_it_refuses_a_closing_before_the_opening_or_in_the_future(agencies):
    fse = make_establishment(agencies[0])
    early = refused(establishment_close, establishment=fse, closed_on=date(2004, 1, 1), today=TODAY)
    late = refused(establishment_close, establishment=fse, closed_on=date(2027, 1, 1), today=TODAY)
    assert early["closed_on"] == ["2004-01-01 is before the opening (2005-01-01)."]
    assert late["closed_on"] == ["2027-01-01 is in the future (today is 2026-12-01)."]


def test_it_refuses_to_reopen_an_open_establishment(agencies):
    fse = make_establishment(agencies[0])
    assert "closed_on" in refused(establishment_reopen, establishment=fse)


def test_a_remodel_is_recorded_and_sets_the_remodel_date(agencies):
    fse = make_establishment(agencies[1], code="T-1")
    change = operation_change_record(
        establishment=fse,
        kind="remodel",
        date=date(2026, 12, 20),
        notified_on=date(2026, 11, 1),
        today=TODAY,
    )
    fse.refresh_from_db()
    assert (change.kind, fse.remodeled_on) == ("remodel", date(2026, 12, 20))
    assert AuditEvent.objects.filter(action="operation_change.record").count() == 1


def test_a_process_change_leaves_the_remodel_date(agencies):
    fse = make_establishment(agencies[1], code="T-1")
    operation_change_record(establishment=fse, kind="process", date=date(2026, 5, 1), today=TODAY)
    fse.refresh_from_db()
    assert fse.remodeled_on is None


def test_it_refuses_a_notice_dated_in_the_future(agencies):
    fse = make_establishment(agencies[1], code="T-1")
    errors = refused(
        operation_change_record,
        establishment=fse,
        kind="remodel",
        date=date(2027, 3, 1),
        notified_on=date(2026, 12, 5),
        today=TODAY,
    )
    assert "notified_on" in errors
    assert not OperationChange.objects.exists()


def test_the_towns_notice_of_a_change_is_read_from_its_pack(agencies):
    town = agencies[1]
    short = change_notice(agency=town, on=date(2026, 12, 20), notified_on=date(2026, 11, 1))
    enough = change_notice(agency=town, on=date(2026, 12, 31), notified_on=date(2026, 11, 1))
    assert (short.meets, short.days_given, str(short.lead)) == (False, 49, "60 days")
    assert short.due == date(2026, 10, 21)
    assert enough.meets and "10.02.150(A)" in enough.citation


def test_san_clemente_requires_no_notice_of_a_change(agencies):
    assert change_notice(agency=agencies[0], on=date(2026, 12, 20), notified_on=None) is None


def test_it_refuses_a_phone_that_is_not_one(agencies):
    errors = refused(operator_register, agency=agencies[0], name="Deli Co", phone="call me")
    assert errors["phone"] == ["'call me' is not a phone number."]


def test_it_renames_an_operator_and_updates_its_contact_with_audit_rows(agencies):
    op = operator_register(agency=agencies[0], name="Deli Co")
    operator_update(
        operator=op, name="Deli Company", phone="949-555-0100", email="", mailing_address=""
    )
    op.refresh_from_db()
    assert (op.name, op.phone) == ("Deli Company", "949-555-0100")
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"operator.rename", "operator.contact"} <= actions


def test_a_refused_contact_leaves_the_operators_name(agencies):
    op = operator_register(agency=agencies[0], name="Deli Co")
    kw = {"operator": op, "name": "Deli Company", "phone": "x", "email": "", "mailing_address": ""}
    assert "phone" in refused(operator_update, **kw)
    op.refresh_from_db()
    assert op.name == "Deli Co"


def test_it_registers_a_parcel_unique_per_agency(agencies):
    sc, _ = agencies
    owner = owner_register(agency=sc, name="Harbor Holdings")
    parcel_register(agency=sc, apn="691-111-01", address="1 Main St", owner=owner)
    errors = refused(parcel_register, agency=sc, apn="691-111-01", address="2 Main St")
    assert "apn" in errors
    assert AuditEvent.objects.filter(action="parcel.register").count() == 1


def test_it_refuses_another_agencys_owner_on_a_parcel(agencies):
    sc, town = agencies
    parcel = parcel_register(agency=sc, apn="691-111-01", address="1 Main St")
    other = PropertyOwner.objects.create(agency=town, name="Town Owner")
    assert "owner" in refused(parcel_update, parcel=parcel, owner=other)


def test_a_segment_prone_to_blockage_needs_a_positive_cleaning_frequency(agencies):
    sc, _ = agencies
    missing = refused(segment_register, agency=sc, code="S-1", prone_to_blockage=True)
    negative = refused(segment_register, agency=sc, code="S-1", cleaning_frequency_days=-30)
    assert "cleaning_frequency_days" in missing and "cleaning_frequency_days" in negative
    assert not SewerSegment.objects.exists()


def test_it_updates_a_segment_with_its_audit(agencies):
    segment = segment_register(agency=agencies[0], code="S-1")
    assert segment_update(segment=segment, prone_to_blockage=True, cleaning_frequency_days=90)
    assert AuditEvent.objects.filter(action="segment.update").count() == 1


def test_a_lateral_reaches_a_segment_of_the_same_agency_only(agencies):
    sc, town = agencies
    fse = make_establishment(sc)
    other = SewerSegment.objects.create(agency=town, code="T-S1")
    assert "segment" in refused(lateral_add, establishment=fse, segment=other, today=TODAY)
    assert not Lateral.objects.exists()


def test_it_adds_and_removes_a_lateral_with_audit_rows(agencies):
    sc, _ = agencies
    fse = make_establishment(sc)
    segment = SewerSegment.objects.create(agency=sc, code="S-1")
    lateral = lateral_add(establishment=fse, segment=segment, today=TODAY, description="rear")
    lateral_remove(lateral=lateral, on=TODAY)
    assert not Lateral.objects.exists()
    actions = list(AuditEvent.objects.order_by("pk").values_list("action", flat=True))
    assert actions == ["lateral.add", "lateral.delete"]
