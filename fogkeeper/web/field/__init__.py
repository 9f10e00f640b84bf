"""Inspections in the field.

- views.py: the field list, the inspections due today and this week, riskiest first;
- route.py: the day's route the field app downloads while online;
- app.py: the field app (the offline inspection form), its manifest and service worker;
- sync.py: the field app sends each inspection kept offline, stored once by its own id
  (fogkeeper.inspections.offline);
- inspection.py: an inspection's page and the operator's receipt;
- selectors.py: the establishments with an inspection due (also the dashboard's figures).

Templates in templates/web/field/; scripts and icons in fogkeeper/web/static/web/field/."""
