"""Counts with their nouns agreeing, in templates: `{{ n|counted:"overdue pump-out" }}` reads
"1 overdue pump-out", "2 overdue pump-outs"; `{{ n|counted:"batch,batches" }}` for a plural
not made with an "s" (fogkeeper.formats.counted, the one rule for code and pages)."""

from django import template

from fogkeeper.formats import counted as _counted

register = template.Library()


@register.filter
def counted(n, nouns: str) -> str:
    singular, _, plural = str(nouns).partition(",")
    return _counted(int(n or 0), singular, plural)


@register.filter
def noun(n, nouns: str) -> str:
    """The noun alone, agreeing with n, for a count shown apart ("<span>3</span> batches")."""
    singular, _, plural = str(nouns).partition(",")
    return singular if int(n or 0) == 1 else (plural or f"{singular}s")
