"""Template tags of the registry pages: whether the person may write a kind of record, asked
of the policy (so a shared page can offer a registry link without its view knowing of it)."""

from django import template

from fogkeeper.web.common import policy

register = template.Library()


@register.simple_tag(takes_context=True)
def may_write(context, kind: str) -> bool:
    """`{% may_write "establishment" as may_edit %}`: policy.may_write for the page's agency."""
    request = context.get("request")
    agency = context.get("agency")
    return bool(request and agency) and policy.may_write(request.user, agency, kind)
