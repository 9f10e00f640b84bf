"""One module per area of the ordinance; each exposes `check(ctx)` and declares the rules it
raises as `RULES` (fogkeeper.rules.declared.Rule). What knows the engine's rules collects them
here, so a rule is added in its check module and nowhere else (but the packs that enforce it).
The enforcement module raises no rule of its own: its rules are those a pack's
enforcement.yaml names in its checks."""

from ..declared import Rule
from . import (
    devices,
    discharge,
    enforcement,
    incidents,
    inspections,
    observations,
    permits,
    reports,
    training,
    waste,
)

OPERATIONAL = (
    permits,
    devices,
    waste,
    training,
    inspections,
    observations,
    discharge,
    incidents,
    reports,
)


def declared() -> dict[str, Rule]:
    """Every rule the checks raise whatever the pack, by id, in the order they are checked."""
    return {rule.id: rule for area in OPERATIONAL for rule in area.RULES}


def obligations() -> dict[str, Rule]:
    """The obligations the schedule lists (`ctx.plan`), each with the rule broken when it is
    missed."""
    return {rule.obligation: rule for rule in declared().values() if rule.obligation}


__all__ = ["OPERATIONAL", "Rule", "declared", "enforcement", "obligations"]
