"""Case files (CASEFILE.md) read from the database, a batch of establishments at a time, in two
forms:

- as_json.py: JSON-ready dicts, what `fogkeeper evaluate` reads and the pages and reports
  show, built from the loaders of json_registry.py (the establishment, operators, permits,
  devices, haulers) and json_history.py (pump-outs, pickups, employees, trainings,
  inspections, incidents, samples), which share json_batch.py's batch;
- as_records.py: the engine's records straight from PostgreSQL, what the sweep evaluates,
  leaving the few out of the ordinary to as_json.py and `parse_case`.
"""
