"""The agency an API call acts for: the X-Fogkeeper-Agency header (or ?agency=), else the
person's current agency (policy.current_agency: the one chosen in the session, else the
first). An agency the person is not a member of answers 404, as one that does not exist."""

from __future__ import annotations

import re

from rest_framework.exceptions import NotFound

from fogkeeper.registry.models import Agency
from fogkeeper.web import policy

HEADER = "X-Fogkeeper-Agency"
QUERY = "agency"
CODE = re.compile(r"^[-a-zA-Z0-9_]{1,40}$")  # Agency.code is a slug


def acting_agency(request) -> Agency:
    code = request.headers.get(HEADER) or request.query_params.get(QUERY)
    if code:
        agencies = policy.readable_agencies(request.user)
        agency = agencies.filter(code=code).first() if CODE.match(code) else None
    else:
        agency = policy.current_agency(request)
    if agency is None:
        raise NotFound("No such agency among yours.")
    return agency
