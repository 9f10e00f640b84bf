"""The staff inbox: what operators, haulers and the public filed, newest first, read from
the audit trail (selectors.py, audit.models) and shown a page at a time (views.py). The
nav's count of the last week's is templatetags/inbox_tags.py. Templates: web/inbox/."""
