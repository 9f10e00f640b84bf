"""What of an inspection the operator of its establishment is shown, by every way it reaches
them: the API and the operator's portal (fogkeeper/api/shown.py builds its operator's
inspection entry from OPERATOR) and the receipt emailed (receipts.py renders only these).
Decided here, in the inspections' own layer, because the receipt is made here and may not
ask the API, a higher layer.

The inspectors' notes stay with the agency (ACCESS.md): the inspection's `notes` and each
answer's `note` (AGENCY_ONLY), and so do the depths the operator's portal does not give (the
oil in the final chamber, the sludge to the outlet). A key is named as the API names it;
"answers.item" is a key of each answer."""

from __future__ import annotations

from typing import Any

# The inspection's results, as the operator's portal shows them.
OPERATOR: tuple[str, ...] = (
    "code",
    "date",
    "answers.item",  # the question and its citation, in the pack's words
    "answers.device",
    "answers.compliant",
    "measurements.device",
    "measurements.fog_inches",
    "measurements.solids_inches",
)
# What the receipt also states, of what happened in front of the operator at the inspection:
# who inspected, the photos taken (as thumbnails), who signed for the establishment and the
# signature given. The API serializes none of them for anyone.
ON_SITE: tuple[str, ...] = ("inspector", "photos", "signed_by", "signature")
# Never shown outside the agency, whatever the door.
AGENCY_ONLY: tuple[str, ...] = (
    "notes",
    "answers.note",
    "measurements.final_chamber_floating_oil",
    "measurements.sludge_to_outlet_inches",
)
RECEIPT = OPERATOR + ON_SITE


def shown(key: str, fields: tuple[str, ...] = RECEIPT) -> bool:
    """Whether the operator is shown `key` ("code", "answers.note") by a door showing
    `fields`: never a key of AGENCY_ONLY."""
    return key in fields and key not in AGENCY_ONLY


def of_record(values: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Of `values` (keyed as OPERATOR names them, under `prefix`: "answers."), only those the
    receipt may state."""
    return {k: v for k, v in values.items() if shown(prefix + k)}
