"""The audit trail pages, for the manager and the auditor (policy.may_read_audit): the
agency's trail and an establishment's own, filtered and exported (views.py, reading
audit.selectors). Nothing is written here. Templates: web/audit/."""
