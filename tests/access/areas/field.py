"""The field app (fogkeeper/web/field/): every staff role opens the offline page and downloads
the day's route; the manager and the inspector ("inspection") send the inspections kept
offline; the manifest and the service worker are public files, like the static files; every
staff role reads an inspection's page and its receipt; the outside roles never see them."""

from __future__ import annotations

from fogkeeper.inspections.models import Inspection

TABLE = """
web:field_offline                   GET   ok    ok    ok    ok    404   404   404   own   login
web:field_offline                   POST  405   405   405   405   404   404   404   own   login
web:field_route                     GET   ok    ok    ok    ok    404   404   404   own   login
web:field_route                     POST  405   405   405   405   404   404   404   own   login
web:field_sync                      GET   ok    ok    403   403   404   404   404   own   login
web:field_sync                      POST  ok    ok    403   403   404   404   404   own   login
web:field_manifest                  GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
web:field_manifest                  POST  405   405   405   405   405   405   405   405   405
web:field_worker                    GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
web:field_worker                    POST  405   405   405   405   405   405   405   405   405
web:inspection                      GET   ok    ok    ok    ok    404   404   404   404   login
web:inspection                      POST  405   405   405   405   404   404   404   404   login
web:inspection_receipt              GET   ok    ok    ok    ok    404   404   404   404   login
web:inspection_receipt              POST  405   405   405   405   404   404   404   404   login
"""


def _inspection(side) -> dict:
    return {"pk": Inspection.objects.filter(establishment__agency=side.agency).earliest("pk").pk}


RECORDS = {"web:inspection": _inspection, "web:inspection_receipt": _inspection}
