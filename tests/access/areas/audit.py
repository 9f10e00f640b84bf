"""The audit trail pages (fogkeeper/web/audit/views.py): the manager and the auditor read the
agency's trail and an establishment's own (policy.may_read_audit); the inspector and the clerk
reach the agency but not its trail (403); the outside roles never see it; nobody writes
(POST is 405 once the establishment named is found)."""

TABLE = """
web:audit                           GET   ok    403   403   ok    404   404   404   own   login
web:audit                           POST  405   403   403   405   404   404   404   own   login
web:establishment_audit             GET   ok    403   403   ok    404   404   404   hid   login
web:establishment_audit             POST  405   403   403   405   404   404   404   hid   login
"""
