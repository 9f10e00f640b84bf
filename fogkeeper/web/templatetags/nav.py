"""The staff nav's figures, counted in one statement once per request: the permit
applications waiting, what was filed in the last week (the inbox), and the account requests
waiting for those who decide them (policy kind "membership")."""

from django import template
from django.db.models import QuerySet

from fogkeeper.permits.selectors import waiting_applications
from fogkeeper.portal.models import EnrolmentRequest
from fogkeeper.web.common import policy
from fogkeeper.web.common.selectors import counts

from ..inbox.selectors import recent_count_sql

register = template.Library()


def figures(request) -> dict[str, int | None]:
    """{"permits", "filed", "accounts"} for the agency the request acts for; "accounts" is
    None when the person may not decide account requests."""
    cached = getattr(request, "_nav_figures", None)
    if cached is not None:
        return cached
    agency = getattr(request, "agency", None)
    found: dict[str, int | None] = {"permits": 0, "filed": 0, "accounts": None}
    if agency is not None:
        asked: dict[str, QuerySet | tuple[str, list]] = {"filed": recent_count_sql(agency=agency)}
        if agency.get_pack().has_permits:
            asked["permits"] = waiting_applications(agency=agency)
        if policy.may_write(request.user, agency, "membership"):
            asked["accounts"] = EnrolmentRequest.objects.filter(agency=agency, status="waiting")
        found.update(counts(**asked))
    request._nav_figures = found
    return found


@register.simple_tag(takes_context=True)
def nav_figures(context) -> dict[str, int | None]:
    """`{% nav_figures as nav %}`: figures() for the page's request."""
    request = context.get("request")
    return figures(request) if request is not None else {"permits": 0, "filed": 0}
