"""The ordinance page (`/ordinance/`): the agency's pack as a reader of the law wants it, so
that a city attorney can review what fogkeeper enforces. Each area of the ordinance lists its
rules with their citations, the questions of the inspection checklist, and the parameters with
every value they have held and the day it took effect; beside each rule, the findings of it on
record after the agency's last sweep. It reads the pack (`rules.packs`) and the stored findings
(`compliance.models`), and changes nothing."""
