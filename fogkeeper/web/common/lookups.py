"""Choices among thousands of records (operators, property owners, parcels, sewer segments,
establishments, haulers) that search as one types instead of listing whole tables: a form field
that validates against the agency's records but renders only the one chosen, and the small JSON
endpoint its widget asks (web/combobox.js). Without JavaScript the field is a text input of the
record's code (an operator's or owner's name, a parcel's number)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, Q
from django.http import Http404, JsonResponse
from django.urls import reverse

from fogkeeper.registry.models import (
    FoodServiceEstablishment,
    Hauler,
    Operator,
    Parcel,
    PropertyOwner,
    SewerSegment,
)

from . import policy
from .pages import agency_page, reads_only

HAULER_HELP = "Type part of its name or code and pick it."
MOST = 20  # the matches one answer lists: enough to pick from, small enough to send at once


@dataclass(frozen=True)
class Kind:
    """What one lookup searches: its records of an agency, the field a person types without
    JavaScript (`key`), the fields searched, the words naming one, and who may look (a role
    that may write one of `writes`, the forms offering this choice)."""

    model: type[Any]  # a model of the agency's records
    key: str
    searched: tuple[str, ...]
    noun: str
    writes: frozenset[str]

    def records(self, agency):
        return self.model.objects.filter(agency=agency)

    def label(self, record) -> str:
        return LABELS[self.model](record)


KINDS = {
    "operator": Kind(
        Operator,
        "name",
        ("name", "mailing_address", "email"),
        "operator",
        frozenset({"establishment", "membership"}),
    ),
    "owner": Kind(
        PropertyOwner,
        "name",
        ("name", "mailing_address", "email"),
        "property owner",
        frozenset({"establishment", "membership"}),
    ),
    "parcel": Kind(Parcel, "apn", ("apn", "address"), "parcel", frozenset({"establishment"})),
    "segment": Kind(
        SewerSegment, "code", ("code", "description"), "sewer segment", frozenset({"establishment"})
    ),
    "establishment": Kind(
        FoodServiceEstablishment,
        "code",
        ("code", "name", "address"),
        "establishment",
        frozenset({"incident", "membership"}),
    ),
    "hauler": Kind(
        Hauler, "code", ("code", "name"), "hauler", frozenset({"hauler", "service", "membership"})
    ),
}


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


LABELS = {
    Operator: lambda o: ", ".join(p for p in (o.name, _first_line(o.mailing_address)) if p),
    PropertyOwner: lambda o: ", ".join(p for p in (o.name, _first_line(o.mailing_address)) if p),
    Parcel: lambda p: f"{p.apn}, {p.address}",
    SewerSegment: lambda s: ", ".join(p for p in (s.code, s.description) if p),
    FoodServiceEstablishment: lambda f: f"{f.name} ({f.code}), {f.address}",
    Hauler: lambda h: f"{h.name} ({h.code})",
}


def matches(kind: Kind, agency, text: str) -> list:
    """At most MOST of the agency's records whose searched fields contain `text`, those whose
    key starts with it first."""
    words = text.split()
    rows = kind.records(agency)
    for word in words:
        any_field = Q()
        for field in kind.searched:
            any_field |= Q(**{f"{field}__icontains": word})
        rows = rows.filter(any_field)
    return list(rows.order_by(kind.key, "pk")[:MOST]) if words else []


@agency_page
@reads_only
def lookup(request, kind: str):
    """The agency's records of `kind` matching `?q=`, for a combobox: [{id, key, label}].
    Only a staff role that may write one of the forms offering the choice may ask (403 for
    another, as the forms' pages answer); another agency's records are never among them."""
    found = KINDS.get(kind)
    if found is None:
        raise Http404("no such kind of record to look up")
    if not any(policy.may_write(request.user, request.agency, w) for w in found.writes):
        raise PermissionDenied("this role does not choose these records")
    text = request.GET.get("q", "")[:100]
    rows = matches(found, request.agency, text)
    results = [{"id": r.pk, "key": getattr(r, found.key), "label": found.label(r)} for r in rows]
    return JsonResponse({"results": results})


class LookupInput(forms.TextInput):
    """A text input of the chosen record's key, carrying what web/combobox.js needs to make it
    a combobox submitting the record's id: the endpoint, the id and the words of the one
    chosen. Only that one record is read, never the list of all."""

    def __init__(self, kind: str, attrs=None):
        super().__init__(attrs={"autocomplete": "off", "spellcheck": "false", **(attrs or {})})
        self.kind = kind
        self.queryset = None

    def get_context(self, name, value, attrs):
        record = self._chosen(value)
        if record is not None:
            value = getattr(record, KINDS[self.kind].key)
        context = super().get_context(name, value, attrs)
        extra = {"data-lookup": reverse("web:lookup", kwargs={"kind": self.kind})}
        if record is not None:
            extra["data-lookup-id"] = str(record.pk)
            extra["data-lookup-label"] = KINDS[self.kind].label(record)
        context["widget"]["attrs"].update(extra)
        return context

    def _chosen(self, value):
        if isinstance(value, Model):
            return value
        if self.queryset is None or value in (None, "") or not str(value).isdigit():
            return None
        return self.queryset.filter(pk=value).first()


class LookupField(forms.ModelChoiceField):
    """A choice of one of the agency's records of `kind` (KINDS), searched as one types: takes
    the record's id (what the combobox sends) or its key as typed (a code, a parcel number, an
    operator's exact name); anything else, another agency's id among them, is refused in words
    naming what was sent."""

    def __init__(self, kind: str, *, queryset=None, **kwargs):
        kwargs.setdefault("widget", LookupInput(kind))
        self.kind = kind
        super().__init__(queryset=queryset or KINDS[kind].model.objects.none(), **kwargs)

    def _set_queryset(self, queryset):
        # ModelChoiceField's own queryset property, not in its stub
        super()._set_queryset(queryset)  # type: ignore[misc]
        self.widget.queryset = self._queryset  # type: ignore[attr-defined]

    queryset = property(forms.ModelChoiceField._get_queryset, _set_queryset)  # type: ignore[attr-defined]

    def __deepcopy__(self, memo):
        result = super().__deepcopy__(memo)
        result.widget.queryset = result._queryset  # type: ignore[attr-defined]
        return result

    def to_python(self, value):
        text = str(value).strip() if value is not None else ""
        if text in self.empty_values:
            return None
        kind = KINDS[self.kind]
        if text.isdigit():
            record = self.queryset.filter(pk=text).first()
            if record is not None:
                return record
        found = list(self.queryset.filter(**{f"{kind.key}__iexact": text})[:2])
        if len(found) == 1:
            return found[0]
        if found:
            raise ValidationError(
                f"Several {kind.noun}s match “{text[:60]}”: type more of the name or address "
                "and pick one from the list.",
                code="ambiguous",
            )
        sent = f"That {kind.noun}" if text.isdigit() else f"“{text[:60]}”"
        raise ValidationError(
            f"{sent} is not one of this agency's {kind.noun}s. Type part of its name, address "
            "or code and pick it from the list.",
            code="invalid_choice",
        )

    def validate(self, value):
        forms.Field.validate(self, value)

    def has_changed(self, initial, data):
        return str(getattr(initial, "pk", initial) or "") != str(data or "")
