"""Checklist answers from inspections (RULES.md 8): a finding worded as what was found, in
the pack's words for the item (12.10), never as the inspector's question."""

from __future__ import annotations

from typing import Any

from ..context import Context
from ..declared import Rule

# The rules this module raises whatever the pack: none. Its findings are the checklist items
# of the pack's checklist.yaml, each raised under the item's own id.
RULES: tuple[Rule, ...] = ()


def check(ctx: Context) -> None:
    # (item, subject) -> date -> [any non-compliant answer, any compliant answer]
    est_id = ctx.est_id
    failed = {
        (a.item, a.device or est_id) for i in ctx.inspections for a in i.answers if not a.compliant
    }
    if not failed:
        return
    failed_items = {item for item, _ in failed}
    answers: dict[tuple[str, str], dict[Any, Any]] = {}
    for insp in ctx.inspections:
        for a in insp.answers:
            if a.item not in failed_items:
                continue
            key = (a.item, a.device or est_id)
            if key not in failed:
                continue
            by_date = answers.setdefault(key, {})
            seen = by_date.setdefault(insp.date, [None, False])
            if a.compliant:
                seen[1] = True
            elif seen[0] is None:
                seen[0] = insp.id
    for (item, subject), by_date in sorted(answers.items()):
        finding = ctx.pack.checklist[item].finding
        since = inspection = None
        for when in sorted(by_date):
            failed_in, compliant = by_date[when]
            if since is not None and compliant and when > since:
                ctx.finding(
                    item,
                    subject,
                    since,
                    lambda: f"{finding} (inspection of {since}).",  # noqa: B023
                    open=False,
                    resolved_on=when,
                    evidence={"inspection": inspection},
                )
                since = None
            if since is None and failed_in is not None:
                since, inspection = when, failed_in
        if since is not None:
            ctx.finding(
                item,
                subject,
                since,
                f"{finding} (inspection of {since}).",
                evidence={"inspection": inspection},
            )
