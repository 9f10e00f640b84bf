"""What the program stands at, read by every staff role:

- dashboard.py: the landing by role (`/`) and the dashboard's figures as of a day;
- map.py: the establishments, the sewer segments and the overflows on a map;
- annual.py: the annual report as a page, a PDF and a workbook (reporting.annual);
- lists.py: the agency-wide lists of findings, invoices and enforcement actions, exported
  as shown;
- sweeps.py, sweep_standing.py: the sweep runs (compliance.tasks.start_sweep, the manager's)
  and which sweep the figures of a page come from;
- selectors.py: the dashboard's and the lists' reads (compliance, billing, enforcement).

Templates: web/reports/, web/lists/, web/sweeps/."""
