"""The staff pages of money (fogkeeper/billing/): the fee schedules, an establishment's
account, invoices, payments, credits and liens (views.py), and the annual fee invoices run
in the background (annual_fees.py). They call billing's services and selectors; who may
write is web/common/policy.py's "fees", "invoice" and "payment". Templates: web/billing/."""
