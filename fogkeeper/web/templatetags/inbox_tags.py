"""The nav's figure of the inbox: what was filed in the last week."""

from django import template

from ..inbox.selectors import recent_count

register = template.Library()


@register.simple_tag(takes_context=True)
def inbox_recent(context) -> int:
    agency = context.get("agency")
    return recent_count(agency=agency) if agency is not None else 0
