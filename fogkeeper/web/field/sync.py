"""The field app's sync (`/inspections/field/sync/`): one inspection kept in the browser, sent
once back online (inspections.offline.inspection_sync stores it once, by the id the browser
made for it).

GET gives the page a fresh CSRF token (the page may have been kept offline since before its
person last signed in), says whose session it is, and gives that person's key (`field_key`):
what of theirs is not sent when they sign out of a shared phone is locked with it
(static/web/field/lock.js), for them alone to unlock when they sign in again. POST takes
one inspection as multipart/form-data: `inspection`, its JSON (below), `photos` (files) and
`signature` (an image). It answers JSON, always with a `status`:

- 201 `stored`, or 200 `already stored` (that id was stored before: the same inspection,
  never a second), with the inspection's page and receipt;
- 409 `conflict`: the establishment changed after the route was downloaded; nothing stored;
  `changes` in words, and the `version` and `seen` to send it against the record as it is now;
- 400 `refused`: what the inspection form would refuse, `messages` in words naming the field;
  nothing stored. The JSON goes through the checks the staff inspection form gets: each of its
  names and texts those the edge gives every form field (no control character, no date out of
  range: security.inputs), the inspection's fields the form's own fields (HeaderForm), and it
  nests no deeper than an inspection does; its photos are capped in number and in bytes
  together (PhotosField), and the route's copy of the establishment (`seen`) is refused
  unless it has the shape the route gave it.

The JSON: {client_id, agency, establishment, version, seen, code, date, notes, signed_by,
answers: [{item, compliant, note, device}], measurements: [{device, fog_inches,
solids_inches}]}."""

from __future__ import annotations

import base64
import json
import uuid
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import HttpResponseNotAllowed, JsonResponse
from django.middleware.csrf import get_token
from django.urls import reverse
from django.utils.crypto import salted_hmac

from fogkeeper.inspections.models import Inspection
from fogkeeper.inspections.offline import Conflict, Upload, inspection_sync
from fogkeeper.inspections.services import Answer, Reading
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.security.inputs import FIRST_YEAR, LAST_YEAR, MalformedInput, check_text

from ..common import policy
from ..common.forms import PhotosField
from ..common.pages import agency_page
from ..records.forms import InspectionForm

# How the messages of a refusal name what they are about.
LABELS = {
    "code": "Inspection number",
    "date": "Date",
    "signed_by": "Signed by",
    "signature": "Signature",
    "photos": "Photos",
    "image": "Photos",
    "inspection": "Inspection",
    "version": "Route",
    "client_id": "Inspection",
    "establishment": "Establishment",
    "answers": "Checklist",
    "measurements": "Measurements",
    "notes": "Notes",
    "seen": "Route",
    "agency": "Agency",
}
# How a place inside an answer or a measurement is said.
INNER = {
    "note": "note",
    "item": "checklist item",
    "device": "device",
    "compliant": "answer",
    "fog_inches": "FOG depth",
    "solids_inches": "solids depth",
}
# The deepest a value of an inspection's JSON lies: seen > devices > GI-1 > kind is 4.
MAX_DEPTH = 5


class SyncForm(forms.Form):
    """What the field app posts: the photos and signature checked as the inspection form
    checks photos (their bytes, their pixels, an image at all)."""

    inspection = forms.CharField()
    photos = PhotosField()
    signature = forms.ImageField(required=False)


class HeaderForm(forms.Form):
    """The inspection's own fields, checked by the staff inspection form's fields
    (web/records/forms.py): what that form refuses, the sync refuses."""

    code = InspectionForm.base_fields["code"]
    date = InspectionForm.base_fields["date"]
    notes = InspectionForm.base_fields["notes"]
    signed_by = forms.CharField(required=False, max_length=200)  # the model's length

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        missing = "Give the date of the inspection."
        self.fields["date"].error_messages.update(invalid=missing, required=missing)


class AnswerForm(forms.Form):
    """An answer's text, as the inspection form takes it (each item's note field)."""

    item = forms.CharField(max_length=80)  # the model's length
    note = forms.CharField(required=False, max_length=500)


def _where(path: tuple) -> str:
    """A place in the JSON, in words: ("answers", 0, "note") is "Checklist, answer 1, note"."""
    words = [LABELS.get(str(path[0]), str(path[0]))] if path else ["Inspection"]
    for step in path[1:]:
        if isinstance(step, int):
            kind = {"answers": "answer", "measurements": "measurement"}.get(path[0], "item")
            words.append(f"{kind} {step + 1}")
        else:
            words.append(INNER.get(step, step))
    return ", ".join(words)


def _check_values(data: dict[str, Any]) -> None:
    """Each name and text of the JSON checked as the edge checks a form field (control
    characters, dates out of range: security.inputs), and nothing nested deeper than an
    inspection is; a ValidationError naming the place."""
    stack: list[tuple[tuple, Any]] = [((), data)]
    while stack:
        path, value = stack.pop()
        if len(path) > MAX_DEPTH:
            raise ValidationError(f"{_where(path[:1])} is nested deeper than an inspection is.")
        try:
            if isinstance(value, str):
                check_text(_where(path), value)
            elif isinstance(value, dict):
                for key, inner in value.items():
                    check_text(_where((*path, key)), key)
                    stack.append(((*path, key), inner))
            elif isinstance(value, list):
                stack += [((*path, i), inner) for i, inner in enumerate(value)]
        except MalformedInput as e:
            raise ValidationError(str(e)) from None


def _decoded(text: str) -> dict[str, Any]:
    """The inspection's JSON, checked as any form field is; a ValidationError in words."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValidationError("The inspection is nested deeper than an inspection is.") from None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise ValidationError({"inspection": ["It is not an inspection (JSON)."]})
    _check_values(data)
    return data


def _texts(values: dict[str, Any], path: tuple, names: tuple[str, ...]) -> dict[str, Any]:
    """The `names` of `values` (at `path` in the JSON), each text or absent; a ValidationError
    naming the first that is something else (a number, a list)."""
    for name in names:
        if values.get(name) is not None and not isinstance(values[name], str):
            raise ValidationError(f"{_where((*path, name))}: give it as text.")
    return {name: values.get(name) for name in names}


def _checked(form: forms.Form, key: str | None = None) -> dict[str, Any]:
    """The form's cleaned data; its errors under `key` (answers[0]) when given."""
    if not form.is_valid():
        errors = form.errors.as_data()
        raise ValidationError({key: sum(errors.values(), [])} if key else errors)
    return form.cleaned_data


def _messages(error: ValidationError) -> list[str]:
    found = error.message_dict if hasattr(error, "error_dict") else {None: error.messages}
    out = []
    for key, texts in found.items():
        label = LABELS.get((key or "").split("[")[0]) if key != NON_FIELD_ERRORS else None
        out += [f"{label}: {t}" if label and not t.startswith(label) else t for t in texts]
    return out


def _refused(error: ValidationError) -> JsonResponse:
    return JsonResponse({"status": "refused", "messages": _messages(error)}, status=400)


def _decimal(value: Any, key: str, name: str) -> Decimal | None:
    if value is None or value == "":
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        number = None
    if number is None or not number.is_finite():
        raise ValidationError({key: [f"{name}: {str(value)[:40]!r} is not a number."]})
    return number


def _device(fse: FoodServiceEstablishment, code: Any, key: str):
    if not code:
        return None
    found = next((d for d in fse.devices.all() if d.code == code), None)
    if found is None:
        raise ValidationError({key: [f"{code} is not a device of {fse}."]})
    return found


def _answers(fse, rows: Any) -> list[Answer]:
    if not isinstance(rows, list):
        raise ValidationError({"answers": ["The checklist's answers are not a list."]})
    out = []
    for i, row in enumerate(rows):
        key = f"answers[{i}]"
        if not isinstance(row, dict) or not isinstance(row.get("compliant"), bool):
            raise ValidationError({key: ["Each answer is compliant or not (true or false)."]})
        text = _texts(row, ("answers", i), ("item", "note", "device"))
        data = _checked(AnswerForm(text), key)
        device = _device(fse, text["device"], key)
        out.append(
            Answer(item=data["item"], compliant=row["compliant"], device=device, note=data["note"])
        )
    return out


def _readings(fse, rows: Any) -> list[Reading]:
    if not isinstance(rows, list):
        raise ValidationError({"measurements": ["The measurements are not a list."]})
    out = []
    for i, row in enumerate(rows):
        key = f"measurements[{i}]"
        if not isinstance(row, dict):
            raise ValidationError({key: ["A measurement names its device and depths."]})
        code = _texts(row, ("measurements", i), ("device",))["device"]
        device = _device(fse, code, key) or _missing(key)
        fog = _decimal(row.get("fog_inches"), key, f"FOG depth in {device.code}")
        solids = _decimal(row.get("solids_inches"), key, f"Solids depth in {device.code}")
        if fog is not None or solids is not None:
            out.append(Reading(device=device, fog_inches=fog, solids_inches=solids))
    return out


def _missing(key: str):
    raise ValidationError({key: ["A measurement names the device measured."]})


def _header(data: dict[str, Any]) -> dict[str, Any]:
    """The inspection's own fields, checked as the staff inspection form checks them."""
    try:
        client_id = uuid.UUID(str(data.get("client_id")))
    except ValueError:
        raise ValidationError({"client_id": ["The inspection has no id of its own."]}) from None
    if not isinstance(data.get("seen"), dict) or not isinstance(data.get("version"), str):
        raise ValidationError({"version": ["Download the route again, then send it again."]})
    text = _texts(data, (), ("code", "date", "notes", "signed_by"))
    header = _checked(HeaderForm({k: v for k, v in text.items() if v is not None}))
    day: date = header["date"]
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise ValidationError(
            {
                "date": [
                    f"{day} is no date of an inspection: give a date between {FIRST_YEAR} "
                    f"and {LAST_YEAR}."
                ]
            }
        )
    return {**header, "client_id": client_id}


def upload_of(fse: FoodServiceEstablishment, data: dict[str, Any], files) -> Upload:
    """The Upload the JSON `data` and the checked `files` (SyncForm's) describe; a
    ValidationError in words for what is malformed."""
    header = _header(data)
    return Upload(
        client_id=header["client_id"],
        version=data["version"],
        seen=data["seen"],
        code=header["code"].strip(),
        date=header["date"],
        answers=_answers(fse, data.get("answers", [])),
        measurements=_readings(fse, data.get("measurements", [])),
        notes=header["notes"],
        photos=files["photos"],
        signature=files.get("signature") or None,
        signed_by=header["signed_by"].strip(),
    )


def _establishment(request, data: dict[str, Any]) -> FoodServiceEstablishment:
    _texts(data, (), ("agency", "establishment"))
    if data.get("agency") != request.agency.code:
        raise ValidationError(
            {
                "establishment": [
                    f"this inspection was recorded for another agency than "
                    f"{request.agency.name}: switch to that agency, then send it."
                ]
            }
        )
    code = data.get("establishment")
    fse = (
        FoodServiceEstablishment.objects.filter(agency=request.agency, code=code)
        .select_related("agency")
        .prefetch_related("devices")
        .first()
    )
    if fse is None:
        raise ValidationError(
            {"establishment": [f"{request.agency.name} has no establishment {code!r}."]}
        )
    return fse


def _stored(inspection, created: bool) -> JsonResponse:
    inspection.refresh_from_db(fields=["receipt_sent_to"])
    answer = {
        "status": "stored" if created else "already stored",
        "inspection": {
            "code": inspection.code,
            "date": inspection.date.isoformat(),
            "establishment": inspection.establishment.code,
            "url": reverse("web:inspection", args=[inspection.pk]),
            "receipt": reverse("web:inspection_receipt", args=[inspection.pk]),
        },
        "receipt_sent_to": inspection.receipt_sent_to,
    }
    return JsonResponse(answer, status=201 if created else 200)


def _conflict(conflict: Conflict) -> JsonResponse:
    answer = {
        "status": "conflict",
        "establishment": conflict.establishment.code,
        "changes": conflict.changes,
        "version": conflict.version,
        "seen": conflict.seen,
    }
    return JsonResponse(answer, status=409)


def _repeat(request, data: dict[str, Any]) -> Inspection | None:
    """The agency's inspection stored before with this id: a repeat is answered with it
    whatever else has changed since (its establishment's code included)."""
    try:
        client_id = uuid.UUID(str(data.get("client_id")))
    except ValueError:
        return None
    found = Inspection.objects.filter(client_id=client_id, establishment__agency=request.agency)
    return found.select_related("establishment").first()


def _receive(request) -> JsonResponse:
    form = SyncForm(request.POST, request.FILES)
    if not form.is_valid():
        return _refused(ValidationError(form.errors.as_data()))
    try:
        data = _decoded(form.cleaned_data["inspection"])
    except ValidationError as error:
        return _refused(error)
    if found := _repeat(request, data):
        return _stored(found, created=False)
    try:
        fse = _establishment(request, data)
        upload = upload_of(fse, data, form.cleaned_data)
        synced = inspection_sync(
            establishment=fse, upload=upload, inspector=request.user, actor=request.user
        )
    except Conflict as conflict:
        return _conflict(conflict)
    except ValidationError as error:
        return _refused(error)
    return _stored(synced.inspection, synced.created)


def field_key(user) -> str:
    """The AES key (base64) locking `user`'s inspections left unsent on a shared phone: the
    same at each of their sign-ins, made from the site's secret, so it is never stored and no
    other person's key opens them."""
    digest = salted_hmac("fogkeeper.field.lock", str(user.pk), algorithm="sha256").digest()
    return base64.b64encode(digest).decode("ascii")


@agency_page
def sync(request):
    policy.require_write(request.user, request.agency, "inspection")
    if request.method == "POST":
        return _receive(request)
    if request.method in ("GET", "HEAD"):
        answer = {
            "csrf": get_token(request),
            "user": request.user.get_username(),
            "agency": request.agency.code,
            "key": field_key(request.user),
        }
        response = JsonResponse(answer)
        response["Cache-Control"] = "no-store"
        return response
    return HttpResponseNotAllowed(["GET", "HEAD", "POST"])
