"""Whether the person reading a page may read the audit trail (for its links)."""

from django import template

from fogkeeper.web.common import policy

register = template.Library()


@register.simple_tag(takes_context=True)
def may_read_audit(context) -> bool:
    """`{% may_read_audit as may_audit %}`: the manager and the auditor (policy.may_read_audit)."""
    request = context.get("request")
    if request is None:
        return False
    found = getattr(request, "membership", None)  # the agency page's own, read once
    if found is not None:
        return found.role in policy.AUDIT_READERS
    return policy.may_read_audit(request.user, getattr(request, "agency", None))
