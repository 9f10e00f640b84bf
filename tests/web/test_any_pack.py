"""A third ordinance runs the whole application by data alone: the imaginary-town pack
(tests/rules/packs/, loaded through FOGKEEPER_PACKS) gets a demo agency, its sweep, every
staff page, an inspection and a pump-out recorded through the pages, and a letter (a pack
made by `fogkeeper packs new`: tests/web/test_new_pack.py).

The demo is loaded once for the module (a module-scoped transaction, rolled back when the
module ends); each test works in a savepoint of its own, on the agency read afresh. The
tests share one pytest-xdist worker, so that loading it once is once in the whole run."""

from collections.abc import Iterator
from datetime import date
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.enforcement.models import EnforcementCase, Letter
from fogkeeper.enforcement.services import action_take
from fogkeeper.inspections.models import Inspection
from fogkeeper.maintenance.models import Service
from fogkeeper.registry.models import Agency, GreaseControlDevice, Hauler
from fogkeeper.registry.services import device_install
from fogkeeper.rules.packs import default_registry
from tests import databases

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("any-pack")]

PACKS = Path(__file__).resolve().parent.parent / "rules" / "packs"
PACK = "imaginary-town"
AS_OF = date(2026, 6, 30)
Q = f"?as_of={AS_OF}"


@pytest.fixture(scope="module")
def loaded(django_db_setup, django_db_blocker) -> Iterator[int]:
    """The demo of the imaginary town, swept, for the module: its agency's id."""
    with (
        pytest.MonkeyPatch.context() as mp,
        databases.rolled_back(django_db_blocker, as_committed=True),
    ):
        mp.setenv("FOGKEEPER_PACKS", str(PACKS))
        call_command("demo", "--pack", PACK, "--as-of", AS_OF.isoformat(), stdout=StringIO())
        databases.check_constraints()
        yield Agency.objects.get(pack=PACK).pk


@pytest.fixture
def town(monkeypatch, loaded) -> Agency:
    """The imaginary town's demo agency, its pack known (FOGKEEPER_PACKS)."""
    monkeypatch.setenv("FOGKEEPER_PACKS", str(PACKS))
    return Agency.objects.get(pk=loaded)


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
