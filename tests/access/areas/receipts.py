"""The staff's record of a waste cooking oil pickup (fogkeeper/web/records/receipts.py): whoever
records pump-outs for the agency, the manager and the inspector."""

TABLE = """
web:record_yellow_grease            GET   ok    ok    403   403   404   404   404   404   login
web:record_yellow_grease            POST  ok    ok    403   403   404   404   404   404   login
"""
