"""The agency an API call acts for: the X-Fogkeeper-Agency header (or ?agency=), else the
person's current agency (policy.current_agency: the one chosen in the session, else the
first). An agency the person is not a member of answers 404, as one that does not exist."""

from __future__ import annotations

import re

from rest_framework.exceptions import NotFound

from fogkeeper.registry.models import Agency
from fogkeeper.web.common import policy

HEADER = "X-Fogkeeper-Agency"
QUERY = "agency"
CODE = re.compile(r"^[-a-zA-Z0-9_]{1,40}$")  # Agency.code is a slug


NOT_YOURS = "No such agency among yours."


def not_yours(request) -> str:
    """The refusal of an agency not the person's, naming those that are accepted."""
    codes = [a.code for a in policy.readable_agencies(request.user).order_by("code")[:20]]
    if not codes:
        return f"{NOT_YOURS} You are a member of no agency."
    return (
        f"{NOT_YOURS} Send the {HEADER} header (or ?{QUERY}=) with the code of one of "
        f"yours: {', '.join(codes)}."
    )


def agency_named(request) -> bool:
    """Whether the call names its agency (the header or the query), not the person's current."""
    return request.headers.get(HEADER) is not None or QUERY in request.query_params


def _named(request, code: str) -> Agency:
    agencies = policy.readable_agencies(request.user)
    agency = agencies.filter(code=code).first() if CODE.match(code) else None
    if agency is None:
        raise NotFound(not_yours(request))
    return agency


def acting_agency(request) -> Agency:
    """Every agency named must be one of the person's; the header wins over the query."""
    header, query = request.headers.get(HEADER), request.query_params.get(QUERY)
    if header is None and query is None:
        agency = policy.current_agency(request)
        if agency is None:
            raise NotFound(not_yours(request))
        return agency
    return [_named(request, code) for code in (header, query) if code is not None][0]
