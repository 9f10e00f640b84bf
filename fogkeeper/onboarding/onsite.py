"""The kinds of record of what was done on site: employees, their trainings and who attended
(and signed), the agency's inspections with the devices measured and the checklist answered,
the samples of the discharge. Each is found again by its code at its establishment;
attendance, a measurement and an answer by the codes of what they belong to."""

from __future__ import annotations

from .history import check_readings_fit, readings
from .kinds import (
    Column,
    Kind,
    checklist_item,
    day,
    device_column,
    establishment_column,
    number,
    text,
    yes_no,
)
from .rows import Row


def _fields(row: Row, names: tuple[str, ...], **more) -> dict:
    return {k: row.values[k] for k in names if k in row.values} | more


def _code(meaning: str, example: str) -> Column:
    return Column("code", True, meaning, text(40), example)


def _employee(row: Row) -> dict | None:
    fse = row.establishment()
    row.not_before("left_on", row.values.get("hired_on"), "the hiring")
    if fse is None or row.problems:
        return None
    names = ("name", "hired_on", "left_on", "kitchen_duties", "contractor")
    return _fields(row, names, establishment_id=fse.pk)


EMPLOYEES = Kind(
    "employees",
    "Employees",
    ("establishment_code", "code"),
    (
        establishment_column(),
        _code("the employee's id at that establishment", "E-1"),
        Column("name", True, "the employee's name", text(200), "Ana Ruiz"),
        Column("hired_on", True, "the first day of work", day, "2024-01-15"),
        Column("left_on", False, "the first day no longer employed", day),
        Column(
            "kitchen_duties", False, "yes or no: works in the kitchen; blank: yes", yes_no(True)
        ),
        Column("contractor", False, "yes or no: a contractor; blank: no", yes_no(False)),
    ),
    model="training.Employee",
    agency="establishment__agency",
    build=_employee,
)


def _dated_record(row: Row, names: tuple[str, ...]) -> dict | None:
    fse = row.establishment()
    if fse is None or row.problems:
        return None
    return _fields(row, names, establishment_id=fse.pk)


TRAININGS = Kind(
    "trainings",
    "Trainings in kitchen BMPs",
    ("establishment_code", "code"),
    (
        establishment_column(),
        _code("the training's id at that establishment", "T-1"),
        Column("date", True, "the day it was given", day, "2025-03-01"),
        Column("topic", False, "what it taught; blank: kitchen BMPs and FOG control", text(200)),
        Column("trainer", False, "who gave it", text(200)),
    ),
    model="training.Training",
    agency="establishment__agency",
    build=lambda row: _dated_record(row, ("date", "topic", "trainer")),
)


def _attendance(row: Row) -> dict | None:
    training, employee = row.training(), row.employee()
    row.establishment()
    if training is None or employee is None or row.problems:
        return None
    return _fields(row, ("signed",), training_id=training.pk, employee_id=employee.pk)


ATTENDANCE = Kind(
    "attendance",
    "Who attended a training",
    ("establishment_code", "training_code", "employee_code"),
    (
        establishment_column("training__establishment__code"),
        Column(
            "training_code",
            True,
            "the training's id at that establishment",
            text(40),
            "T-1",
            path="training__code",
        ),
        Column(
            "employee_code",
            True,
            "the employee's id at that establishment",
            text(40),
            "E-1",
            path="employee__code",
        ),
        Column("signed", False, "yes or no: signed the attendance log; blank: yes", yes_no(True)),
    ),
    model="training.Attendance",
    agency="training__establishment__agency",
    build=_attendance,
)

INSPECTIONS = Kind(
    "inspections",
    "Inspections",
    ("establishment_code", "code"),
    (
        establishment_column(),
        _code("the inspection's id at that establishment", "I-1"),
        Column("date", True, "the day of the inspection", day, "2025-03-01"),
        Column("notes", False, "notes", text(5000)),
    ),
    model="inspections.Inspection",
    agency="establishment__agency",
    build=lambda row: _dated_record(row, ("date", "notes")),
)


def _of_inspection(row: Row, names: tuple[str, ...], device_required: bool) -> dict | None:
    inspection, device = row.inspection(), row.device()
    row.establishment()
    if device_required:  # a measurement
        check_readings_fit(row, device)
    if inspection is None or row.problems or (device_required and device is None):
        return None
    return _fields(row, names, inspection_id=inspection.pk, device_id=device.pk if device else None)


def _inspection_column() -> Column:
    return Column(
        "inspection_code",
        True,
        "the inspection's id at that establishment",
        text(40),
        "I-1",
        path="inspection__code",
    )


_READINGS = ("fog_inches", "solids_inches", "final_chamber_floating_oil", "sludge_to_outlet_inches")

MEASUREMENTS = Kind(
    "measurements",
    "Devices measured at inspections",
    ("establishment_code", "inspection_code", "device_code"),
    (
        establishment_column("inspection__establishment__code"),
        _inspection_column(),
        device_column(True),
        *readings(),
    ),
    model="inspections.Measurement",
    agency="inspection__establishment__agency",
    build=lambda row: _of_inspection(row, _READINGS, device_required=True),
)

CHECKLIST_ANSWERS = Kind(
    "checklist_answers",
    "Checklist answers of inspections",
    ("establishment_code", "inspection_code", "item", "device_code"),
    (
        establishment_column("inspection__establishment__code"),
        _inspection_column(),
        Column("item", True, "one of the ordinance's checklist items", checklist_item),
        device_column(False),
        Column("compliant", True, "yes or no", yes_no(None), "yes"),
        Column("note", False, "the inspector's note", text(5000)),
    ),
    model="inspections.ChecklistAnswer",
    agency="inspection__establishment__agency",
    build=lambda row: _of_inspection(row, ("item", "compliant", "note"), device_required=False),
)


def _sample(row: Row) -> dict | None:
    fse, device = row.establishment(), row.device()
    if fse is None or row.problems:
        return None
    names = ("date", "parameter", "value", "unit", "method")
    return _fields(row, names, establishment_id=fse.pk, device_id=device.pk if device else None)


SAMPLES = Kind(
    "samples",
    "Samples of the discharge",
    ("establishment_code", "code"),
    (
        establishment_column(),
        _code("the sample's id at that establishment", "S-1"),
        device_column(False),
        Column("date", True, "the day it was taken", day, "2025-03-01"),
        Column(
            "parameter", True, "what was measured (oil_and_grease...)", text(60), "oil_and_grease"
        ),
        Column("value", True, "the value measured", number(3, "999999999.999"), "42"),
        Column("unit", True, "its unit", text(20), "mg/L"),
        Column("method", False, "the method of analysis", text(80)),
    ),
    model="inspections.Sample",
    agency="establishment__agency",
    build=_sample,
)
