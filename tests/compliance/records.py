"""One establishment with a record of every kind, and its case file written by hand."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from fogkeeper.incidents.models import Incident
from fogkeeper.registry.models import OperationChange, Operator, OperatorTenure
from fogkeeper.training.models import Attendance
from tests.records import (
    d,
    make_device,
    make_employee,
    make_establishment,
    make_hauler,
    make_incident,
    make_inspection,
    make_permit,
    make_pickup,
    make_service,
    make_training,
)

AS_OF = date(2025, 6, 30)


def make_pier_taqueria(agency, code: str = "FSE-0042"):
    """Pier Taqueria: taken over by a new operator whose permit is not issued yet, with a
    removed device, an unlicensed hauler, a former employee and an unsigned attendance."""
    fse = make_establishment(
        agency,
        code=code,
        operator="Pier Foods LLC",
        operator_since="2012-04-01",
        opened_on="2012-04-01",
        remodeled_on="2023-03-01",
    )
    _take_over(fse, agency, code)
    gi, trap, old = _devices(fse)
    _pump_outs(fse, agency, code, gi, trap, old)
    _staff(fse)
    _inspection(fse, gi, trap, old)
    make_incident(
        fse, f"{code}-SSO-3", "2025-04-02", kind="overflow", attributed=True, gallons=Decimal("120")
    )
    Incident.objects.create(agency=agency, code=f"{code}-SSO-X", date=d("2025-04-03"))
    return fse


def _take_over(fse, agency, code: str) -> None:
    """Harbor Eats took over on 2025-02-01, when Pier Foods' permit ended; a remodel was
    notified, an expansion was not."""
    OperatorTenure.objects.filter(establishment=fse).update(until=d("2025-01-31"))
    OperatorTenure.objects.create(
        establishment=fse,
        operator=Operator.objects.create(agency=agency, name="Harbor Eats Inc"),
        since=d("2025-02-01"),
    )
    make_permit(
        fse,
        f"{code}-P1",
        issued_on="2016-01-15",
        expires_on="2020-12-31",
        holder="Pier Foods LLC",
        status="superseded",
    )
    make_permit(
        fse,
        f"{code}-P2",
        issued_on="2021-01-15",
        expires_on="2026-01-14",
        service_frequency_days=90,
        holder="Pier Foods LLC",
        status="ended",
        ended_on="2025-02-01",
    )
    OperationChange.objects.create(
        establishment=fse, date=d("2025-09-01"), kind="remodel", notified_on=d("2025-08-01")
    )
    OperationChange.objects.create(establishment=fse, date=d("2024-05-01"), kind="expansion")


def _devices(fse):
    """The interceptor in use, a trap on a 30-day schedule and the interceptor it replaced."""
    gi = make_device(
        fse,
        "GI-1",
        "interceptor",
        installed_on="2012-03-20",
        capacity_gallons=Decimal("1000"),
        design_depth_inches=Decimal("48"),
        compartments=2,
        manhole_diameter_inches=Decimal("24"),
    )
    trap = make_device(fse, "GT-2", "trap", installed_on="2020-05-01", service_frequency_days=30)
    old = make_device(
        fse, "GI-0", "interceptor", installed_on="2005-01-01", removed_on=d("2012-03-20")
    )
    return gi, trap, old


def _pump_outs(fse, agency, code: str, gi, trap, old) -> None:
    """Pump-outs by a licensed hauler and a partial one by an unlicensed hauler, and two
    grease pickups."""
    coastal = make_hauler(agency, f"{code}-H1", name="Coastal Pumping")
    rogue = make_hauler(agency, f"{code}-H2", name="Rogue Vac", licensed=False)
    make_hauler(agency, f"{code}-H3", name="Unused Hauler")
    make_service(old, f"{code}-M0", "2011-06-01", hauler=coastal)
    make_service(
        gi,
        f"{code}-M1",
        "2025-03-02",
        hauler=coastal,
        gallons_removed=Decimal("980"),
        fog_inches=Decimal("4.00"),
        solids_inches=Decimal("6.50"),
        final_chamber_floating_oil=False,
        sludge_to_outlet_inches=Decimal("18"),
    )
    make_service(trap, f"{code}-M2", "2025-04-01", hauler=rogue, full_pump_out=False)
    make_pickup(fse, "2025-05-30", hauler=coastal, gallons=Decimal("55"))
    make_pickup(fse, "2025-06-15")


def _staff(fse) -> None:
    """Ana, trained; Luis, a contractor who has left, on the log unsigned."""
    ana = make_employee(fse, "E-1", "2024-11-04", name="Ana Ruiz")
    luis = make_employee(
        fse,
        "E-2",
        "2023-01-09",
        name="Luis Soto",
        left_on="2025-02-01",
        kitchen_duties=False,
        contractor=True,
    )
    training = make_training(fse, "T-7", "2025-01-10", [ana])
    Attendance.objects.create(training=training, employee=luis, signed=False)


def _inspection(fse, gi, trap, old) -> None:
    """An inspection with a missing drain screen, a trap in poor condition and readings of
    the interceptor in use and the removed one."""
    make_inspection(
        fse,
        "I-55",
        "2025-02-11",
        answers=[
            ("bmp.signage", True),
            ("bmp.drain_screens", False),
            ("gcd.trap_condition", False, trap),
            ("gcd.trap_condition", True, old),
        ],
        measurements=[
            (
                gi,
                {
                    "fog_inches": Decimal("3"),
                    "solids_inches": Decimal("5.25"),
                    "final_chamber_floating_oil": False,
                    "sludge_to_outlet_inches": Decimal("20"),
                },
            ),
            (old, {"fog_inches": Decimal("1")}),
        ],
    )


def pier_taqueria_case(jurisdiction: str = "san-clemente", code: str = "FSE-0042") -> dict:
    """The case file of make_pier_taqueria's records on AS_OF, as a person would write it."""
    return {
        "jurisdiction": jurisdiction,
        "as_of": "2025-06-30",
        "establishment": _pier_establishment(code),
        "permit": {
            "number": f"{code}-P2",
            "holder": "Pier Foods LLC",
            "issued_on": "2021-01-15",
            "expires_on": "2026-01-14",
            "service_frequency_days": 90,
        },
        "devices": [
            {
                "id": "GI-1",
                "kind": "interceptor",
                "installed_on": "2012-03-20",
                "capacity_gallons": 1000,
                "design_depth_inches": 48,
                "compartments": 2,
                "manhole_diameter_inches": 24,
            },
            {
                "id": "GT-2",
                "kind": "trap",
                "installed_on": "2020-05-01",
                "service_frequency_days": 30,
            },
        ],
        "haulers": [
            {"id": f"{code}-H1", "name": "Coastal Pumping", "licensed": True},
            {"id": f"{code}-H2", "name": "Rogue Vac", "licensed": False},
        ],
        **_pier_maintenance(code),
        **_pier_staff(),
        **_pier_inspections_and_incidents(code),
        "enforcement": [],
    }


def _pier_establishment(code: str) -> dict:
    """Pier Taqueria itself: its operator and changes of operation."""
    return {
        "id": code,
        "name": "Pier Taqueria",
        "category": "full_service",
        "on_public_sewer": True,
        "opened_on": "2012-04-01",
        "operator": {"name": "Harbor Eats Inc", "since": "2025-02-01"},
        "remodeled_on": "2023-03-01",
        "food_grinder": False,
        "variance_granted": False,
        "changes": [
            {"date": "2024-05-01", "kind": "expansion"},
            {"date": "2025-09-01", "kind": "remodel", "notified_on": "2025-08-01"},
        ],
    }


def _pier_maintenance(code: str) -> dict:
    """Its pump-outs and waste cooking oil pickups."""
    return {
        "services": [
            {
                "id": f"{code}-M1",
                "device": "GI-1",
                "date": "2025-03-02",
                "hauler": f"{code}-H1",
                "full_pump_out": True,
                "gallons_removed": 980,
                "fog_inches": 4.0,
                "solids_inches": 6.5,
                "final_chamber_floating_oil": False,
                "sludge_to_outlet_inches": 18,
            },
            {
                "id": f"{code}-M2",
                "device": "GT-2",
                "date": "2025-04-01",
                "hauler": f"{code}-H2",
                "full_pump_out": False,
            },
        ],
        "yellow_grease_pickups": [
            {"date": "2025-05-30", "hauler": f"{code}-H1", "gallons": 55},
            {"date": "2025-06-15"},
        ],
    }


def _pier_staff() -> dict:
    """Its employees and their training."""
    return {
        "employees": [
            {
                "id": "E-1",
                "name": "Ana Ruiz",
                "hired_on": "2024-11-04",
                "kitchen_duties": True,
                "contractor": False,
            },
            {
                "id": "E-2",
                "name": "Luis Soto",
                "hired_on": "2023-01-09",
                "left_on": "2025-02-01",
                "kitchen_duties": False,
                "contractor": True,
            },
        ],
        "trainings": [
            {
                "id": "T-7",
                "date": "2025-01-10",
                "attendees": [
                    {"employee": "E-1", "signed": True},
                    {"employee": "E-2", "signed": False},
                ],
            }
        ],
    }


def _pier_inspections_and_incidents(code: str) -> dict:
    """Its inspection and its overflow."""
    return {
        "inspections": [
            {
                "id": "I-55",
                "date": "2025-02-11",
                "measurements": [
                    {
                        "device": "GI-1",
                        "fog_inches": 3,
                        "solids_inches": 5.25,
                        "final_chamber_floating_oil": False,
                        "sludge_to_outlet_inches": 20,
                    },
                ],
                "answers": [
                    {"item": "bmp.drain_screens", "compliant": False},
                    {"item": "bmp.signage", "compliant": True},
                    {"item": "gcd.trap_condition", "compliant": False, "device": "GT-2"},
                ],
            }
        ],
        "incidents": [
            {
                "id": f"{code}-SSO-3",
                "date": "2025-04-02",
                "kind": "overflow",
                "attributed": True,
                "gallons": 120,
            },
        ],
    }


OIL_AND_GREASE_LIMIT = {"oil_and_grease": {"max": 100, "unit": "mg/L"}}


def make_vista_hermosa_ramen(agency, code: str = "FSE-0077"):
    """Vista Hermosa Ramen: its Discharge Permit limits oil and grease to 100 mg/L; one
    interceptor in service and one removed."""
    fse = make_establishment(
        agency,
        code=code,
        name="Vista Hermosa Ramen",
        address="1001 Avenida Vista Hermosa",
        operator="Hermosa Noodle Co",
        opened_on="2018-05-01",
    )
    make_permit(
        fse,
        f"{code}-P1",
        issued_on="2024-03-01",
        expires_on="2029-02-28",
        service_frequency_days=90,
        discharge_limits=OIL_AND_GREASE_LIMIT,
    )
    make_device(
        fse,
        "GI-1",
        "interceptor",
        installed_on="2018-04-20",
        capacity_gallons=Decimal("1000"),
        design_depth_inches=Decimal("48"),
    )
    make_device(fse, "GI-0", "interceptor", installed_on="2010-01-01", removed_on=d("2018-04-20"))
    return fse
