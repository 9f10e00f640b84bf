"""A hauler uploads a manifest file: all its rows are checked, any bad row adds nothing."""

from unittest.mock import patch

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance import sweep
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import ServiceContract
from tests.records import d, make_device, make_establishment

from . import haulers
from .haulers import SUBMISSIONS, UPLOAD, staff_user, trap_overdue

pytestmark = pytest.mark.django_db
clock, world = haulers.clock, haulers.world  # the fixtures

HEADER = "hauler_code,manifest_number,establishment_code,device_code,service_date,gallons_removed\n"
GOOD = (
    "FSE-0042-H1,CP-1,FSE-0042,GT-2,2025-06-20,40\nFSE-0042-H1,CP-2,FSE-0042,GI-1,06/21/2025,950\n"
)


def upload(client, text: str, name: str = "june.csv"):
    file = SimpleUploadedFile(name, text.encode(), content_type="text/csv")
    return client.post(UPLOAD, {"file": file}, follow=True)


def test_it_adds_the_pump_outs_marked_as_the_haulers_file(client, world):
    client.force_login(world.hank)
    response = upload(client, HEADER + GOOD)
    assert response.redirect_chain == [(SUBMISSIONS, 302)]
    assert "june.csv: 2 rows, 2 pump-outs added, 0 already recorded." in response.content.decode()
    services = Service.objects.filter(manifest_number__in=["CP-1", "CP-2"])
    assert {(s.source, s.submitted_by, s.hauler) for s in services} == {
        ("hauler_csv", world.hank, world.coastal)
    }


def test_it_clears_the_overdue_findings_of_the_customers_it_touches(client, world):
    assert trap_overdue(world.pier)
    client.force_login(world.hank)
    upload(client, HEADER + GOOD)
    assert not trap_overdue(world.pier)


def test_it_writes_an_audit_row_naming_the_hauler_login(client, world):
    client.force_login(world.hank)
    upload(client, HEADER + GOOD)
    event = AuditEvent.objects.get(action="manifests.import")
    assert (event.actor, event.agency) == (world.hank, world.sc)
    assert event.after["manifests"] == ["CP-1", "CP-2"]


def test_it_adds_nothing_when_the_same_file_comes_twice(client, world):
    client.force_login(world.hank)
    upload(client, HEADER + GOOD)
    response = upload(client, HEADER + GOOD)
    assert "2 rows, 0 pump-outs added, 2 already recorded." in response.content.decode()
    assert Service.objects.filter(source="hauler_csv").count() == 2
    assert AuditEvent.objects.filter(action="manifests.import").count() == 1


def test_a_file_with_a_bad_row_changes_nothing_and_names_the_row(client, world):
    client.force_login(world.hank)
    rows = AuditEvent.objects.count()  # the people's memberships
    response = upload(client, HEADER + GOOD + "FSE-0042-H1,CP-3,FSE-0042,GT-2,2025-02-30,40\n")
    assert response.status_code == 400
    html = response.content.decode()
    assert "The file was refused; nothing was added" in html
    assert (
        '<tr><th scope="row">4</th><td>service_date</td>'
        "<td>not a date: &#x27;2025-02-30&#x27; (use YYYY-MM-DD or MM/DD/YYYY)</td></tr>"
    ) in html
    assert not Service.objects.filter(source="hauler_csv").exists()
    assert trap_overdue(world.pier)
    assert AuditEvent.objects.count() == rows


def test_it_refuses_another_haulers_manifest(client, world):
    client.force_login(world.hank)
    rogue_row = "FSE-0042-H2,RV-1,FSE-0042,GT-2,2025-06-20,40\n"
    html = upload(client, HEADER + GOOD + rogue_row).content.decode()
    assert "&#x27;FSE-0042-H2&#x27; is not your hauler code (&#x27;FSE-0042-H1&#x27;)" in html
    assert not Service.objects.filter(manifest_number__in=["CP-1", "CP-2", "RV-1"]).exists()


def test_it_refuses_a_non_customers_device_as_unknown(client, world):
    client.force_login(world.hank)
    html = upload(client, HEADER + "FSE-0042-H1,CP-9,FSE-7,GI-1,2025-06-20,40\n").content.decode()
    assert "&#x27;FSE-7&#x27; is not one of your customers" in html
    assert not Service.objects.filter(manifest_number="CP-9").exists()


def test_it_names_a_missing_column(client, world):
    client.force_login(world.hank)
    html = upload(client, "hauler_code,manifest_number\nFSE-0042-H1,CP-1\n").content.decode()
    assert "missing columns &#x27;establishment_code&#x27;" in html


def test_it_asks_for_a_file(client, world):
    client.force_login(world.hank)
    response = client.post(UPLOAD, {})
    assert response.status_code == 400
    assert "This field is required." in response.content.decode()


def test_it_is_not_a_page_for_staff(client, world):
    client.force_login(staff_user("ines", world.sc))
    assert client.get(UPLOAD).status_code == 404


def _new_customers(world, prefix: str, n: int) -> list:
    """`n` new customers of Coastal Pumping with a trap GT-1 each, never swept."""
    fses = []
    for i in range(1, n + 1):
        fse = make_establishment(world.sc, code=f"{prefix}-{i}", name=f"Cafe {prefix} {i}")
        make_device(fse, "GT-1", kind="trap", installed_on="2020-01-01")
        since = d("2021-01-01")
        ServiceContract.objects.create(hauler=world.coastal, establishment=fse, since=since)
        fses.append(fse)
    return fses


def _file_for(fses, prefix: str) -> str:
    rows = [f"FSE-0042-H1,{prefix}-M{i},{f.code},GT-1,2025-06-20,40\n" for i, f in enumerate(fses)]
    return HEADER + "".join(rows)


def _upload_counted(client, fses, prefix: str):
    loads = []
    real = sweep.load_case_files

    def spy(agency, ids, as_of):
        loads.append(list(ids))
        return real(agency, ids, as_of)

    with patch.object(sweep, "load_case_files", spy), CaptureQueriesContext(connection) as q:
        response = upload(client, _file_for(fses, prefix))
    assert response.redirect_chain == [(SUBMISSIONS, 302)]
    return loads, len(q.captured_queries)


def test_a_file_for_many_customers_evaluates_them_together_in_a_bounded_number_of_queries(
    client, world
):
    few, many = _new_customers(world, "FEW", 2), _new_customers(world, "MANY", 12)
    client.force_login(world.hank)

    few_loads, few_queries = _upload_counted(client, few, "FEW")
    many_loads, many_queries = _upload_counted(client, many, "MANY")

    assert few_loads == [sorted(f.pk for f in few)]  # one batch, loaded once
    assert many_loads == [sorted(f.pk for f in many)]
    assert ComplianceStatus.objects.filter(establishment__in=few + many).count() == 14
    assert set(
        Service.objects.filter(device__establishment__in=many).values_list("source", flat=True)
    ) == {"hauler_csv"}
    # ten customers more cost no query more: nothing is loaded or stored one at a time
    assert many_queries == few_queries, (few_queries, many_queries)


# -- capped uploads, no row lost (issue 15, items 7, 8, 9) ---------------------------------


def test_it_refuses_a_file_of_more_rows_than_the_cap_and_adds_nothing(client, world, settings):
    settings.FOGKEEPER_MANIFEST_MAX_ROWS = 1
    client.force_login(world.hank)
    response = upload(client, HEADER + GOOD)
    assert response.status_code == 400
    assert "june.csv has more than 1 rows: a file may hold at most 1 pump-outs." in (
        response.content.decode()
    )
    assert not Service.objects.filter(source="hauler_csv").exists()
    assert not AuditEvent.objects.filter(action="manifests.import").exists()


def test_it_refuses_a_file_over_the_size_cap_before_reading_it(client, world, settings):
    settings.FOGKEEPER_MANIFEST_MAX_BYTES = 100
    client.force_login(world.hank)
    size = len((HEADER + GOOD).encode())
    with patch("fogkeeper.portal.hauler.views.manifests_import") as importer:
        response = upload(client, HEADER + GOOD)
    assert response.status_code == 400
    assert f"june.csv is {size}\xa0bytes; a manifest file may be at most 100\xa0bytes" in (
        response.content.decode()
    )
    importer.assert_not_called()
    assert not Service.objects.filter(source="hauler_csv").exists()


def test_the_default_caps_are_5000_rows_and_2_mb(client, world):
    client.force_login(world.hank)
    rows = "".join(f"FSE-0042-H1,X-{i},FSE-0042,GT-2,2025-06-20,40\n" for i in range(5001))
    html = upload(client, HEADER + rows).content.decode()
    assert "june.csv has more than 5,000 rows" in html
    assert "at most 2.0\xa0MB" in upload(client, HEADER + "x" * 2 * 1024 * 1024).content.decode()
    assert not Service.objects.filter(source="hauler_csv").exists()


def test_it_names_the_row_of_a_value_over_128_kib(client, world):
    client.force_login(world.hank)
    response = upload(client, HEADER + GOOD + "FSE-0042-H1,CP-3," + "x" * 140_000 + "\n")
    assert response.status_code == 400
    assert (
        '<tr><th scope="row">4</th><td></td><td>holds a value longer than 131,072 characters'
    ) in response.content.decode()
    assert not Service.objects.filter(source="hauler_csv").exists()


def test_it_refuses_a_quote_left_open_naming_the_row(client, world):
    client.force_login(world.hank)
    text = HEADER.replace("\n", ",notes\n") + (
        'FSE-0042-H1,CP-1,FSE-0042,GT-2,2025-06-20,40,"lid cracked\n'
        'FSE-0042-H1,CP-2,FSE-0042,GI-1,2025-06-21,950,ok"\n'
    )
    response = upload(client, text)
    assert response.status_code == 400
    assert '<tr><th scope="row">2</th><td>notes</td><td>holds a line break' in (
        response.content.decode()
    )
    assert not Service.objects.filter(source="hauler_csv").exists()


def test_it_refuses_fullwidth_digits_as_gallons(client, world):
    client.force_login(world.hank)
    response = upload(client, HEADER + "FSE-0042-H1,CP-1,FSE-0042,GT-2,2025-06-20,１２００\n")
    assert "not a number: &#x27;１２００&#x27;" in response.content.decode()
    assert not Service.objects.filter(source="hauler_csv").exists()


def test_bad_rows_count_towards_the_cap(client, world, settings):
    settings.FOGKEEPER_MANIFEST_MAX_ROWS = 2
    client.force_login(world.hank)
    html = upload(client, HEADER + "x\n" * 3).content.decode()
    assert "june.csv has more than 2 rows" in html
