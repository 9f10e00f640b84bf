"""The lists of inspections, pump-outs and trainings (fogkeeper/web/records/lists.py) and their
exports: every staff role reads them, the auditor included; nobody writes through them; the
outside roles never see them; agency B's staff see their own agency's."""

TABLE = """
web:inspections                     GET   ok    ok    ok    ok    404   404   404   own   login
web:inspections                     POST  405   405   405   405   404   404   404   own   login
web:services                        GET   ok    ok    ok    ok    404   404   404   own   login
web:services                        POST  405   405   405   405   404   404   404   own   login
web:trainings                       GET   ok    ok    ok    ok    404   404   404   own   login
web:trainings                       POST  405   405   405   405   404   404   404   own   login
"""
