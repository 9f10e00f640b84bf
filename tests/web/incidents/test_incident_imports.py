"""The CIWQS import page (fogkeeper/web/incidents/imports.py): the manager or the inspector
uploads the State's export; it is checked at once, imported by a worker (inline here: no
broker is set in the tests) and its page says what it did; the establishments matched are
evaluated again; a file that is not an export is refused and nothing is kept."""

from datetime import timedelta

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError
from django.utils import timezone

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.incidents.imports import run_import
from fogkeeper.incidents.models import Incident, IncidentImport
from tests.imports.test_import_ciwqs import SAMPLE
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def sc():
    sc, town = two_agencies()
    make_establishment(sc, code="FSE-1", address="781 H St.", city="Arcata", opened_on="2005-01-01")
    return {"sc": sc, "town": town}


def signed_in(client, agency, role="inspector", username="ian"):
    client.force_login(make_user(username, agency, role=role))


def upload(client, content: bytes = b"", name="plsd.csv", wdids=""):
    data = {"wdids": wdids}
    data["file"] = SimpleUploadedFile(name, content or SAMPLE.read_bytes(), "text/csv")
    return client.post("/incidents/imports/", data, follow=True)


def test_the_inspector_imports_an_export_and_sees_what_it_did(client, sc):
    signed_in(client, sc["sc"])

    response = upload(client)

    run = IncidentImport.objects.get()
    assert response.redirect_chain == [(f"/incidents/imports/{run.pk}/", 302)]
    html = response.content.decode()
    assert "Complete: 6 incidents created from 9 rows; 0 already present" in html
    assert "1 matched to an establishment, 5 left to review" in html
    assert "1 establishment evaluated again" in html
    assert "incidents created: 6" in html  # the import's own summary, line by line
    assert (run.status, run.rows_read, run.rows_total) == ("complete", 9, 9)
    assert Incident.objects.filter(agency=sc["sc"], source="ciwqs").count() == 6
    fse = Incident.objects.get(code="806103").establishment
    assert fse.code == "FSE-1"
    assert ComplianceStatus.objects.filter(establishment=fse).exists()  # evaluated again
    assert AuditEvent.objects.filter(action="ciwqs.upload", object_id=str(run.pk)).exists()
    listed = client.get("/incidents/imports/").content.decode()
    assert "plsd.csv" in listed and "ian" in listed


def test_importing_the_same_export_again_creates_nothing_and_says_so(client, sc):
    signed_in(client, sc["sc"], role="manager", username="mia")
    upload(client)

    html = upload(client).content.decode()

    assert "Complete: 0 incidents created from 9 rows; 6 already present" in html
    assert Incident.objects.filter(agency=sc["sc"]).count() == 6


@pytest.mark.parametrize(
    "content, says",
    [
        (b"name,address\nPier Diner,1 Main\n", "is not a CIWQS private lateral spill export"),
        (b"", "The submitted file is empty."),
        ("a,b\n".encode("utf-16"), "is not a text CSV file"),
    ],
)
def test_a_file_that_is_not_an_export_is_refused_naming_why_and_nothing_is_kept(
    client, sc, content, says
):
    signed_in(client, sc["sc"])
    data = {"file": SimpleUploadedFile("wrong.csv", content, "text/csv"), "wdids": ""}
    response = client.post("/incidents/imports/", data)
    assert response.status_code == 400
    assert says in response.content.decode()
    assert not IncidentImport.objects.exists() and not Incident.objects.exists()


def test_a_wdid_that_is_not_one_is_refused(client, sc):
    signed_in(client, sc["sc"])
    response = client.post(
        "/incidents/imports/",
        {"file": SimpleUploadedFile("plsd.csv", SAMPLE.read_bytes()), "wdids": "1SSO10001, <b>"},
    )
    assert response.status_code == 400
    assert "Not a WDID: &lt;b&gt;." in response.content.decode()
    assert not IncidentImport.objects.exists()


def test_only_the_sewer_systems_asked_for_are_imported(client, sc):
    signed_in(client, sc["sc"])
    html = upload(client, wdids="1SSO10017").content.decode()
    run = IncidentImport.objects.get()
    assert run.wdids == ["1SSO10017"]
    assert "of other sewer systems (WDID), left out" in html
    assert set(Incident.objects.values_list("source_record__WDID", flat=True)) == {"1SSO10017"}


def test_a_file_gone_before_the_worker_took_it_stops_the_import_with_nothing_imported(client, sc):
    signed_in(client, sc["sc"])
    run = IncidentImport.objects.create(
        agency=sc["sc"], filename="gone.csv", file="imports/ciwqs/gone.csv", rows_total=9
    )
    run_import(run.pk)
    run.refresh_from_db()
    assert run.status == "failed" and "nothing was imported" in run.error
    html = client.get(f"/incidents/imports/{run.pk}/").content.decode()
    assert "Stopped: cannot read" in html
    assert not Incident.objects.exists()


def test_an_import_racing_another_of_the_same_spills_stops_saying_so_and_stores_nothing(
    client, sc, monkeypatch
):
    signed_in(client, sc["sc"])

    def clash(*args, **kwargs):  # as when a second import stores the same spills first
        raise IntegrityError('duplicate key value violates unique constraint "incident_code"')

    monkeypatch.setattr(Incident.objects, "bulk_create", clash)
    html = upload(client).content.decode()

    assert "Another import of the agency stored some of the same spills" in html
    assert IncidentImport.objects.get().status == "failed"
    assert not Incident.objects.exists()


def test_a_stalled_import_is_queued_again_and_carries_on(client, sc):
    signed_in(client, sc["sc"])
    upload(client)
    run = IncidentImport.objects.get()
    Incident.objects.all().delete()  # as if its worker had been killed before it stored
    IncidentImport.objects.filter(pk=run.pk).update(status="running", rows_read=4)
    page = client.get(f"/incidents/imports/{run.pk}/").content.decode()
    assert "Running: 4 of 9 rows read" in page and 'id="import-stalled"' not in page
    assert 'hx-get="/incidents/imports/' in page
    refused = client.post(f"/incidents/imports/{run.pk}/requeue/", follow=True)
    assert "The import is not stalled" in refused.content.decode()
    assert not Incident.objects.exists()

    IncidentImport.objects.filter(pk=run.pk).update(progress_at=timezone.now() - timedelta(hours=1))
    assert "Queue it again" in client.get(f"/incidents/imports/{run.pk}/").content.decode()
    html = client.post(f"/incidents/imports/{run.pk}/requeue/", follow=True).content.decode()

    assert "Complete: 6 incidents created" in html
    assert Incident.objects.count() == 6


def test_who_may_import_and_whose_imports_are_seen(client, sc):
    town_run = IncidentImport.objects.create(
        agency=sc["town"], filename="town.csv", file="imports/ciwqs/town.csv", status="complete"
    )
    signed_in(client, sc["sc"], role="clerk", username="cleo")
    page = client.get("/incidents/imports/").content.decode()
    assert 'id="ciwqs-upload"' not in page and "town.csv" not in page
    assert upload(client).status_code == 403
    assert client.get(f"/incidents/imports/{town_run.pk}/").status_code == 404
    assert not IncidentImport.objects.filter(agency=sc["sc"]).exists()
