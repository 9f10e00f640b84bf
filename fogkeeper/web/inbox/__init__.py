"""The staff inbox: what operators, haulers and the public filed, newest first, read from
the audit trail (selectors.py, audit.models) and shown a page at a time (views.py). The
nav counts the last week's with its other figures (templatetags/nav.py). Templates:
web/inbox/."""
