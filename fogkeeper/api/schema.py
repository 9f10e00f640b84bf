"""What the OpenAPI schema says beyond what drf-spectacular infers: the agency parameters and
every error answer, so that a client (and schemathesis) can rely on it."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import serializers

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

ERRORS = {401: NOT_SIGNED_IN, 403: FORBIDDEN, 404: NOT_FOUND, 429: THROTTLED}


def read_only(serializer, *, tag: str, what: str):
    """The list and detail operations of a read-only resource."""
    return extend_schema_view(
        list=extend_schema(
            summary=f"List {what}",
            tags=[tag],
            parameters=AGENCY,
            responses={200: serializer(many=True), 400: INVALID, **ERRORS},
        ),
        retrieve=extend_schema(
            summary=f"One of the {what}, by id",
            tags=[tag],
            parameters=[*AGENCY, ID],
            responses={200: serializer, **ERRORS},
        ),
    )
