"""The permit pages (fogkeeper/permits/): the application queue and its review, the permit
list and page, issue, renew, deny a renewal, modify with notice, suspend and revoke, the
permit document and plan review (views.py, forms.py). Writes go through the permits'
services; who may is policy's ("permit", "plan_review"). Templates: web/permits/."""
