"""A rule as the check module that raises it declares it (each module's `RULES`).

A rule's identity lives beside the code that decides it, as OpenFisca keeps a variable's
label with its formula: `fogkeeper.rules.checks.declared()` collects the declarations, and
the pack check (which rules a pack may list, which parameters each needs, which obligations
it may title) and the operator's portal (how the schedule says an obligation, which rule is
broken when it is missed, whose it is) read them from there, so no other list of the
engine's rules is kept. A pack still chooses which of them it enforces.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule id a check module raises whatever the pack, the parameters it cannot be
    decided without, and the obligation of the schedule it plans for the rule (`ctx.plan`),
    if it plans one."""

    id: str
    reads: tuple[str, ...] = ()  # parameters a pack listing the rule must hold (packs check)
    obligation: str = ""  # the schedule's key of what falls due (ScheduleItem.obligation)
    says: str = ""  # that obligation in the operator's words ({subject}, {permit} filled in)
    agency_does: bool = False  # the obligation is the agency's to meet, not the operator's
    reminded: bool = False  # the operator is emailed before it falls due (portal.reminders)
