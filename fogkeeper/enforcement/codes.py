"""The numbers staff give cases, violations and actions: a prefix and the next free number
(`EC-2`, `V-3`, `NNC-1`), an action's prefix the capitals of its pack title."""

from __future__ import annotations

from collections.abc import Iterable


def next_code(existing: Iterable[str], prefix: str) -> str:
    """The first `<prefix>-<n>` not among `existing`."""
    taken = set(existing)
    n = 1
    while f"{prefix}-{n}" in taken:
        n += 1
    return f"{prefix}-{n}"


def initials(title: str) -> str:
    """`Notice of Non-Compliance` -> `NNC`: the capitals that start the title's words."""
    words = title.replace("-", " ").split()
    return "".join(w[0] for w in words if w[0].isupper()) or "A"


def action_code(establishment, prefix: str) -> str:
    """The next free action code with `prefix` at the establishment (action codes are unique
    per establishment)."""
    from .models import EnforcementAction

    codes = EnforcementAction.objects.filter(establishment=establishment)
    return next_code(codes.values_list("code", flat=True), prefix)
