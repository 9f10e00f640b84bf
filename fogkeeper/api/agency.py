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


def _named(request, code: str) -> Agency:
    agencies = policy.readable_agencies(request.user)
    agency = agencies.filter(code=code).first() if CODE.match(code) else None
    if agency is None:
        raise NotFound(NOT_YOURS)
    return agency


def acting_agency(request) -> Agency:
    """Every agency named must be one of the person's; the header wins over the query."""
    header, query = request.headers.get(HEADER), request.query_params.get(QUERY)
    if header is None and query is None:
        agency = policy.current_agency(request)
        if agency is None:
            raise NotFound(NOT_YOURS)
        return agency
    return [_named(request, code) for code in (header, query) if code is not None][0]
