"""The number of account requests waiting, for the staff who decide them (the nav's link)."""

from django import template

from fogkeeper.portal.models import EnrolmentRequest
from fogkeeper.web.common import policy

register = template.Library()


@register.simple_tag(takes_context=True)
def waiting_requests(context) -> int | None:
    """How many requests wait for the agency acted for; None when the person may not decide
    them (policy kind "membership")."""
    request, agency = context.get("request"), context.get("agency")
    if request is None or not policy.may_write(request.user, agency, "membership"):
        return None
    return EnrolmentRequest.objects.filter(agency=agency, status="waiting").count()
