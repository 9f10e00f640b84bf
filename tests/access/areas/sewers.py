"""The sewer segment pages (fogkeeper/web/registry/sewers.py): every staff role reads a
segment's page;
the manager and the inspector ("segment_cleaning") record its cleanings, the clerk and the
auditor may not; the outside roles never see them. (The segment list and its forms are in
registry_sites.)"""

from __future__ import annotations

from fogkeeper.registry.models import SewerSegment

TABLE = """
web:segment                         GET   ok    ok    ok    ok    404   404   404   404   login
web:segment                         POST  405   405   405   405   404   404   404   404   login
web:segment_cleaning_new            GET   ok    ok    403   403   404   404   404   404   login
web:segment_cleaning_new            POST  ok    ok    403   403   404   404   404   404   login
"""


def _segment(side) -> dict:
    return {"segment": SewerSegment.objects.filter(agency=side.agency).earliest("pk").pk}


RECORDS = {"web:segment": _segment, "web:segment_cleaning_new": _segment}
