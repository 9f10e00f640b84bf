"""A request an operator filed, as staff see it, and its answer: every staff role reads it;
who may answer it is policy.may_write(..., "request_answer"). Another agency's is 404."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render

from fogkeeper.filings import selectors
from fogkeeper.filings.services import filing_decide, filing_deliver

from ..common import policy
from ..common.forms import put_errors
from ..common.pages import agency_page, page_as_of
from .forms import FORMS


@agency_page
def filing_page(request, pk: int):
    filing = selectors.agency_filing(agency=request.agency, pk=pk)
    shown = selectors.view(filing)
    may = policy.may_write(request.user, request.agency, "request_answer")
    answer = shown.kind.answer if shown.kind else "decide"
    if request.method == "POST":
        policy.require_write(request.user, request.agency, "request_answer")
    initial = {"frequency_days": filing.frequency_days, "delivered_on": page_as_of(request)}
    form = FORMS[answer](request.POST or None, initial=initial)
    if filing.is_open and form.is_valid():
        try:
            _answer(request, filing, answer, form.cleaned_data)
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request, f"{shown.title} answered; the establishment was evaluated again."
            )
            return redirect("web:filing", pk=filing.pk)
    context = {"v": shown, "f": filing, "fse": filing.establishment, "form": form, "may": may}
    status = 400 if form.is_bound else 200
    return render(request, "web/filings/filing.html", context, status=status)


def _answer(request, filing, answer: str, data: dict) -> None:
    day = page_as_of(request)
    if answer == "deliver":
        filing_deliver(
            filing=filing,
            delivered_on=data["delivered_on"],
            cost=data.get("cost"),
            reasons=data.get("reasons", ""),
            actor=request.user,
        )
        return
    filing_decide(
        filing=filing,
        outcome=data.get("outcome", "acknowledged"),
        decided_on=day,
        reasons=data.get("reasons", ""),
        frequency_days=data.get("frequency_days"),
        actor=request.user,
    )
