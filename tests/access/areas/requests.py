"""Requests an operator files (fogkeeper/filings): the operator's list and form in its portal,
its own establishment's only; the staff page of one request, read by every staff role and
answered by the manager; every outside role answers 404, another agency's too."""

from fogkeeper.filings.kinds import request_kinds
from fogkeeper.filings.models import Filing

from ..world import AS_OF

TABLE = """
portal:operator_requests            GET   404   404   404   404   ok    404   404   404   login
portal:operator_requests            POST  404   404   404   404   405   404   404   404   login
portal:operator_request_file        GET   404   404   404   404   ok    404   404   404   login
portal:operator_request_file        POST  404   404   404   404   ok    404   404   404   login
web:filing                          GET   ok    ok    ok    ok    404   404   404   404   login
web:filing                          POST  ok    403   403   403   404   404   404   404   login
"""


class NoRequests(LookupError):
    """The side's pack declares no request: the form of one has no URL."""


def _file_form(side) -> dict:
    kinds = request_kinds(side.agency.get_pack())
    if not kinds:
        raise NoRequests(side.agency.code)
    return {"code": side.mine("operator").code, "kind": next(iter(kinds))}


def _filing(side) -> dict:
    """A request of agency A's (the revised schedule of a device of an establishment)."""
    found = Filing.objects.filter(establishment__agency=side.agency).first()
    if found is None:
        fse = side.mine("manager")
        found = Filing.objects.create(
            establishment=fse,
            kind="revised_schedule",
            filed_on=AS_OF,
            device=fse.devices.order_by("pk").first(),
            frequency_days=120,
            grounds="A year of measurements under 10%.",
        )
    return {"pk": found.pk}


RECORDS = {"portal:operator_request_file": _file_form, "web:filing": _filing}
