"""The onboarding pages (fogkeeper/web/onboarding/): the manager uploads a spreadsheet, its
dry run (inline here: no broker is set in the tests) lists every problem by row and column
and stores nothing; a clean dry run says what would change and is confirmed into an import,
once; the blank files carry the pack's words; the inspector reads but does not upload, and
downloads the program as the files that bring it back."""

import io
import zipfile
from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile

from fogkeeper.audit.models import AuditEvent
from fogkeeper.onboarding.catalog import KINDS
from fogkeeper.onboarding.models import Onboarding
from fogkeeper.registry.models import FoodServiceEstablishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

HEADER = "code,name,address,opened_on,operator_name\n"
CLEAN = HEADER + "FSE-1,Harbor Grill,101 Pier Way,2015-03-01,Harbor Foods LLC\n"
BAD = CLEAN + "FSE-2,Taco Stand,5 Main St,2015-02-30,Ruiz Family Inc\n"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def sc():
    return two_agencies()[0]


def upload(client, text: str, kind="establishments", name="program.csv"):
    data = {"kind": kind, "file": SimpleUploadedFile(name, text.encode(), "text/csv")}
    return client.post("/onboarding/", data, follow=True)


def test_a_dry_run_names_each_bad_row_and_stores_nothing(client, sc):
    client.force_login(make_user("mia", sc, role="manager"))
    html = upload(client, BAD).content.decode()
    assert "1 problem in 2 rows: nothing was stored" in html
    assert '<th scope="row">3</th><td>opened_on</td><td>not a date: &#x27;2015-02-30&#x27;' in html
    assert "onboarding-confirm" not in html
    assert not FoodServiceEstablishment.objects.exists()


def test_a_clean_dry_run_is_confirmed_into_an_import_once(client, sc):
    client.force_login(make_user("mia", sc, role="manager"))
    html = upload(client, CLEAN).content.decode()
    assert "If imported, 1 record would be created, 0 updated and 0 left as they are" in html
    assert not FoodServiceEstablishment.objects.exists()
    dry = Onboarding.objects.get()
    response = client.post(f"/onboarding/{dry.pk}/confirm/", follow=True)
    run = Onboarding.objects.exclude(pk=dry.pk).get()
    assert response.redirect_chain == [(f"/onboarding/{run.pk}/", 302)]
    assert "Imported: 1 record created, 0 updated and 0 left as they were" in (
        response.content.decode()
    )
    assert (run.dry_run, run.checked, run.status) == (False, dry, "complete")
    assert FoodServiceEstablishment.objects.get(agency=sc).name == "Harbor Grill"
    again = client.post(f"/onboarding/{dry.pk}/confirm/", follow=True).content.decode()
    assert "Only a finished dry run without a problem may be imported, once" in again
    assert Onboarding.objects.count() == 2
    actions = set(AuditEvent.objects.values_list("action", flat=True))
    assert {"onboarding.upload", "onboarding.confirm", "onboarding.import"} <= actions


def test_a_file_refused_as_a_whole_says_why(client, sc):
    client.force_login(make_user("mia", sc, role="manager"))
    html = upload(client, "code,colour\nFSE-1,red\n").content.decode()
    assert "Stopped: program.csv: unknown column(s): colour" in html
    response = upload(client, CLEAN, name="program.txt")
    assert response.status_code == 400
    assert "Upload a .csv or an .xlsx file." in response.content.decode()


def test_the_blank_file_and_who_may_upload(client, sc):
    client.force_login(make_user("ian", sc, role="inspector"))
    page = client.get("/onboarding/").content.decode()
    assert "/onboarding/blank/devices.xlsx" in page and "onboarding-upload" not in page
    blank = client.get("/onboarding/blank/establishments.csv")
    assert blank["Content-Disposition"] == 'attachment; filename="establishments.csv"'
    assert blank.content.decode().startswith("code,name,address,")
    assert upload(client, CLEAN).status_code == 403
    assert client.get("/onboarding/blank/parcels.csv").status_code == 404


def test_the_program_downloads_as_a_zip_of_the_files_that_bring_it_back(client, sc):
    client.force_login(make_user("mia", sc, role="manager"))
    upload(client, CLEAN)
    client.post(f"/onboarding/{Onboarding.objects.get().pk}/confirm/")
    client.force_login(make_user("ian", sc, role="inspector"))
    assert 'href="/onboarding/export.zip"' in client.get("/onboarding/").content.decode()
    response = client.get("/onboarding/export.zip")
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    names = archive.namelist()
    assert names[:3] == ["01-establishments.csv", "02-haulers.csv", "03-devices.csv"]
    assert len(names) == len(KINDS)
    lines = archive.read("01-establishments.csv").decode().splitlines()
    assert lines[0].startswith("code,name,address,") and lines[1].startswith("FSE-1,Harbor Grill,")


def test_a_nul_in_a_cell_is_a_problem_of_the_dry_run_naming_its_row_and_column(client, sc):
    """PostgreSQL cannot store a NUL: the dry run said the file was clean, then the confirmed
    import failed (issue 37, item 8)."""
    client.force_login(make_user("mia", sc, role="manager"))
    html = upload(client, CLEAN.replace("Harbor Grill", "Harbor\x00Grill")).content.decode()
    assert "1 problem in 1 row: nothing was stored" in html
    assert '<th scope="row">2</th><td>name</td><td>holds a control character (U+0000)' in html
    assert "onboarding-confirm" not in html
    assert not FoodServiceEstablishment.objects.exists()


def test_the_dry_run_writes_as_the_import_does_and_undoes_it(client, sc, monkeypatch):
    """One path for both: what the database refuses, the dry run finds (here a refusal of
    the write stood in for), and a clean dry run's writing is rolled back."""
    from django.db import DataError

    from fogkeeper.onboarding import importer

    client.force_login(make_user("mia", sc, role="manager"))
    stored = importer._store
    upload(client, CLEAN)
    assert not FoodServiceEstablishment.objects.exists()  # written, then rolled back

    def refused(*args):
        stored(*args)
        raise DataError("invalid byte sequence for encoding UTF8: 0x00")

    monkeypatch.setattr(importer, "_store", refused)
    html = upload(client, CLEAN).content.decode()
    assert "every row passed its checks, yet the database refused to store them" in html
    assert "0x00" not in html and "onboarding-confirm" not in html


BUTTON = 'id="onboarding-confirm"'


def _killed(run: Onboarding, at) -> None:
    """The run as a worker killed with kill -9 leaves it: running, its last beat at `at`."""
    Onboarding.objects.filter(pk=run.pk).update(
        status=Onboarding.RUNNING, started_at=at, progress_at=at, finished_at=None
    )


def test_a_dry_run_whose_worker_died_is_seen_stopped_within_a_minute_and_runs_again(client, sc):
    """Issue 37, item 13: it stayed "running" until the ten-minute requeue."""
    client.force_login(make_user("mia", sc, role="manager"))
    upload(client, CLEAN)
    run = Onboarding.objects.get()
    beat = datetime(2026, 6, 30, 12, 0, tzinfo=UTC)
    _killed(run, beat)
    with time_machine.travel(beat + timedelta(seconds=30), tick=False):
        html = client.get(f"/onboarding/{run.pk}/").content.decode()
        assert "Running: 1 of 1 row read" in html and "onboarding-died" not in html
    with time_machine.travel(beat + timedelta(seconds=50), tick=False):
        html = client.get(f"/onboarding/{run.pk}/").content.decode()
        assert "Stopped: the worker reading it stopped at 2026-06-30 " in html
        assert "before it finished (1 of 1 row read), with no sign of it since" in html
        assert "Check program.csv again" in html
        assert "Stopped: its worker died" in client.get("/onboarding/").content.decode()
        html = client.post(f"/onboarding/{run.pk}/requeue/", follow=True).content.decode()
    assert "If imported, 1 record would be created" in html
    assert Onboarding.objects.get().status == Onboarding.COMPLETE


def test_an_import_whose_worker_died_may_be_confirmed_again_from_its_dry_run(client, sc):
    client.force_login(make_user("mia", sc, role="manager"))
    upload(client, CLEAN)
    dry = Onboarding.objects.get()
    killed = Onboarding.objects.create(  # confirmed, and its worker killed before its commit
        agency=sc,
        kind=dry.kind,
        dry_run=False,
        checked=dry,
        file=dry.file.name,
        filename=dry.filename,
        rows_total=1,
    )
    beat = datetime(2026, 6, 30, 12, 0, tzinfo=UTC)
    _killed(killed, beat)
    with time_machine.travel(beat + timedelta(seconds=30), tick=False):
        assert (
            'id="onboarding-confirm"' not in client.get(f"/onboarding/{dry.pk}/").content.decode()
        )
    with time_machine.travel(beat + timedelta(seconds=50), tick=False):
        page = client.get(f"/onboarding/{killed.pk}/").content.decode()
        assert "Import program.csv again" in page
        assert BUTTON in client.get(f"/onboarding/{dry.pk}/").content.decode()
        html = client.post(f"/onboarding/{dry.pk}/confirm/", follow=True).content.decode()
    assert "Imported: 1 record created" in html
    killed.refresh_from_db()
    assert killed.status == Onboarding.FAILED and "Its worker stopped" in killed.error
    assert FoodServiceEstablishment.objects.get().name == "Harbor Grill"


REAL = "code,name,address,city,state,opened_on,operator_name,latitude,longitude\n" + "".join(
    f"FSE-{i},Grill {i},{i} Grand Ave,Des Moines,IA,2015-03-01,Foods {i} LLC,"
    f"41.58{i}81234567891,-93.62{i}01234567891\n"
    for i in range(8)
)


def _devices(agency) -> str:
    kind = next(iter(agency.get_pack().device_kinds))
    rows = "".join(f"FSE-{i},GI-1,{kind},2016-01-01,90\n" for i in range(8))
    return "establishment_code,code,kind,installed_on,service_frequency_days\n" + rows


def _import(client, text, kind):
    html = upload(client, text, kind=kind).content.decode()
    client.post(f"/onboarding/{Onboarding.objects.filter(dry_run=True).first().pk}/confirm/")
    return html


def test_the_dry_run_warns_and_the_dashboard_explains_the_first_morning(client, sc):
    """Issue 38: a program onboarded without its pump-out history was all overdue the next
    morning, with no word at the import nor on the dashboard."""
    from fogkeeper.compliance.runs import sweep_agency

    client.force_login(make_user("mia", sc, role="manager"))
    html = _import(client, REAL, "establishments")
    assert "No problem in 8 rows (1 warning below). If imported, 8 records would be created" in (
        html
    )
    assert "16 coordinates had more than 6 decimals and were rounded to 6" in html
    assert html.count("8 records would be created") == 1 and "<dt>Status</dt>" not in html
    html = _import(client, _devices(sc), "devices")
    assert "8 devices have no pump-out on record: the first sweep would find them all overdue" in (
        html
    )
    refused = client.post(
        "/onboarding/settings/",
        {
            "area_south": "41.7",
            "area_north": "41.4",
            "area_west": "-93.8",
            "area_east": "-93.45",
            "history_starts": "2026-12-01",
            "history_grace_days": "60",
        },
    )
    assert refused.status_code == 400
    assert "The north edge (41.4) must be north of the south (41.7)." in refused.content.decode()
    sc.refresh_from_db()
    assert sc.history_starts is None and sc.area_north is None
    saved = client.post(
        "/onboarding/settings/",
        {
            "history_starts": "2026-12-01",
            "history_grace_days": "60",
        },
        follow=True,
    ).content.decode()
    assert "not counted overdue until 2027-01-30" in saved
    assert AuditEvent.objects.filter(action="onboarding.settings").count() == 1
    sc.refresh_from_db()
    for day, overdue, words in (
        (date(2027, 1, 30), 0, "they are not counted overdue until the grace ends on 2027-01-30"),
        (date(2027, 1, 31), 8, "the grace ended on 2027-01-30, and they are counted"),
    ):
        sweep_agency(sc, as_of=day)
        board = client.get(f"/dashboard/?as_of={day}").content.decode()
        assert "Pump-out history starts 2026-12-01: 8 devices have no record yet; " + words in (
            board
        )
        assert f'<span class="n" id="overdue-pump-outs">{overdue}</span>' in board
