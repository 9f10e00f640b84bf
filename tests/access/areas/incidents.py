"""The incident pages (fogkeeper/web/incidents/views.py): every staff role reads the incidents and
the imported spills to review; the manager and the inspector ("incident") keep an incident
current and match or set aside an imported spill; the outside roles never see them."""

from __future__ import annotations

from datetime import date

from fogkeeper.incidents.models import Incident

TABLE = """
web:incidents                       GET   ok    ok    ok    ok    404   404   404   own   login
web:incidents                       POST  405   405   405   405   404   404   404   own   login
web:incident_review                 GET   ok    ok    ok    ok    404   404   404   own   login
web:incident_review                 POST  405   405   405   405   404   404   404   own   login
web:incident                        GET   ok    ok    ok    ok    404   404   404   404   login
web:incident                        POST  405   405   405   405   404   404   404   404   login
web:incident_edit                   GET   ok    ok    403   403   404   404   404   404   login
web:incident_edit                   POST  ok    ok    403   403   404   404   404   404   login
web:incident_match                  GET   ok    ok    403   403   404   404   404   404   login
web:incident_match                  POST  ok    ok    403   403   404   404   404   404   login
web:incident_set_aside              GET   ok    ok    403   403   404   404   404   404   login
web:incident_set_aside              POST  ok    ok    403   403   404   404   404   404   login
"""


def _incident(side) -> dict:
    found = Incident.objects.filter(agency=side.agency).order_by("pk").first()
    if found is None:
        found = Incident.objects.create(
            agency=side.agency, code="SSO-MATRIX", date=date(2026, 1, 5)
        )
    return {"pk": found.pk}


def _spill(side) -> dict:
    """An imported spill no establishment was matched to (put on record when the demo has
    none), so that the review pages show their forms."""
    found, _ = Incident.objects.get_or_create(
        agency=side.agency,
        code="CIWQS-MATRIX",
        defaults={"date": date(2026, 1, 5), "kind": "spill", "source": "ciwqs"},
    )
    return {"pk": found.pk}


RECORDS = {
    "web:incident": _incident,
    "web:incident_edit": _incident,
    "web:incident_match": _spill,
    "web:incident_set_aside": _spill,
}
