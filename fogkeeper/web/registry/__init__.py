"""The staff pages of the registry:

- establishments.py, selectors.py, establishment_page.py: the agency's establishments
  (filtered, sorted, exported) and one establishment's page as of a day, with its schedule,
  devices, inspections, samples, cases, letters and timeline;
- sites.py, operators.py, places.py, segments.py, site_forms.py: the establishments and what
  is around them (operators, parcels and owners, laterals and sewer segments);
- sewers.py: a sewer segment's page and its cleanings (sewers.services);
- equipment.py, devices.py, haulers.py, employees.py, equipment_forms.py: their equipment and
  people (devices, food grinders, haulers and contracts, employees).

Writes go through the registry's services; who may is policy's. Templates: web/registry/."""
