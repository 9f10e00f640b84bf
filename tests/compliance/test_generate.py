"""`manage.py generate`: a synthetic program at a city's proportions."""

import shutil
from datetime import UTC, date, datetime
from io import StringIO
from pathlib import Path

import pytest
import time_machine
import yaml
from django.core.management import CommandError, call_command

from fogkeeper.audit.models import AuditEvent
from fogkeeper.compliance.models import Finding
from fogkeeper.inspections.models import Inspection
from fogkeeper.maintenance.models import Service
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import Agency, GreaseControlDevice
from fogkeeper.rules import packs
from fogkeeper.rules.packs import PACKS_DIR, PackRegistry
from fogkeeper.training.models import Attendance, Employee

pytestmark = pytest.mark.django_db

AS_OF = date(2026, 11, 30)


def generate(n: int = 50, years: int = 2, code: str = "synthetic", **kw) -> Agency:
    out = StringIO()
    call_command(
        "generate",
        establishments=n,
        years=years,
        as_of=AS_OF.isoformat(),
        agency_code=code,
        stdout=out,
        **{"pack": "san-clemente", **kw},
    )
    assert f"/{n:,} establishments" in out.getvalue()
    return Agency.objects.get(code=code)


def test_it_makes_the_establishments_asked_for():
    agency = generate()
    assert agency.establishments.count() == 50
    assert agency.pack == "san-clemente"


def test_it_asks_which_pack_when_the_deployment_knows_several():
    with pytest.raises(CommandError, match=r"name the jurisdiction pack with --pack \(known: "):
        call_command("generate", establishments=5, years=1, stdout=StringIO())
    assert not Agency.objects.exists()


def test_it_generates_on_the_only_pack_the_deployment_knows(monkeypatch):
    only = PackRegistry([PACKS_DIR / "town-10-02"])
    monkeypatch.setattr(packs, "default_registry", lambda extra=None: only)
    call_command("generate", establishments=5, years=1, as_of="2026-06-30", stdout=StringIO())
    assert Agency.objects.get(code="synthetic").pack == "town-10-02"


def test_it_generates_up_to_today_in_the_packs_time_zone():
    out = StringIO()
    # 22:00 on June 30 in California is 01:00 on July 1 in Aurora, Ohio
    with time_machine.travel(datetime(2026, 7, 1, 5, 0, tzinfo=UTC), tick=False):
        call_command("generate", establishments=5, years=1, pack="us-oh-aurora", stdout=out)
    assert "history up to 2026-07-01 (pack us-oh-aurora" in out.getvalue()


def test_it_makes_about_one_and_a_half_devices_per_establishment():
    agency = generate()
    devices = GreaseControlDevice.objects.filter(establishment__agency=agency).count()
    assert 1.1 <= devices / 50 <= 1.7


def test_it_pumps_the_devices_out_every_30_to_180_days():
    agency = generate()
    devices = GreaseControlDevice.objects.filter(establishment__agency=agency)
    services = Service.objects.filter(device__in=devices)
    per_device_year = services.count() / devices.count() / 2
    assert 2 <= per_device_year <= 12
    assert not services.filter(date__gt=AS_OF).exists()
    frequencies = set(devices.values_list("service_frequency_days", flat=True))
    frequencies |= set(Permit.objects.values_list("service_frequency_days", flat=True))
    assert frequencies - {None} <= {30, 60, 90, 120, 180}


def test_it_gives_about_ten_employees_four_inspections_and_trainings_each():
    agency = generate()
    assert 8 <= Employee.objects.filter(establishment__agency=agency).count() / 50 <= 12
    assert 2 <= Inspection.objects.filter(establishment__agency=agency).count() / 50 <= 6
    assert Attendance.objects.filter(employee__establishment__agency=agency).exists()


def test_it_is_the_same_program_for_the_same_seed():
    a, b = generate(code="one"), generate(code="two")

    def program(agency):
        return list(agency.establishments.order_by("code").values_list("code", "name", "opened_on"))

    assert program(a) == program(b)
    assert program(a) != program(generate(code="three", seed=2))


def test_it_writes_an_audit_row():
    agency = generate()
    event = AuditEvent.objects.get(action="generate.load")
    assert event.agency == agency and event.after["establishments"] == 50


def test_it_refuses_an_agency_code_already_taken():
    generate()
    with pytest.raises(CommandError, match="already exists"):
        generate()


def test_it_makes_case_files_the_sweep_reads_without_errors():
    from fogkeeper.compliance.runs import sweep_agency

    result = sweep_agency(generate(pack="town-10-02"), as_of=AS_OF)
    assert result.establishments == 50
    assert result.errors == []


IMAGINARY = Path(__file__).resolve().parent.parent / "rules" / "packs"


def imaginary_town(monkeypatch, tmp_path, checklist: list[dict] | None = None) -> Path:
    """The imaginary-town pack on FOGKEEPER_PACKS, with its own checklist if given."""
    folder = tmp_path / "packs" / "imaginary-town"
    shutil.copytree(IMAGINARY / "imaginary-town", folder)
    if checklist is not None:
        (folder / "checklist.yaml").write_text(yaml.safe_dump(checklist))
    monkeypatch.setenv("FOGKEEPER_PACKS", str(folder.parent))
    return folder


def test_it_gives_the_devices_the_packs_kinds_and_their_default_frequencies(monkeypatch, tmp_path):
    imaginary_town(monkeypatch, tmp_path)
    agency = generate(pack="imaginary-town", n=120)
    pack = agency.get_pack()
    devices = GreaseControlDevice.objects.filter(establishment__agency=agency)
    assert set(devices.values_list("kind", flat=True)) <= set(pack.device_kinds)
    weekly = pack.default_frequency("under_sink_trap", AS_OF).days_equivalent()
    under_sink = devices.filter(kind="under_sink_trap").exclude(service_frequency_days=None)
    assert set(under_sink.values_list("service_frequency_days", flat=True)) <= {
        weekly,
        round(weekly * 2 / 3),
        round(weekly / 2),
    }


def test_it_issues_permits_for_the_packs_term(monkeypatch, tmp_path):
    imaginary_town(monkeypatch, tmp_path)
    agency = generate(pack="imaginary-town")
    term = agency.get_pack().params_on(AS_OF).duration("permit.term").days_equivalent()
    permits = Permit.objects.filter(establishment__agency=agency)
    assert permits.exists()
    assert {(p.expires_on - p.issued_on).days + 1 for p in permits} == {term}


def test_it_answers_only_the_packs_checklist_however_short(monkeypatch, tmp_path):
    items = [
        {
            "item": "bmp.drain_screens",
            "question": "Screens?",
            "finding": "No screens",
            "citation": "7.40.090(A)(1)",
        },
        {
            "item": "bmp.signage",
            "question": "Signs?",
            "finding": "No signs",
            "citation": "7.40.090(A)(2)",
        },
    ]
    imaginary_town(monkeypatch, tmp_path, items)
    agency = generate(pack="imaginary-town")
    answered = set(
        Inspection.objects.filter(establishment__agency=agency).values_list(
            "answers__item", flat=True
        )
    )
    assert answered - {None} == {"bmp.drain_screens", "bmp.signage"}


def test_it_refuses_a_pack_it_does_not_know():
    with pytest.raises(CommandError, match="unknown jurisdiction pack 'atlantis'"):
        generate(pack="atlantis")


def test_it_samples_the_discharge_where_the_pack_sets_limits(monkeypatch, tmp_path):
    from fogkeeper.compliance.runs import sweep_agency
    from fogkeeper.inspections.models import Sample

    imaginary_town(monkeypatch, tmp_path)
    agency = generate(pack="imaginary-town", n=120)
    limit = agency.get_pack().params_on(AS_OF)["discharge.limits"]["oil_and_grease"]
    samples = Sample.objects.filter(establishment__agency=agency)
    assert samples.exists()
    assert set(samples.values_list("parameter", "unit", "method")) == {
        ("oil_and_grease", limit["unit"], "EPA 1664")
    }
    assert samples.filter(value__gt=limit["max"]).exists()
    assert not samples.filter(date__gt=AS_OF).exists()
    assert all(s.device.establishment_id == s.establishment_id for s in samples)
    assert sweep_agency(agency, as_of=AS_OF).errors == []
    assert Finding.objects.filter(
        establishment__agency=agency, rule="discharge.limit_exceeded"
    ).exists()


def test_it_approves_exceptions_to_the_design_limits_where_the_pack_allows(monkeypatch, tmp_path):
    from fogkeeper.compliance.runs import sweep_agency
    from fogkeeper.registry.models import ApprovedException

    imaginary_town(monkeypatch, tmp_path)
    agency = generate(pack="imaginary-town", n=200)
    pack = agency.get_pack()
    exceptions = ApprovedException.objects.filter(device__establishment__agency=agency)
    assert exceptions.exists()
    for e in exceptions:
        bound = pack.params_on(AS_OF)["gcd.design_limits"][e.device.kind][e.field]
        assert getattr(e.device, e.field) < bound["min"]
        assert pack.effective <= e.approved_on <= AS_OF
        e.full_clean()  # the pack allows them
    assert sweep_agency(agency, as_of=AS_OF).errors == []
    excepted = Finding.objects.filter(
        establishment__agency=agency, rule="gcd.design_nonconforming", open=False
    )
    assert excepted.exists()


def test_it_samples_nothing_and_approves_nothing_where_the_pack_has_neither():
    from fogkeeper.inspections.models import Sample
    from fogkeeper.registry.models import ApprovedException

    agency = generate()
    assert not Sample.objects.filter(establishment__agency=agency).exists()
    assert not ApprovedException.objects.filter(device__establishment__agency=agency).exists()
