"""Reports the agency requires of an establishment (issue 42): the kinds are the pack's
`reports:` (Town 10.02.070(D) BMP status, 10.02.140(C) self-monitoring), the manager sets
their due dates, the operator submits them in the portal, and the engine's
`report.overdue` decides when one is late."""
