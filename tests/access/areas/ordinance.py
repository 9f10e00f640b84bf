"""The ordinance page (fogkeeper/web/ordinance/): every staff role reads the agency's ordinance
as fogkeeper enforces it; the outside roles never see it; it changes nothing."""

TABLE = """
web:ordinance                       GET   ok    ok    ok    ok    404   404   404   own   login
web:ordinance                       POST  405   405   405   405   404   404   404   own   login
"""
