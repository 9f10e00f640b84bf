"""The agency-wide lists (fogkeeper/web/reports/lists.py): every staff role reads the findings, the
invoices and the enforcement actions, and exports them; nobody writes through them; the
outside roles never see them."""

from __future__ import annotations

TABLE = """
web:findings                        GET   ok    ok    ok    ok    404   404   404   own   login
web:findings                        POST  405   405   405   405   404   404   404   own   login
web:invoices                        GET   ok    ok    ok    ok    404   404   404   own   login
web:invoices                        POST  405   405   405   405   404   404   404   own   login
web:enforcement_actions             GET   ok    ok    ok    ok    404   404   404   own   login
web:enforcement_actions             POST  405   405   405   405   404   404   404   own   login
"""
