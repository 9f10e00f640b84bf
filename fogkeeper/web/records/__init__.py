"""The records staff write and read on an establishment's behalf:

- views.py, forms.py: recording a pump-out (maintenance.services), an inspection with its
  checklist, readings and photos (inspections.services), a training (training.services) and
  a change of operator (permits.operators);
- samples.py: a sample of the discharge against its limit (inspections.services);
- receipts.py: a waste cooking oil pickup from the collector's receipt (maintenance);
- disputes.py: disputing a pump-out, and withdrawing the dispute (maintenance);
- photos.py: an inspection's photos, served only to the agency's staff;
- lists.py, selectors.py: the lists of inspections, pump-outs and trainings, exported.

Who may record which is policy's (common.pages.record_page); after each write the
establishment is evaluated again. Templates: web/records/."""
