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


@register.simple_tag
def laterals_of(fse) -> list:
    """`{% laterals_of fse as laterals %}`: the establishment's laterals with their segments."""
    from fogkeeper.registry.selectors import establishment_laterals

    return establishment_laterals(establishment=fse)


@register.simple_tag
def current_tenure(fse):
    """`{% current_tenure fse as tenure %}`: who operates the establishment now, and since."""
    return fse.current_tenure()
