"""The operator's requests in its portal: the kinds its agency's pack declares (where it
declares none, the page says so), filing one, and the list of its establishment's requests with the
agency's answers. Another establishment's answers 404."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import render
from django.utils import timezone

from fogkeeper.filings.kinds import request_kind, request_kinds
from fogkeeper.filings.selectors import establishment_filings
from fogkeeper.filings.services import filing_submit
from fogkeeper.web.common import policy
from fogkeeper.web.common.forms import put_errors
from fogkeeper.web.common.pages import reads_only

from .forms import FilingForm
from .views import _filed, establishment_page, writes


@establishment_page
@reads_only
def request_list(request, fse):
    kinds = request_kinds(fse.agency.get_pack())
    context = {
        "fse": fse,
        "kinds": kinds.values(),
        "filings": establishment_filings(establishment=fse),
        "may_file": policy.may_write(request.user, request.agency, "request"),
    }
    return render(request, "portal/operator/requests.html", context)


@writes("request")
def request_file(request, fse, kind: str):
    """File a request of `kind` for the establishment."""
    found = request_kind(fse.agency.get_pack(), kind)
    if found is None:
        raise Http404("no such request")
    form = FilingForm(request.POST or None, kind=found, establishment=fse)
    if form.is_valid():
        try:
            filing_submit(
                establishment=fse,
                kind=kind,
                filed_on=timezone.localdate(),
                actor=request.user,
                **form.cleaned_data,
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            what = f"Your {found.title.lower()} was filed."
            return _filed(request, fse, what, "portal:operator_requests")
    context = {"fse": fse, "form": form, "kind": found, "title": found.title}
    status = 400 if form.is_bound else 200
    return render(request, "portal/operator/request_file.html", context, status=status)
