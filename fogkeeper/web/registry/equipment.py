"""What the equipment registry pages share (devices, food grinders, haulers and contracts,
employees: devices.py, haulers.py, employees.py): a record found only within the agency
(another agency's answers 404), the write refused by role after it (policy, 403), and after
every write the establishments concerned evaluated again at once."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from fogkeeper.registry.models import FoodServiceEstablishment

from ..common import policy
from ..common.pages import agency_page


def today():
    """The day a write is made: a date after it is refused."""
    return timezone.localdate()


def child_page(model, name: str, kind: str | None, path: str = "establishment"):
    """A page of one `model` record of an establishment of the agency (`name` its URL
    parameter, its pk): 404 for another agency's or another establishment's, then 403 when
    the person may not write a `kind` (None: a page that only reads)."""

    def decorate(view):
        @agency_page
        @wraps(view)
        def wrapper(request, code: str, **kwargs):
            fse = get_object_or_404(FoodServiceEstablishment, agency=request.agency, code=code)
            fse.agency = request.agency
            record = get_object_or_404(model, **{path: fse, "pk": kwargs[name]})
            if kind is not None:
                policy.require_write(request.user, request.agency, kind)
            return view(request, fse, record)

        return wrapper

    return decorate


def evaluated(request, *establishments, message: str, to: str, **kwargs):
    """Say what happened (the write evaluated the establishments again), and go on to `to`."""
    messages.success(request, f"{message} The establishment was evaluated again.")
    return redirect(to, **kwargs)


def form_page(request, template: str, context: dict):
    """A form's page: 400 when what was posted was refused (it is shown again as typed)."""
    status = 400 if context["form"].is_bound else 200
    return render(request, f"web/registry/{template}", context, status=status)


def may(request, *kinds: str) -> dict[str, bool]:
    """Which of these kinds of write the person may make (policy decides)."""
    return {k: policy.may_write(request.user, request.agency, k) for k in kinds}
