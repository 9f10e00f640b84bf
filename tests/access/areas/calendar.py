"""The clerk's legal calendar and its exports: every staff role reads them, nobody writes
through them; the outside roles never see them; agency B's staff see their own agency's."""

TABLE = """
web:calendar                        GET   ok    ok    ok    ok    404   404   404   own   login
web:calendar                        POST  405   405   405   405   404   404   404   own   login
web:calendar_csv                    GET   ok    ok    ok    ok    404   404   404   own   login
web:calendar_csv                    POST  405   405   405   405   404   404   404   own   login
web:calendar_ics                    GET   ok    ok    ok    ok    404   404   404   own   login
web:calendar_ics                    POST  405   405   405   405   404   404   404   own   login
"""
