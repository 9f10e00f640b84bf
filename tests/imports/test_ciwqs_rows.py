"""CIWQS rows that cannot be: a date after the import's day (the agency's today) or a day no
calendar has is skipped and listed with its row; a value over 128 KiB refuses the file naming
the row; a volume or a coordinate not in plain digits is not read as a number."""

from datetime import datetime
from io import StringIO
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from fogkeeper.incidents.ciwqs import ciwqs_import
from fogkeeper.incidents.ciwqs_cells import degrees, gallons
from fogkeeper.incidents.imports import run_import
from fogkeeper.incidents.models import Incident, IncidentImport
from tests.records import make_agency
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

HEADER = "SPILL_ID,START_DT,AGENCY_NOTIFY_DT,SPILL_VOL,ADDRESS,CITY,SPILL_CAUSE\n"
NOON = datetime(2025, 6, 30, 12, tzinfo=ZoneInfo("America/Los_Angeles"))


def export(tmp_path, *rows: str) -> Path:
    path = tmp_path / "plsd.csv"
    path.write_text(HEADER + "".join(f"{r}\n" for r in rows), encoding="latin-1")
    return path


@pytest.fixture
def agency():
    return make_agency()


def test_it_skips_a_spill_dated_9999_12_31_naming_the_row(agency, tmp_path):
    path = export(
        tmp_path, "1,06/01/2025,,10,1 Main,Arcata,Grease", "2,9999-12-31,,5,2 Main,Arcata,Roots"
    )
    with time_machine.travel(NOON, tick=False):
        result = ciwqs_import(agency=agency, path=path)
    assert list(Incident.objects.values_list("code", flat=True)) == ["1"]
    assert result.skipped_rows == [
        "row 3: date in the future (spill 2: START_DT 9999-12-31 is after today, 2025-06-30)"
    ]


def test_it_skips_a_spill_dated_the_day_after_the_agencys_today(agency, tmp_path):
    path = export(tmp_path, "1,07/01/2025 08:00,,10,1 Main,Arcata,Grease")
    with time_machine.travel(NOON, tick=False):
        result = ciwqs_import(agency=agency, path=path)
    assert not Incident.objects.exists()
    assert result.skipped == {"date in the future": 1}


def test_a_later_time_of_a_spill_after_today_is_left_out_and_said(agency, tmp_path):
    path = export(tmp_path, "1,06/30/2025 07:00,07/28/2808 00:00,10,1 Main,Arcata,Grease")
    with time_machine.travel(NOON, tick=False):
        result = ciwqs_import(agency=agency, path=path)
    spill = Incident.objects.get()
    assert (spill.date.isoformat(), spill.known_at) == ("2025-06-30", None)
    assert result.notes["AGENCY_NOTIFY_DT after today, left out"] == 1


def test_it_skips_an_impossible_date_rather_than_take_another_column(agency, tmp_path):
    path = export(tmp_path, "1,02/30/2024,03/01/2024 08:00,10,1 Main,Arcata,Grease")
    result = ciwqs_import(agency=agency, path=path)
    assert not Incident.objects.exists()
    assert result.skipped_rows == [
        "row 2: impossible date (spill 1: START_DT '02/30/2024' is no day of the calendar)"
    ]


def test_the_page_run_import_lists_a_future_spill_as_skipped(agency, tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    path = export(tmp_path, "1,9999-12-31,,10,1 Main,Arcata,Grease")
    run = IncidentImport(agency=agency, filename="plsd.csv")
    run.file.name = str(path)
    run.save()
    run = run_import(run.pk)
    assert run.status == IncidentImport.COMPLETE
    assert run.counts["skipped_because"] == {"date in the future": 1}
    assert not Incident.objects.exists()


def test_it_names_the_row_of_a_value_over_128_kib(agency, tmp_path):
    path = export(
        tmp_path, "1,06/01/2025,,10,1 Main,Arcata,Grease", "2,06/01/2025,,10," + "x" * 140_000
    )
    with pytest.raises(CommandError) as caught:
        call_command("import_ciwqs", str(path), agency=agency.code, stdout=StringIO())
    assert "cannot be read as CSV at row 3 (line 3 of the file): a value is longer than " in str(
        caught.value
    )
    assert not Incident.objects.exists()


def test_the_import_page_refuses_a_value_over_128_kib_naming_the_row(client, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    sc, _ = two_agencies()
    client.force_login(make_user("ian", sc, role="inspector"))
    path = export(tmp_path, '1,06/01/2025,,10,1 Main,Arcata,"' + "x" * 140_000 + '"')
    file = SimpleUploadedFile("plsd.csv", path.read_bytes(), "text/csv")
    response = client.post("/incidents/imports/", {"file": file, "wdids": ""})
    assert response.status_code == 400
    assert "plsd.csv cannot be read as CSV at row 2 (line 2 of the file): a value is longer" in (
        response.content.decode()
    )
    assert not IncidentImport.objects.exists()


@pytest.mark.parametrize("text", ["１２００", "1e3", "١٢"])
def test_a_volume_not_in_plain_digits_is_not_read(text):
    assert gallons(text) is None


@pytest.mark.parametrize("text", ["1e1", "３８.５", "-1.2E1", "NaN"])
def test_a_coordinate_not_in_plain_digits_is_not_read(text):
    assert degrees(text, 90) is None
