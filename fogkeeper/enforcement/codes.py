"""The numbers staff give cases, violations and actions: a prefix and the next free number
(`EC-2`, `V-3`, `NNC-1`), an action's prefix the capitals of its pack title."""

from __future__ import annotations

from collections.abc import Iterable

from django.apps import apps


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


def lock_codes(establishment) -> None:
    """Until the transaction ends, no other writer that calls this may give a code of a record
    of `establishment` (a case, violation or action; the operator portal's trainings and
    employees): the next free code is read and then stored, so the reading must not be
    overtaken (two cases opened at once would both be `EC-2`)."""
    from fogkeeper.registry.models import FoodServiceEstablishment

    fses = FoodServiceEstablishment.objects.select_for_update(no_key=True)
    list(fses.filter(pk=establishment.pk).values("pk"))


def check_code_free(errors, model, establishment, code: str) -> None:
    """Refuse `code` when another case or action of the establishment has it (taken meanwhile
    by another page, say), naming the next free code; call it holding `lock_codes`."""
    from fogkeeper.registry.services import add_error

    codes = model.objects.filter(establishment=establishment).values_list("code", flat=True)
    taken = set(codes)
    if code in taken:
        prefix = code.rsplit("-", 1)[0] if "-" in code else code
        add_error(
            errors,
            "code",
            f"{code} is taken at {establishment.name} (by another "
            f"{model._meta.verbose_name}): use {next_code(taken, prefix)}.",
        )


def action_code(establishment, prefix: str) -> str:
    """The next free action code with `prefix` at the establishment (action codes are unique
    per establishment; the model is named, as models.py imports this module)."""
    actions = apps.get_model("enforcement", "EnforcementAction")
    codes = actions.objects.filter(establishment=establishment)
    return next_code(codes.values_list("code", flat=True), prefix)
