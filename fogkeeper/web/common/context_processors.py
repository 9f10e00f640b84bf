"""What every template of the staff pages is given: the agency acted for and its words."""


def agency(request):
    """The agency the page acts for, its pack's titles, and the agencies one may switch to."""
    current = getattr(request, "agency", None)
    return {
        "agency": current,
        "agencies": getattr(request, "agencies", []),
        "membership": getattr(request, "membership", None),
        "titles": current.get_pack().titles if current is not None else {},
    }
