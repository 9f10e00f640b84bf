"""What the demo's tests share: the day the programs lead up to, `manage.py demo` run for it,
and the rules a written program's stories tell."""

from datetime import date
from io import StringIO

from django.core.management import call_command

AS_OF = date(2026, 11, 30)


def load(*args: str) -> str:
    out = StringIO()
    call_command("demo", "--as-of", AS_OF.isoformat(), *args, stdout=out)
    return out.getvalue()


def rules_of_sections_3_to_9(pack) -> set[str]:
    """Every rule id of the pack and every checklist item, less enforcement and fees."""
    rules = {r for r in pack.rules if not r.startswith(("enforcement.", "fees."))}
    return rules | set(pack.checklist)
