"""The access matrix, field by field: for the operator, the hauler and the owner of agency A,
every API list and detail they may read gives exactly the keys fogkeeper.api.shown allows,
and each key's value is on the portal page the table names for it; what the table leaves out
(inspectors' notes, a pump-out's notes, a permit's conditions) is neither in the API nor on
the portal. Every record listed is of an establishment the role reaches, in its agency."""

from __future__ import annotations

import html
import re
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from fogkeeper.api import views
from fogkeeper.api.shown import HANDLE, SHOWN
from fogkeeper.inspections.models import ChecklistAnswer, Inspection
from fogkeeper.maintenance.models import Service
from fogkeeper.permits.models import Permit
from fogkeeper.web.common import policy

from .world import build_world

pytestmark = pytest.mark.django_db

ENDPOINTS = {
    "establishment": views.EstablishmentViewSet,
    "device": views.DeviceViewSet,
    "permit": views.PermitViewSet,
    "service": views.ServiceViewSet,
    "training": views.TrainingViewSet,
    "inspection": views.InspectionViewSet,
    "incident": views.IncidentViewSet,
    "finding": views.FindingViewSet,
}
# Keys whose value the portal says in words rather than as stored (a device kind's title, a
# status word, a rule's title, an employee's name for their code, "Yes" for true, the
# attendees by name): the page named shows them, but not as the API's value.
IN_WORDS = {
    "kind",
    "status.status",
    "status",
    "rule",
    "severity",
    "source",
    "schedule.obligation",
    "schedule.subject",
    "answers.item",
    "attendees",
}
# A permit's holder, status and end, and any permit but the one in force (with its renewal
# application), are in the table of permits, shown once there is more than one.
PERMITS_TABLE = {"holder", "ended_on"}
SECRETS = {
    "inspection notes": "NOTE-7Q for inspectors only",
    "answer note": "ANSWER-7Q said the cook",
    "pump-out notes": "PUMP-7Q driver remark",
    "permit conditions": "COND-7Q special condition",
}


def leaves(value, prefix: str = "") -> dict[str, list]:
    """Each key path of a record ("status.as_of", "answers.item") with its values."""
    out: dict[str, list] = {}
    items = value if isinstance(value, list) else [value]
    for item in items:
        for key, inner in item.items():
            path = f"{prefix}{key}"
            nested = (
                inner
                and isinstance(inner, dict | list)
                and isinstance(inner if isinstance(inner, dict) else inner[0], dict)
            )
            found = leaves(inner, f"{path}.") if nested else {path: [inner]}
            for k, v in found.items():
                out.setdefault(k, []).extend(v)
    return out


def written(value) -> set[str]:
    """How the portal may write a value: as stored, or a decimal without its trailing zeros."""
    text = str(value)
    forms = {text}
    if isinstance(value, str) and re.fullmatch(r"\d+\.\d+", text):
        forms.add(format(Decimal(text).normalize(), "f"))
    return forms


def plant_secrets(side) -> None:
    """Text the table keeps from outside roles, on the records of the establishments they
    reach."""
    reached = set().union(*(side.reach[r] for r in ("operator", "hauler", "owner")))
    inspections = Inspection.objects.filter(establishment__code__in=reached)
    inspections.update(notes=SECRETS["inspection notes"])
    ChecklistAnswer.objects.filter(inspection__in=inspections).update(note=SECRETS["answer note"])
    Service.objects.filter(device__establishment__code__in=reached).update(
        notes=SECRETS["pump-out notes"]
    )
    Permit.objects.filter(establishment__code__in=reached).update(
        conditions=SECRETS["permit conditions"]
    )


class Reader:
    """One outside role of agency A, through its token and its portal."""

    def __init__(self, side, role: str):
        self.side, self.role = side, role
        self.api = APIClient()
        token = Token.objects.create(user=side.users[role])
        self.api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        self.web = Client()
        self.web.force_login(side.users[role])
        self.pages: dict[str, str] = {}
        self.bodies: list[bytes] = []

    def records(self, endpoint: str):
        url, out = f"/api/v1/{endpoint}s/", []
        while url:
            response = self.api.get(url)
            if response.status_code != 200:
                return response.status_code
            self.bodies.append(response.content)
            out += response.json()["results"]
            url = response.json()["next"]
        return out

    def page(self, name: str, record: dict, endpoint: str) -> str:
        code = record["code"] if endpoint == "establishment" else record["establishment"]
        if name in ("portal:operator", "portal:owner"):
            url = reverse(name)
        elif name == "portal:hauler":
            url = f"{reverse(name)}?q={code}"
        else:
            url = reverse(name, kwargs={"code": code})
        if url not in self.pages:
            response = self.web.get(url)
            assert response.status_code == 200, f"{self.role}: {url} {response.status_code}"
            self.pages[url] = html.unescape(response.content.decode())
        return self.pages[url]


def check_record(reader: Reader, endpoint: str, record: dict, wrong: list[str]) -> None:
    table = SHOWN[reader.role][endpoint]
    found = leaves(record)
    where = f"{reader.role} {endpoint} {record['id']}"
    if {k.split(".")[0] for k in found} != {k.split(".")[0] for k in table}:
        wrong.append(f"{where}: keys {sorted(found)}, the table: {sorted(table)}")
    if set(found) - set(table) - {k.split(".")[0] for k in table}:
        wrong.append(f"{where}: nested keys {sorted(set(found) - set(table))} not in the table")
    for key, values in found.items():
        page = table.get(key, HANDLE)
        if page == HANDLE or key in IN_WORDS:
            continue
        if key == "service_frequency_days" and record.get("removed_on"):
            continue  # the portal gives no frequency to a device removed
        text = reader.page(page, record, endpoint)
        if key == "renewal_applied_on":
            continue  # shown for the permit in force only, which the demo's renewals make
            # ambiguous (a renewal keeps its number and issue date)
        line = f'id="permit">{record.get("number")}, issued {record.get("issued_on")},'
        in_force = line in text and key not in PERMITS_TABLE
        if endpoint == "permit" and not in_force and 'id="permits"' not in text:
            continue
        for value in values:
            if value in (None, "", []) or isinstance(value, bool):
                continue
            if not any(form in text for form in written(value)):
                wrong.append(f"{where}: {key}={value!r} is not on {page}")


def test_it_shows_each_outside_role_in_the_api_exactly_what_its_portal_shows():
    world = build_world()
    a = world["A"]
    plant_secrets(a)
    wrong: list[str] = []
    for role in ("operator", "hauler", "owner"):
        reader = Reader(a, role)
        for endpoint, view in ENDPOINTS.items():
            got = reader.records(endpoint)
            readable = bool(policy.READS[role] & set(view.reads))
            if endpoint not in SHOWN[role]:
                if got != 403:
                    wrong.append(f"{role} {endpoint}: {got!r}, expected 403")
                assert not readable, f"{role} may read {endpoint} but the table has no fields"
                continue
            assert readable, f"the table gives {role} fields of {endpoint}, which it may not read"
            assert isinstance(got, list) and got, f"{role} {endpoint}: {got!r}"
            for record in got:
                code = record["code"] if endpoint == "establishment" else record["establishment"]
                if code not in a.reach[role]:
                    wrong.append(f"{role} {endpoint}: lists {code}, not one it reaches")
            for record in got[:3]:
                check_record(reader, endpoint, record, wrong)
                detail = reader.api.get(f"/api/v1/{endpoint}s/{record['id']}/")
                reader.bodies.append(detail.content)
                if detail.json() != record:
                    wrong.append(f"{role} {endpoint} {record['id']}: detail differs from list")
        for secret in SECRETS.values():
            if any(secret.encode() in body for body in reader.bodies):
                wrong.append(f"{role}: the API shows {secret!r}")
            if any(secret in text for text in reader.pages.values()):
                wrong.append(f"{role}: a portal page shows {secret!r}")
    # the secrets are there to find: staff read them
    staff = Reader(a, "inspector")
    mine = a.mine("operator").code
    for endpoint in ("inspection", "service", "permit"):
        staff.bodies.append(staff.api.get(f"/api/v1/{endpoint}s/?establishment={mine}").content)
    assert all(secret.encode() in b"".join(staff.bodies) for secret in SECRETS.values())
    assert wrong == [], "\n".join(wrong)
