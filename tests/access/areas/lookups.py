"""The lookups behind the choices that search as one types (fogkeeper/web/common/lookups.py):
answered to the staff roles filling the forms that offer them (the manager and the
inspector), refused to the clerk and the auditor as those forms are, and to the outside
roles as every staff page is."""

from __future__ import annotations

TABLE = """
web:lookup                          GET   ok    ok    403   403   404   404   404   own   login
web:lookup                          POST  405   405   403   403   404   404   404   own   login
"""

RECORDS = {"web:lookup": lambda side: {"kind": "operator"}}
