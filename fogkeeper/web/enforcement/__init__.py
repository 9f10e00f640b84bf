"""Enforcement on the staff pages (fogkeeper/enforcement/):

- cases.py: the agency's cases, one case with its actions, facts, letters and the deadlines
  the engine gives it (compliance.reports.establishment_report, enforcement.steps), and the
  letters as sent;
- actions.py: the case workbench, each next step through the enforcement services;
- from_findings.py: a case opened from an establishment's open findings, and the pack's
  first notice sent to many establishments in the background (compliance.from_findings);
- calendar.py: the clerk's legal calendar of hearings, deadlines, finality and lien dates,
  with the spill reports due (incidents.spills) and overdue sewer cleanings, as a page, CSV
  and iCalendar;
- forms.py: the forms of the pack's actions, hearings, appeals, facts and judgments.

Who may take which step is policy's (`policy.action_kind`). Templates: web/enforcement/."""
