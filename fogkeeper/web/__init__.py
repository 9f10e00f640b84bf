"""The staff pages, one package per area; urls.py includes each area's urls.py.

A request passes through common/ (policy decides who may, pages.py's decorators ask it),
then the area's views, which read through selectors and write through the services of the
Django app of the same name (fogkeeper/registry, permits, enforcement, ...). The areas:
reports (the landing and dashboard, map, annual report, lists, sweeps), registry
(establishments and what is around them), records (pump-outs, inspections, samples,
trainings, their lists), enforcement (cases, the workbench, the legal calendar), permits,
incidents, billing, field (the inspector's list and the offline app), people (members and
enrolment), inbox, communications, onboarding, ordinance and audit. Each keeps its templates
in its own templates/ folder (settings.TEMPLATES); templatetags/, models.py (memberships)
and static/ serve them all."""
