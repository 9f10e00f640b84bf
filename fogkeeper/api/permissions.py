"""The API's one permission: it asks the policy module (fogkeeper.web.policy), nothing else."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission

from fogkeeper.web.common import policy

from .agency import acting_agency


class ActsForAgency(BasePermission):
    """The call acts for one of the person's agencies (else 404, view.agency is set) and the
    person's role there may read what the view shows (`view.reads`, keys of policy.READS:
    any one suffices) or write what it records (`view.writes`, a key of policy.WRITES);
    else 403."""

    message = "Your role at this agency may not do this."

    def has_permission(self, request, view) -> bool:
        if not hasattr(view, request.method.lower()):
            return True  # a method the view does not offer: DRF answers 405
        view.agency = request._request.agency = acting_agency(request)  # _request: for logs
        if request.method in SAFE_METHODS:
            return any(policy.may_read(request.user, view.agency, what) for what in view.reads)
        return policy.may_write(request.user, view.agency, view.writes)
