"""The number of account requests waiting, for the staff who decide them (the nav's link)."""

from django import template

from .nav import figures

register = template.Library()


@register.simple_tag(takes_context=True)
def waiting_requests(context) -> int | None:
    """How many requests wait for the agency acted for; None when the person may not decide
    them (policy kind "membership")."""
    request = context.get("request")
    return figures(request)["accounts"] if request is not None else None
