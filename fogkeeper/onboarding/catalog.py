"""Every kind of record an agency onboards, in the order they are imported: a record is read
after those it refers to (a device after its establishment, a pump-out after its device and
its hauler, an attendance after its training and its employee)."""

from __future__ import annotations

from .history import APPROVED_EXCEPTIONS, INCIDENTS, OPERATION_CHANGES, PERMITS, PICKUPS, PUMPOUTS
from .kinds import DEVICES, ESTABLISHMENTS, HAULERS, Kind
from .onsite import (
    ATTENDANCE,
    CHECKLIST_ANSWERS,
    EMPLOYEES,
    INSPECTIONS,
    MEASUREMENTS,
    SAMPLES,
    TRAININGS,
)

KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        ESTABLISHMENTS,
        HAULERS,
        DEVICES,
        APPROVED_EXCEPTIONS,
        OPERATION_CHANGES,
        PERMITS,
        PUMPOUTS,
        PICKUPS,
        EMPLOYEES,
        TRAININGS,
        ATTENDANCE,
        INSPECTIONS,
        MEASUREMENTS,
        CHECKLIST_ANSWERS,
        SAMPLES,
        INCIDENTS,
    )
}
