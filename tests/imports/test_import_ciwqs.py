"""`manage.py import_ciwqs`: the State Water Board's private lateral spill export, as found."""

from datetime import date
from decimal import Decimal
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError

from fogkeeper.audit.models import AuditEvent
from fogkeeper.incidents.ciwqs_cells import day_of, gallons, street_key
from fogkeeper.incidents.models import Incident
from tests.records import make_agency, make_establishment

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parent / "data"
SAMPLE = DATA / "ciwqs-sample.csv"
REAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "ciwqs" / "plsd-regions-1-8.csv"


def run(agency, path):
    out = StringIO()
    call_command("import_ciwqs", str(path), agency=agency.code, stdout=out)
    return out.getvalue()


@pytest.fixture
def agency():
    return make_agency()


def test_it_turns_the_sample_spills_into_incidents(agency):
    out = run(agency, SAMPLE)
    assert "ciwqs-sample.csv: 9 rows read" in out
    assert "  incidents created: 6" in out
    assert "  FOG-caused: 3" in out
    assert Incident.objects.filter(agency=agency, source="ciwqs").count() == 6


def test_it_keeps_the_row_as_read_in_latin_1(agency):
    run(agency, SAMPLE)
    incident = Incident.objects.get(code="785379")
    assert incident.source_record["SPILL_LOC_DESC"] == "Spill behind the Café Olé kitchen"
    assert incident.source_record["WDID"] == "1SSO10017"


def test_it_reads_the_spill(agency):
    run(agency, SAMPLE)
    incident = Incident.objects.get(code="785379")
    assert incident.date == date(2012, 8, 21)
    assert incident.kind == "spill"
    assert incident.gallons == Decimal("1200.0")
    assert incident.address == "250 South Main"
    assert incident.normalised_address == "250 s main"
    assert incident.cause == "Grease deposition (FOG): Grease"
    assert incident.fog_caused is True


def test_it_reads_the_spills_coordinates_and_leaves_zeros_empty(agency):
    run(agency, SAMPLE)
    incident = Incident.objects.get(code="785379")
    assert (incident.latitude, incident.longitude) == (Decimal("38.400833"), Decimal("-122.823056"))
    incident = Incident.objects.get(code="806103")
    assert (incident.latitude, incident.longitude) == (None, None)


def test_it_takes_the_date_from_the_notification_when_the_start_is_blank(agency):
    run(agency, SAMPLE)
    incident = Incident.objects.get(code="731906")
    assert (incident.date, incident.gallons) == (date(2008, 11, 26), None)


def test_it_does_not_call_a_spill_fog_caused_when_the_cause_says_not_fog(agency):
    run(agency, SAMPLE)
    incident = Incident.objects.get(code="742241")
    assert (incident.fog_caused, incident.gallons) == (False, None)


def test_it_reads_a_grease_cause_from_the_explanation(agency):
    run(agency, SAMPLE)
    incident = Incident.objects.get(code="757473")
    assert incident.fog_caused is True
    assert incident.address == "1345 Healdsburg Ave."


def test_it_lists_the_rows_it_skips_with_their_reasons(agency):
    out = run(agency, SAMPLE)
    assert (
        "  skipped: 3 (no usable date: 1, no spill id: 1, spill id repeated in the file: 1)" in out
    )
    assert (
        "    row 7: no usable date (spill 784651: START_DT '', "
        "AGENCY_NOTIFY_DT 'April 00:30', OPRTOR_ARRVL_DT ' ')"
    ) in out
    assert "    row 8: no spill id (SPILL_ID '')" in out
    assert "    row 9: spill id repeated in the file (spill 806103, first in row 2)" in out


def test_it_shows_progress(agency):
    assert "read 9/9 rows (100%)" in run(agency, SAMPLE)


def test_it_matches_an_establishment_by_its_normalised_address(agency):
    fse = make_establishment(agency, code="FSE-1", address="781 H St.", city="Arcata")
    out = run(agency, SAMPLE)
    incident = Incident.objects.get(code="806103")
    assert incident.establishment == fse
    assert incident.attributed is True
    assert "  matched to an establishment: 1 (exact address: 1)" in out


def test_it_matches_an_address_given_without_its_street_type(agency):
    fse = make_establishment(agency, code="FSE-1", address="1061 Hallen Drive", city="Arcata")
    out = run(agency, SAMPLE)
    incident = Incident.objects.get(code="658190")
    assert incident.establishment == fse
    assert incident.attributed is False
    assert "(street number and name: 1)" in out


def test_it_does_not_match_an_establishment_in_another_city(agency):
    make_establishment(agency, code="FSE-1", address="781 H Street", city="Eureka")
    out = run(agency, SAMPLE)
    assert Incident.objects.get(code="806103").establishment is None
    assert "establishment at that address in another city: 1" in out


def test_it_does_not_match_an_establishment_that_opened_after_the_spill(agency):
    make_establishment(agency, code="FSE-1", address="781 H Street", opened_on="2010-09-05")
    out = run(agency, SAMPLE)
    assert Incident.objects.get(code="806103").establishment is None
    assert "no establishment open there on the date: 1" in out


def test_it_leaves_a_spill_unmatched_when_several_establishments_share_the_address(agency):
    make_establishment(agency, code="FSE-1", address="781 H Street, Suite 1")
    make_establishment(agency, code="FSE-2", address="781 H Street, Suite 2")
    out = run(agency, SAMPLE)
    assert Incident.objects.get(code="806103").establishment is None
    assert "several establishments at the address: 1" in out


def test_it_adds_nothing_when_the_same_file_is_imported_twice(agency):
    make_establishment(agency, code="FSE-1", address="781 H Street", city="Arcata")
    run(agency, SAMPLE)
    out = run(agency, SAMPLE)
    assert "  incidents created: 0" in out
    assert "  already present: 6" in out
    assert Incident.objects.count() == 6
    assert AuditEvent.objects.filter(action="ciwqs.import").count() == 1


def test_it_writes_one_audit_row_with_the_counts(agency):
    run(agency, SAMPLE)
    event = AuditEvent.objects.get(action="ciwqs.import")
    assert event.agency == agency
    assert event.after["created"] == 6
    assert event.after["skipped"] == 3


def test_it_refuses_a_file_that_is_not_latin_1_text(agency):
    with pytest.raises(CommandError, match="holds NUL bytes .*nothing was imported"):
        run(agency, DATA / "ciwqs-utf16.csv")
    assert not Incident.objects.exists()


def test_it_refuses_an_agency_whose_pack_names_no_state_pack_and_imports_nothing():
    aurora = make_agency("us-oh-aurora", name="City of Aurora")
    with pytest.raises(CommandError) as e:
        run(aurora, SAMPLE)
    assert str(e.value) == (
        "City of Aurora does not report spills in CIWQS: its ordinance pack names no State "
        "spill reporting; nothing was imported"
    )
    assert not Incident.objects.exists()


def test_it_refuses_a_file_without_the_ciwqs_header(agency):
    with pytest.raises(CommandError, match="missing columns SPILL_ID, START_DT"):
        run(agency, DATA / "ciwqs-no-header.csv")
    assert not Incident.objects.exists()
    assert not AuditEvent.objects.exists()


def test_it_loads_the_whole_real_export_and_reports_its_counts(agency):
    make_establishment(agency, code="FSE-1", address="781 H Street", city="Arcata")
    out = run(agency, REAL)
    assert "read 3858/3858 rows (100%)" in out
    assert out.splitlines()[-12:] == [
        "plsd-regions-1-8.csv: 3858 rows read",
        "  incidents created: 3858",
        "  already present: 0",
        "  FOG-caused: 707",
        "  matched to an establishment: 1 (exact address: 1)",
        "  unmatched: 3857 (no establishment at the address: 3779, no address: 78)",
        "  attributed (matched and FOG-caused): 1",
        "  skipped: 0",
        "  categories derived: 1: 683, 2: 87, 3: 1099, 4: 1745",
        "  category left for staff: 244 (REACH_SURFACE No but SPILL_VOL_REACH_SURF above 0: 241, "
        "volume unknown: 2, storm drain reached, return to the sewer not stated: 1)",
        "  notes: (end before start, end left out: 109, volume blank: 2, "
        "AGENCY_NOTIFY_DT after today, left out: 1)",  # spill 727313: 07/28/2808
        "1 establishment evaluated again",  # the one its spill was matched to
    ]
    assert Incident.objects.filter(agency=agency).count() == 3858
    assert Incident.objects.filter(fog_caused=True).count() == 707
    assert Incident.objects.get(code="806103").establishment.code == "FSE-1"


@pytest.mark.parametrize(
    "text, day",
    [
        ("15-SEP-07 05.00.00.000000 PM", date(2007, 9, 15)),
        ("09/15/2007 18:00", date(2007, 9, 15)),
        ("10/4/2010 10:22", date(2010, 10, 4)),
        ("11-26-2008 14:00", date(2008, 11, 26)),
        ("2007-09-15", date(2007, 9, 15)),
        ("April 00:30", None),
        (" ", None),
        ("31-FEB-09 01.00.00.000000 AM", None),
    ],
)
def test_it_reads_the_dates_of_the_export(text, day):
    assert day_of(text) == day


@pytest.mark.parametrize(
    "text, expected",
    [
        ("90.0", Decimal("90.0")),
        ("1,200", Decimal("1200.0")),
        ("approx. 50 gallons", Decimal("50.0")),
        ("", None),
        ("unknown", None),
        ("-5", None),
    ],
)
def test_it_reads_the_volumes_of_the_export(text, expected):
    assert gallons(text) == expected


def test_a_street_key_drops_the_direction_and_the_street_type():
    assert street_key("124 n i st") == ("124", "i")
    assert street_key("1038 tenth") == street_key("1038 10th st") == ("1038", "10th")
    assert street_key("main st") is None


def test_it_takes_only_the_spills_of_the_agencys_sewer_system(agency):
    out = StringIO()
    call_command("import_ciwqs", str(REAL), agency=agency.code, wdid=["1SSO10001"], stdout=out)
    taken = Incident.objects.filter(agency=agency)
    assert taken.exists()
    assert {i.source_record["WDID"] for i in taken} == {"1SSO10001"}
    assert "of other sewer systems (WDID), left out: " in out.getvalue()


def test_it_stops_in_words_when_another_writer_stored_the_same_spills(agency, monkeypatch):
    def clash(*args, **kwargs):  # as when another writer stores one of the spills first
        raise IntegrityError('duplicate key value violates unique constraint "incident_code"')

    monkeypatch.setattr(Incident.objects, "bulk_create", clash)
    with pytest.raises(CommandError, match="some of the same spills were stored for the agency"):
        run(agency, SAMPLE)
    assert not Incident.objects.exists()
    assert not AuditEvent.objects.filter(action="ciwqs.import").exists()
