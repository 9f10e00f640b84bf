"""The CIWQS imports (fogkeeper/web/incidents/imports.py): every staff role reads the agency's
imports and follows one; the manager and the inspector ("incident") upload one and queue a
stalled one again, by a POST; the outside roles never see them."""

from __future__ import annotations

from fogkeeper.incidents.models import IncidentImport

TABLE = """
web:incident_imports                GET   ok    ok    ok    ok    404   404   404   own   login
web:incident_imports                POST  ok    ok    403   403   404   404   404   own   login
web:incident_import                 GET   ok    ok    ok    ok    404   404   404   404   login
web:incident_import                 POST  405   405   405   405   404   404   404   404   login
web:incident_import_requeue         GET   405   405   405   405   404   404   404   404   login
web:incident_import_requeue         POST  ok    ok    403   403   404   404   404   404   login
"""


def _run(side) -> dict:
    """A finished import of the side's agency (the demo has none)."""
    found, _ = IncidentImport.objects.get_or_create(
        agency=side.agency,
        filename="plsd.csv",
        defaults={"file": "imports/ciwqs/plsd.csv", "status": IncidentImport.COMPLETE},
    )
    return {"pk": found.pk}


RECORDS = {"web:incident_import": _run, "web:incident_import_requeue": _run}
