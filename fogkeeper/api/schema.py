"""What the OpenAPI schema says beyond what drf-spectacular infers: the agency parameters and
every error answer, so that a client (and schemathesis) can rely on it."""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import force_instance, get_doc
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import serializers

from . import shown
from .agency import CODE, HEADER, QUERY

_PATTERN = CODE.pattern

AGENCY = [
    OpenApiParameter(
        HEADER,
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        description="the code of the agency the call acts for (default: your first agency)",
        pattern=_PATTERN,
    ),
    OpenApiParameter(
        QUERY,
        OpenApiTypes.STR,
        OpenApiParameter.QUERY,
        description=f"the agency's code, when the {HEADER} header cannot be sent",
        pattern=_PATTERN,
    ),
]

ID = OpenApiParameter(
    "id", {"type": "integer", "minimum": 1}, OpenApiParameter.PATH, description="the record's id"
)

_DETAIL = inline_serializer(
    "Error",
    fields={
        "detail": serializers.CharField(),
        "request_id": serializers.CharField(required=False, help_text="quote it to support"),
    },
)
# Field errors ({"date": ["..."]}), or {"detail": "..."} when the body is not JSON.
_FIELD_ERRORS = {
    "type": "object",
    "additionalProperties": {
        "oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]
    },
    "example": {"date": ["2026-12-01 is in the future."]},
}

INVALID = OpenApiResponse(_FIELD_ERRORS, description="invalid parameters or body, by field")
NOT_SIGNED_IN = OpenApiResponse(_DETAIL, description="no or an invalid token")
FORBIDDEN = OpenApiResponse(_DETAIL, description="your role at this agency may not do this")
NOT_FOUND = OpenApiResponse(
    _DETAIL,
    description=(
        "no such record among what you reach, no such agency among yours, or no such page"
    ),
)
THROTTLED = OpenApiResponse(_DETAIL, description="too many requests; see Retry-After")

# Any call: a malformed request (a control character, not UTF-8, too long, a date out of
# range) is refused before the view reads it (fogkeeper.security.inputs), {"detail": ...}.
ERRORS = {400: INVALID, 401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NOT_FOUND, 429: THROTTLED}


SHOWN = (
    "Staff are shown every field; an operator, a hauler or a property owner the fields its "
    "portal shows, the others left out."
)


class ShownFieldsSchema(AutoSchema):
    """The fields some outside role is not shown (fogkeeper.api.shown) are optional in the
    records' components, so that each role's answers conform to the schema."""

    def _map_basic_serializer(self, serializer, direction):
        result = super()._map_basic_serializer(serializer, direction)
        where = shown.COMPONENTS.get(type(force_instance(serializer)).__name__)
        if where is not None and result.get("required"):
            optional = shown.optional(*where, result["properties"])
            result["required"] = [name for name in result["required"] if name not in optional]
            if not result["required"]:
                del result["required"]
        return result


def read_only(serializer, *, tag: str, what: str):
    """The list and detail operations of a read-only resource, described by the view's
    docstring and what each role is shown of it."""

    def decorate(view):
        description = f"{get_doc(view)}\n\n{SHOWN}"
        return extend_schema_view(
            list=extend_schema(
                summary=f"List {what}",
                description=description,
                tags=[tag],
                parameters=AGENCY,
                responses={200: serializer(many=True), 400: INVALID, **ERRORS},
            ),
            retrieve=extend_schema(
                summary=f"One of the {what}, by id",
                description=description,
                tags=[tag],
                parameters=[*AGENCY, ID],
                responses={200: serializer, **ERRORS},
            ),
        )(view)

    return decorate


# What fogkeeper.security.inputs refuses at the edge, said in the schema: a query's text holds
# no control character, and a date's year lies in FIRST_YEAR..LAST_YEAR.
NO_CONTROL = r"^[^\x00-\x1f\x7f]*$"
IN_RANGE_DAY = r"^(19\d\d|[2-8]\d\d\d|9[0-8]\d\d|99[0-8]\d|999[0-8])-\d\d-\d\d$"


def refused_at_the_edge(result, generator, request, public):
    """drf-spectacular postprocessing hook: each string query parameter's pattern."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                schema = parameter.get("schema", {})
                if parameter.get("in") != "query" or schema.get("type") != "string":
                    continue
                if "enum" in schema or "pattern" in schema:
                    continue
                schema["pattern"] = IN_RANGE_DAY if schema.get("format") == "date" else NO_CONTROL
    return result
