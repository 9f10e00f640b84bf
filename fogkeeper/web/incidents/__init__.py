"""The incident pages (fogkeeper/incidents/): entering an overflow, finding the agency's
incidents, keeping one current after the investigation with the State's reporting
deadlines (incidents.spills), matching by hand the spills an import could not place
(views.py, forms.py), and the CIWQS import run in the background (imports.py). Writes go
through the incidents' services; who may is policy's ("incident"). Templates:
web/incidents/."""
