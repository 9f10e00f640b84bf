"""What the API shows an outside role (operator, hauler, owner) of each record: exactly what the
role's portal shows of it (ACCESS.md), field by field, and nothing else. Staff roles are shown
every field. Decided here and only here; the serializers, the views and the schema ask. What
of an inspection the operator is shown is fogkeeper.inspections.shown's, which the receipt
emailed to the operator follows too; the table takes its inspection entry from there.

SHOWN names, for each outside role and endpoint (the router's basename), each JSON key the
role gets ("status.as_of": a key of a nested object or of each item of a nested list) and the
portal page that shows it (a URL name), or HANDLE for the API's own ids. An endpoint missing
from a role's table is one policy.READS does not let it read (403). tests/access/test_fields.py
holds the table to both: the keys each role's token gets, and the values on the pages named.
"""

from __future__ import annotations

import re

from django.db.models import Q

from fogkeeper.inspections.shown import OPERATOR as inspection_fields
from fogkeeper.web.common import policy
from fogkeeper.web.models import STAFF_ROLES

HANDLE = "api"  # the record's id: how the API names it (the portals use codes and links)

_OP_HOME, _OP = "portal:operator", "portal:operator_establishment"
_OWN_HOME, _OWN = "portal:owner", "portal:owner_establishment"
_H_HOME, _H_CUSTOMER = "portal:hauler", "portal:hauler_customer"


def _establishment(home: str, page: str) -> dict[str, str]:
    """The operator's and the owner's: its name and address, status and what comes due."""
    return {
        "id": HANDLE,
        "code": home,
        "name": home,
        "address": home,
        "city": page,
        "status.status": home,  # "Compliant", "Not compliant", ...
        "status.as_of": page,
        "status.open_violations": home,
        "status.next_due": home,
        "schedule.obligation": page,  # said in words: "Pump-out of GI-1"
        "schedule.subject": page,  # an employee by name
        "schedule.due": page,
        "schedule.citation": page,
    }


def _permit(page: str) -> dict[str, str]:
    """The permit in force, and every permit once there was more than one."""
    return {
        "id": HANDLE,
        "establishment": page,
        "number": page,
        "holder": page,
        "status": page,
        "issued_on": page,
        "expires_on": page,
        "renewal_applied_on": page,
        "ended_on": page,
    }


def _finding(page: str) -> dict[str, str]:
    """The open findings: no evidence, due date or dates seen."""
    return {
        "id": HANDLE,
        "establishment": page,
        "rule": page,  # its title in the pack's words
        "subject": page,
        "severity": page,
        "open": page,  # "Open findings"
        "since": page,
        "citation": page,
        "message": page,
    }


def _inspection(page: str) -> dict[str, str]:
    """The results, as inspections.shown decides for every door (the receipt too): never the
    inspectors' notes; a device by the API's id, on the page by its code."""
    fields = {"id": HANDLE, "establishment": page}
    return fields | {k: HANDLE if k.endswith(".device") else page for k in inspection_fields}


SHOWN: dict[str, dict[str, dict[str, str]]] = {
    "operator": {
        "establishment": _establishment(_OP_HOME, _OP),
        "device": {
            "id": HANDLE,
            "establishment": _OP,
            "code": _OP,
            "kind": _OP,
            "installed_on": _OP,
            "removed_on": _OP,
            "location": _OP,
            "capacity_gallons": _OP,
            "design_depth_inches": _OP,
            "service_frequency_days": _OP,  # "Pump out every 90 days"
        },
        "permit": _permit(_OP),
        "service": {  # never the hauler's data: who, notes, source, disputes
            "id": HANDLE,
            "establishment": _OP,
            "device": HANDLE,
            "device_code": _OP,
            "manifest_number": _OP,
            "date": _OP,
            "full_pump_out": _OP,
            "gallons_removed": _OP,
            "fog_inches": _OP,
            "solids_inches": _OP,
        },
        "training": {
            "id": HANDLE,
            "establishment": _OP,
            "code": HANDLE,  # the portal names a training by its date and topic, not its code
            "date": _OP,
            "topic": _OP,
            "trainer": _OP,
            "attendees": _OP,  # each attendee by name, "(not signed)" if not
        },
        "inspection": _inspection(_OP),
        "finding": _finding(_OP),
    },
    "owner": {
        "establishment": _establishment(_OWN_HOME, _OWN),
        "permit": _permit(_OWN),
        "finding": _finding(_OWN),
    },
    "hauler": {
        "establishment": {  # name, address and when its devices' next pump-outs are due
            "id": HANDLE,
            "code": _H_HOME,
            "name": _H_HOME,
            "address": _H_HOME,
            "city": _H_HOME,
            "zip_code": _H_CUSTOMER,
            "schedule.obligation": _H_HOME,  # "Next pump-out due"
            "schedule.subject": _H_HOME,  # the device
            "schedule.due": _H_HOME,
        },
        "device": {  # the devices in place
            "id": HANDLE,
            "establishment": _H_CUSTOMER,
            "code": _H_HOME,
            "kind": _H_HOME,
            "capacity_gallons": _H_HOME,
            "service_frequency_days": _H_HOME,  # "every 90 days"
        },
        "service": {  # its own (also on portal:hauler_submissions, those it submitted)
            "id": HANDLE,
            "establishment": _H_CUSTOMER,
            "device": HANDLE,
            "device_code": _H_CUSTOMER,
            "manifest_number": _H_CUSTOMER,
            "date": _H_CUSTOMER,
            "full_pump_out": _H_CUSTOMER,  # "(partial)"
            "gallons_removed": _H_CUSTOMER,
            "fog_inches": _H_CUSTOMER,
            "solids_inches": _H_CUSTOMER,
            "source": _H_CUSTOMER,  # "How"
            "disputed": _H_CUSTOMER,  # "Disputed by the agency since ..."
        },
    },
}
OUTSIDE_ROLES = tuple(SHOWN)

# Which records of an endpoint the role is shown, where not every one it reaches: the portals
# list a hauler's customers' devices in place only and an operator's or owner's open findings.
ROWS: dict[tuple[str, str], Q] = {
    ("hauler", "device"): Q(removed_on__isnull=True),
    ("operator", "finding"): Q(open=True),
    ("owner", "finding"): Q(open=True),
}

# The obligations of an establishment's schedule a role is shown, where not all of them: a
# hauler its customers' pump-outs ("gcd.service"), not their trainings, permit or inspections.
SCHEDULE: dict[str, frozenset[str]] = {"hauler": frozenset({"gcd.service"})}

# The key a list filter reads, where it is not the filter's own name (less _from, _to).
_FILTERED = {
    "establishment": {"status": "status.status", "open": "closed_on"},
    "device": {"installed": "removed_on"},
    "permit": {"expires_from": "expires_on", "expires_to": "expires_on"},
}


def role_of(user, agency) -> str | None:
    """The role whose table applies: None for staff (every field), else the outside role."""
    found = policy.role(user, agency)
    return None if found in STAFF_ROLES else found


def keys(role: str | None, endpoint: str) -> frozenset[str] | None:
    """The keys `role` is shown of `endpoint`'s records; None: every one (staff)."""
    if role is None:
        return None
    return frozenset(SHOWN.get(role, {}).get(endpoint, {}))


def rows(role: str | None, endpoint: str) -> Q | None:
    return ROWS.get((role, endpoint)) if role else None


def obligations(role: str | None) -> frozenset[str] | None:
    return SCHEDULE.get(role) if role else None


def has(shown: frozenset[str] | None, path: str) -> bool:
    """Whether the key at `path` is shown, itself or some key inside it."""
    return shown is None or path in shown or any(k.startswith(f"{path}.") for k in shown)


def prune(data, shown: frozenset[str] | None, prefix: str = ""):
    """`data` (a serializer's output) with only the keys shown."""
    if shown is None:
        return data
    if isinstance(data, list):
        return [prune(item, shown, prefix) for item in data]
    if not isinstance(data, dict):
        return data
    return {
        key: prune(value, shown, f"{prefix}{key}.")
        for key, value in data.items()
        if has(shown, f"{prefix}{key}")
    }


def filtered_key(endpoint: str, parameter: str) -> str:
    """The key a list filter `parameter` of `endpoint` reads."""
    found = _FILTERED.get(endpoint, {}).get(parameter)
    return found or re.sub(r"_(from|to)$", "", parameter)


def optional(endpoint: str, prefix: str, names) -> set[str]:
    """Of the fields `names` of `endpoint`'s records (at `prefix`, "" or "status."), those some
    outside role that reads the endpoint is not shown: optional in the API's schema."""
    readers = [table[endpoint] for table in SHOWN.values() if endpoint in table]
    return {name for name in names if not all(has(frozenset(t), prefix + name) for t in readers)}


# The schema's component of each serializer: its endpoint and where its keys are in a record.
COMPONENTS = {
    "EstablishmentSerializer": ("establishment", ""),
    "StatusSerializer": ("establishment", "status."),
    "ScheduleItemSerializer": ("establishment", "schedule."),
    "DeviceSerializer": ("device", ""),
    "PermitSerializer": ("permit", ""),
    "ServiceSerializer": ("service", ""),
    "TrainingSerializer": ("training", ""),
    "InspectionSerializer": ("inspection", ""),
    "AnswerSerializer": ("inspection", "answers."),
    "MeasurementSerializer": ("inspection", "measurements."),
    "IncidentSerializer": ("incident", ""),
    "FindingSerializer": ("finding", ""),
}
