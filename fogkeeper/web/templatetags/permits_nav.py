"""The permits a case's page links to: the permit in force and the decisions of the case
ordering it suspended or revoked."""

from django import template

register = template.Library()


@register.simple_tag
def case_permit_orders(case) -> dict:
    """The establishment's permit in force and whether a decision of `case` orders it
    suspended or revoked (for the case page's links to the permit's pages)."""
    from fogkeeper.permits.selectors import establishment_current_permit
    from fogkeeper.permits.services import decisions_ordering

    permit = establishment_current_permit(establishment=case.establishment)
    if permit is None:
        return {}
    orders = {
        what: [d for d in decisions_ordering(permit, what) if d.case_id == case.pk]
        for what in ("suspend", "revoke")
    }
    return {"permit": permit, **orders} if any(orders.values()) else {}
