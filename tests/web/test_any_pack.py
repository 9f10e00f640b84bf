"""A third ordinance runs the whole application by data alone: the imaginary-town pack
(tests/rules/packs/, loaded through FOGKEEPER_PACKS) gets a demo agency, its sweep, every
staff page, an inspection and a pump-out recorded through the pages, and a letter; and a pack
made by `fogkeeper packs new` runs as an agency once its placeholders are filled in."""

from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command

from fogkeeper.cli import main as cli_main
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.enforcement.models import EnforcementCase, Letter
from fogkeeper.enforcement.services import action_take
from fogkeeper.inspections.models import Inspection
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import Agency, GreaseControlDevice, Hauler
from fogkeeper.registry.services import device_install
from fogkeeper.rules.packs import default_registry
from tests.rules.new_pack import fill

pytestmark = pytest.mark.django_db

PACKS = Path(__file__).resolve().parent.parent / "rules" / "packs"
PACK = "imaginary-town"
AS_OF = date(2026, 6, 30)
Q = f"?as_of={AS_OF}"


@pytest.fixture
def town(monkeypatch) -> Agency:
    """The demo of the imaginary town, swept, its staff login signed in."""
    monkeypatch.setenv("FOGKEEPER_PACKS", str(PACKS))
    call_command("demo", "--pack", PACK, "--as-of", AS_OF.isoformat(), stdout=StringIO())
    return Agency.objects.get(pack=PACK)


@pytest.fixture
def staff(client, town):
    client.force_login(get_user_model().objects.get(username="manager"))
    return client


def pack():
    return default_registry().get(PACK)


def an_establishment(town, **devices):
    return (
        town.establishments.filter(closed_on=None, devices__removed_on=None, **devices)
        .distinct()
        .order_by("code")
        .first()
    )


def test_it_loads_a_generated_demo_for_a_pack_without_stories(town):
    assert town.name == pack().titles["agency"]
    assert 30 <= town.establishments.count() <= 50
    kinds = set(
        GreaseControlDevice.objects.filter(establishment__agency=town).values_list(
            "kind", flat=True
        )
    )
    assert kinds and kinds <= set(pack().device_kinds)
    items = set(
        Inspection.objects.filter(establishment__agency=town).values_list(
            "answers__item", flat=True
        )
    )
    assert items - {None} <= set(pack().checklist)


def test_its_sweep_evaluates_every_establishment(town):
    statuses = ComplianceStatus.objects.filter(establishment__agency=town)
    assert statuses.count() == town.establishments.count()


def test_its_demo_case_has_a_letter(town):
    case = EnforcementCase.objects.get(establishment__agency=town)
    letter = Letter.objects.get(action__case=case)
    assert letter.pdf.startswith(b"%PDF")


def test_every_staff_page_answers_200(staff, town):
    fse = an_establishment(town)
    case = EnforcementCase.objects.get(establishment__agency=town)
    service = Service.objects.filter(device__establishment=fse).first()
    letter = Letter.objects.get(action__case=case)
    urls = [
        "/dashboard/",
        "/inbox/",
        "/establishments/",
        "/establishments/?export=csv",
        "/establishments/?export=xlsx",
        f"/establishments/?device={next(iter(pack().device_kinds))}",
        f"/establishments/{fse.code}/",
        "/map/",
        "/map/data.json",
        "/inspections/field/",
        "/cases/",
        f"/cases/{case.establishment.code}/{case.code}/",
        f"/letters/{letter.pk}.pdf",
        "/ordinance/",
        "/calendar/",
        *(
            f"/establishments/{fse.code}/record/{kind}/"
            for kind in (
                "service",
                "inspection",
                "training",
                "incident",
                "permit",
                "operator-change",
            )
        ),
        f"/establishments/{fse.code}/services/{service.pk}/dispute/",
    ]
    answers = {
        url: staff.get(url + ("&" if "?" in url else "?") + Q[1:]).status_code for url in urls
    }
    assert answers == dict.fromkeys(urls, 200)


def test_it_records_an_inspection_through_the_page(staff, town):
    fse = an_establishment(town)
    url = f"/establishments/{fse.code}/record/inspection/{Q}"
    form = staff.get(url).context["form"]
    data = {"code": "I-ANY-1", "date": "2026-06-29", "item_0": "no"}
    for row in form.devices:
        data[f"fog_{row['device'].pk}"] = "1.5"
        data[f"solids_{row['device'].pk}"] = "2"
    response = staff.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    inspection = Inspection.objects.get(establishment=fse, code="I-ANY-1")
    assert inspection.answers.get().item == list(pack().checklist)[0]


def test_it_records_a_pump_out_through_the_page(staff, town):
    fse = an_establishment(town)
    device = fse.devices.filter(removed_on=None).order_by("code").first()
    hauler = Hauler.objects.filter(agency=town).order_by("code").first()
    data = {
        "device": device.pk,
        "hauler": hauler.pk,
        "manifest_number": "M-ANY-1",
        "date": "2026-06-29",
        "full_pump_out": "on",
        "gallons_removed": "40",
    }
    response = staff.post(f"/establishments/{fse.code}/record/service/{Q}", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Service.objects.filter(device=device, manifest_number="M-ANY-1").exists()


def test_the_inspection_form_shows_the_packs_title_of_each_device_kind(staff, town):
    fse = an_establishment(town)
    html = staff.get(f"/establishments/{fse.code}/record/inspection/{Q}").content.decode()
    device = fse.devices.filter(removed_on=None).order_by("code").first()
    assert f"{device.code}: {pack().kind_title(device.kind)}" in html


def test_the_establishment_page_shows_the_packs_title_of_its_category(staff, town):
    fse = an_establishment(town)
    html = staff.get(f"/establishments/{fse.code}/{Q}").content.decode()
    assert f"<dt>Category</dt><dd>{pack().category_title(fse.category)}</dd>" in html


def test_it_refuses_a_device_kind_the_pack_does_not_have_naming_those_it_has(town):
    with pytest.raises(ValidationError) as e:
        device_install(
            establishment=an_establishment(town),
            code="X-1",
            kind="septic_tank",
            installed_on=AS_OF,
        )
    (message,) = e.value.message_dict["kind"]
    assert "'septic_tank'" in message
    assert all(kind in message for kind in pack().device_kinds)


def test_each_action_the_pack_marks_with_a_letter_sends_one(town):
    case = EnforcementCase.objects.get(establishment__agency=town)
    notice = action_take(
        case=case,
        type="notice_of_violation",
        code="NOV-9",
        fields={"delivered_on": "2026-06-01", "correct_by": "2026-06-15"},
    )
    assert Letter.objects.get(action=notice).pdf.startswith(b"%PDF")


def test_a_pack_made_by_packs_new_and_filled_in_runs_as_an_agency(client, monkeypatch, tmp_path):
    """A new agency's path with no code: `packs new`, its placeholders filled in, loaded by
    FOGKEEPER_PACKS, a demo of it swept, and its pages read in its own words."""
    folder = tmp_path / "packs" / "example-city"
    assert cli_main(["packs", "new", str(folder), "--name", "City of Example"]) == 0
    fill(folder)
    monkeypatch.setenv("FOGKEEPER_PACKS", str(folder.parent))
    call_command("demo", "--pack", "example-city", "--as-of", AS_OF.isoformat(), stdout=StringIO())
    agency = Agency.objects.get(pack="example-city")
    assert agency.establishments.count() >= 30
    swept = ComplianceStatus.objects.filter(establishment__agency=agency).count()
    assert swept == agency.establishments.count()
    client.force_login(get_user_model().objects.get(username="manager"))
    urls = ["/dashboard/", "/establishments/", "/cases/", "/calendar/", "/ordinance/"]
    assert {u: client.get(u + Q).status_code for u in urls} == dict.fromkeys(urls, 200)
    ordinance = client.get("/ordinance/" + Q).content.decode()
    assert "City of Example" in ordinance and "7.40.050(B)" in ordinance


def test_a_new_packs_demo_is_on_its_own_streets_and_map(client, monkeypatch, tmp_path):
    """The demo of a pack made by `packs new` puts its establishments inside the pack's area,
    on the streets it names, and its map shows them (issue 38 item 4)."""
    folder = tmp_path / "packs" / "example-city"
    cli_main(["packs", "new", str(folder), "--name", "City of Example"])
    fill(folder)  # the area's example: centre [41.5868, -93.6250], 5 km, three streets
    monkeypatch.setenv("FOGKEEPER_PACKS", str(folder.parent))
    call_command("demo", "--pack", "example-city", "--as-of", AS_OF.isoformat(), stdout=StringIO())
    agency = Agency.objects.get(pack="example-city")
    streets = ("Main Street", "Grand Avenue", "Lincoln Way")
    for fse in agency.establishments.all():
        assert any(s in fse.address for s in streets), fse.address
        assert fse.latitude is not None, fse.code
        north_km = (float(fse.latitude) - 41.5868) * 111.32
        east_km = (float(fse.longitude) + 93.6250) * 111.32 * 0.7476  # cos(41.59 degrees)
        assert north_km**2 + east_km**2 <= 5.01**2, (fse.code, fse.latitude, fse.longitude)
    assert all(s.path for s in agency.sewer_segments.all())
    client.force_login(get_user_model().objects.get(username="manager"))
    shown = client.get("/map/data.json" + Q).json()["features"]
    points = [f for f in shown if f["properties"]["kind"] == "establishment"]
    assert len(points) == agency.establishments.count()
