"""The staff inbox and the landing page: every staff role reads the inbox, nobody writes
through it, the outside roles never see it; `/` sends each role where its work is (a
redirect to the field list or the calendar is "ok"), the outside roles to their portal."""

TABLE = """
web:inbox                           GET   ok    ok    ok    ok    404   404   404   own   login
web:inbox                           POST  405   405   405   405   404   404   404   own   login
web:home                            GET   ok    ok    ok    ok    portal portal portal own   login
web:home                            POST  405   405   405   405   portal portal portal own   login
"""
