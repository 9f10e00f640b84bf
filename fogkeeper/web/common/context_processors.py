"""What every template of the staff pages is given: the agency acted for and its words."""


def agency(request):
    """The agency the page acts for, its pack's titles and whether it has permits and
    enforcement actions, and the agencies one may switch to."""
    current = getattr(request, "agency", None)
    pack = current.get_pack() if current is not None else None
    return {
        "agency": current,
        "agencies": getattr(request, "agencies", []),
        "membership": getattr(request, "membership", None),
        "titles": pack.titles if pack is not None else {},
        "has_permits": pack.has_permits if pack is not None else True,
        "has_actions": pack.has_actions if pack is not None else True,
    }
