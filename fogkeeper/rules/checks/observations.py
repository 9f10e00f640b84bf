"""Checklist answers from inspections (RULES.md 8)."""

from __future__ import annotations

from ..context import Context


def check(ctx: Context) -> None:
    episodes: dict[tuple[str, str], list] = {}
    for insp in ctx.inspections:
        for a in insp.answers:
            key = (a.item, a.device or ctx.est_id)
            runs = episodes.setdefault(key, [])
            if not a.compliant:
                if not runs or runs[-1][1] is not None:
                    runs.append([insp.date, None, insp.id])
            elif runs and runs[-1][1] is None and insp.date > runs[-1][0]:
                runs[-1][1] = insp.date
    for (item, subject), runs in sorted(episodes.items()):
        question = ctx.pack.checklist[item].question
        for since, cured, insp_id in runs:
            ctx.finding(
                item,
                subject,
                since,
                f"Found not compliant on {since}: {question}",
                open=cured is None,
                resolved_on=cured,
                evidence={"inspection": insp_id},
            )
