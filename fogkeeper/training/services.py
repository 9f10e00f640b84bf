"""Writes of employee rosters and BMP trainings (see registry.services for the conventions)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction

from fogkeeper.audit.services import snapshot
from fogkeeper.reevaluation import reevaluate_on_commit
from fogkeeper.registry.devices import together
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.registry.services import (
    Actor,
    Errors,
    add_error,
    audit,
    check_model,
    check_not_future,
    record_end,
    refuse,
)

from .models import Attendance, Employee, Training


def employee_hire(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    name: str,
    hired_on: date,
    kitchen_duties: bool = True,
    contractor: bool = False,
    today: date | None = None,
    actor: Actor = None,
) -> Employee:
    """A new employee of the establishment (its code unique there), hired not after today
    (`today`, by default the local date)."""
    employee = Employee(
        establishment=establishment,
        code=code,
        name=name,
        hired_on=hired_on,
        kitchen_duties=kitchen_duties,
        contractor=contractor,
    )
    errors: Errors = {}
    check_not_future(errors, today, hired_on=hired_on)
    check_model(employee, errors)
    refuse(errors)
    with transaction.atomic():
        employee.save()
        audit("employee.hire", employee, actor)
    reevaluate_on_commit(establishment)
    return employee


def employee_leave(
    *,
    employee: Employee,
    left_on: date,
    today: date | None = None,
    actor: Actor = None,
    reason: str = "",
) -> Employee:
    """`left_on` is the first day the employee no longer works there: not before the hiring,
    not after today (`today`, by default the local date)."""
    errors: Errors = {}
    check_not_future(errors, today, left_on=left_on)
    try:
        together(
            errors,
            lambda: record_end(
                employee,
                field="left_on",
                on=left_on,
                started_on=employee.hired_on,
                started="the hiring",
                ended="left",
                action="employee.leave",
                actor=actor,
                reason=reason,
            ),
        )
    except ValidationError:
        employee.refresh_from_db()
        raise
    reevaluate_on_commit(employee.establishment)
    return employee


def employee_update(
    *,
    employee: Employee,
    name: str,
    kitchen_duties: bool,
    contractor: bool,
    actor: Actor = None,
    reason: str = "",
) -> Employee:
    """The employee's name, kitchen duties and whether a contractor, as they are now (who
    has kitchen duties must be trained: RULES.md 7); the audit row keeps what they were."""
    errors: Errors = {}
    if not name.strip():
        add_error(errors, "name", "The employee needs a name.")
    before = snapshot(employee)
    employee.name = name.strip()
    employee.kitchen_duties, employee.contractor = kitchen_duties, contractor
    check_model(employee, errors)
    if errors:
        employee.refresh_from_db()
    refuse(errors)
    if snapshot(employee) == before:
        return employee
    with transaction.atomic():
        employee.save()
        audit("employee.update", employee, actor, before=before, reason=reason)
    reevaluate_on_commit(employee.establishment)
    return employee


def training_record(
    *,
    establishment: FoodServiceEstablishment,
    code: str,
    date: date,
    attendees: Sequence[Employee],
    unsigned: Collection[Employee] = (),
    topic: str = "",
    trainer: str = "",
    today: date | None = None,
    actor: Actor = None,
) -> Training:
    """A training session and who attended it; every attendee signed the log except those in
    `unsigned`. Attendees are employees of the establishment, employed on the day, which is
    not after `today` (by default the agency's today)."""
    training = Training(establishment=establishment, code=code, date=date, trainer=trainer)
    if topic:
        training.topic = topic
    errors: Errors = {}
    check_not_future(errors, today or establishment.agency.today(), date=date)
    if not attendees:
        add_error(errors, "attendees", "A training needs at least one attendee.")
    seen: set[int] = set()
    for e in attendees:
        if e.establishment_id != establishment.pk:
            add_error(errors, "attendees", f"{e} is not an employee of {establishment}.")
        elif e.hired_on > date or (e.left_on is not None and e.left_on <= date):
            add_error(errors, "attendees", f"{e} was not employed on {date}.")
        if e.pk in seen:
            add_error(errors, "attendees", f"{e} is listed twice.")
        seen.add(e.pk)
    for e in unsigned:
        if e.pk not in seen:
            add_error(errors, "unsigned", f"{e} is not among the attendees.")
    check_model(training, errors)
    refuse(errors)
    unsigned_ids = {e.pk for e in unsigned}
    with transaction.atomic():
        training.save()
        rows = Attendance.objects.bulk_create(
            Attendance(training=training, employee=e, signed=e.pk not in unsigned_ids)
            for e in attendees
        )
        after = snapshot(training)
        after["attendance"] = [{"employee_id": a.employee_id, "signed": a.signed} for a in rows]
        audit("training.record", training, actor, after=after)
    reevaluate_on_commit(establishment)
    return training
