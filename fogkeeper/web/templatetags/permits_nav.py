"""The number of permit applications waiting, for the staff nav's "Permits" link."""

from django import template

from fogkeeper.permits.selectors import applications_waiting

register = template.Library()


@register.simple_tag
def permit_applications_waiting(agency) -> int:
    return applications_waiting(agency=agency) if agency is not None else 0


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
