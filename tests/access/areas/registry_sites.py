"""The registry pages around the establishments (fogkeeper/web/registry/sites.py, operators.py,
places.py): every staff role reads them; the manager and the inspector write them (the
"establishment" kind of ACCESS.md's "establishments"); the outside roles reach none of them."""

from __future__ import annotations

from fogkeeper.registry.models import (
    Lateral,
    Operator,
    Parcel,
    PropertyOwner,
    SewerSegment,
)

TABLE = """
web:registry                        GET   ok    ok    ok    ok    404   404   404   own   login
web:registry                        POST  405   405   405   405   404   404   404   own   login
web:establishment_new               GET   ok    ok    403   403   404   404   404   own   login
web:establishment_new               POST  ok    ok    403   403   404   404   404   own   login
web:establishment_edit              GET   ok    ok    403   403   404   404   404   404   login
web:establishment_edit              POST  ok    ok    403   403   404   404   404   404   login
web:establishment_close             GET   ok    ok    403   403   404   404   404   404   login
web:establishment_close             POST  ok    ok    403   403   404   404   404   404   login
web:establishment_reopen            GET   ok    ok    403   403   404   404   404   404   login
web:establishment_reopen            POST  ok    ok    403   403   404   404   404   404   login
web:operation_change_new            GET   ok    ok    403   403   404   404   404   404   login
web:operation_change_new            POST  ok    ok    403   403   404   404   404   404   login
web:lateral_new                     GET   ok    ok    403   403   404   404   404   404   login
web:lateral_new                     POST  ok    ok    403   403   404   404   404   404   login
web:lateral_edit                    GET   ok    ok    403   403   404   404   404   404   login
web:lateral_edit                    POST  ok    ok    403   403   404   404   404   404   login
web:lateral_remove                  GET   ok    ok    403   403   404   404   404   404   login
web:lateral_remove                  POST  ok    ok    403   403   404   404   404   404   login
web:operators                       GET   ok    ok    ok    ok    404   404   404   own   login
web:operators                       POST  405   405   405   405   404   404   404   own   login
web:operator_new                    GET   ok    ok    403   403   404   404   404   own   login
web:operator_new                    POST  ok    ok    403   403   404   404   404   own   login
web:operator                        GET   ok    ok    ok    ok    404   404   404   404   login
web:operator                        POST  405   405   405   405   404   404   404   404   login
web:operator_edit                   GET   ok    ok    403   403   404   404   404   404   login
web:operator_edit                   POST  ok    ok    403   403   404   404   404   404   login
web:owners                          GET   ok    ok    ok    ok    404   404   404   own   login
web:owners                          POST  405   405   405   405   404   404   404   own   login
web:owner_new                       GET   ok    ok    403   403   404   404   404   own   login
web:owner_new                       POST  ok    ok    403   403   404   404   404   own   login
web:owner_edit                      GET   ok    ok    403   403   404   404   404   404   login
web:owner_edit                      POST  ok    ok    403   403   404   404   404   404   login
web:parcels                         GET   ok    ok    ok    ok    404   404   404   own   login
web:parcels                         POST  405   405   405   405   404   404   404   own   login
web:parcel_new                      GET   ok    ok    403   403   404   404   404   own   login
web:parcel_new                      POST  ok    ok    403   403   404   404   404   own   login
web:parcel_edit                     GET   ok    ok    403   403   404   404   404   404   login
web:parcel_edit                     POST  ok    ok    403   403   404   404   404   404   login
web:segments                        GET   ok    ok    ok    ok    404   404   404   own   login
web:segments                        POST  405   405   405   405   404   404   404   own   login
web:segment_new                     GET   ok    ok    403   403   404   404   404   own   login
web:segment_new                     POST  ok    ok    403   403   404   404   404   own   login
web:segment_edit                    GET   ok    ok    403   403   404   404   404   404   login
web:segment_edit                    POST  ok    ok    403   403   404   404   404   404   login
"""


def _lateral(side) -> dict:
    """A lateral of the agency; one is put on record when none is left (a removal posted by a
    role before may have taken the last)."""
    lateral = Lateral.objects.filter(establishment__agency=side.agency).order_by("pk").first()
    if lateral is None:
        fse = side.mine("manager")
        segment = SewerSegment.objects.filter(agency=side.agency).first()
        lateral = Lateral.objects.create(establishment=fse, segment=segment)
    return {"code": lateral.establishment.code, "lateral": lateral.pk}


def _first(model, name: str):
    return lambda side: {name: model.objects.filter(agency=side.agency).earliest("pk").pk}


RECORDS = {
    "web:lateral_edit": _lateral,
    "web:lateral_remove": _lateral,
    "web:operator": _first(Operator, "operator"),
    "web:operator_edit": _first(Operator, "operator"),
    "web:owner_edit": _first(PropertyOwner, "owner"),
    "web:parcel_edit": _first(Parcel, "parcel"),
    "web:segment_edit": _first(SewerSegment, "segment"),
}
