"""Staff disputing a pump-out (usually one a hauler submitted): the service is kept but does
not count towards compliance while the dispute is open; withdrawing the dispute keeps it on
record. Who may is policy.may_write(..., "dispute"); the writes are maintenance's services.

Disputing and withdrawing are two actions the form names (`action=dispute`,
`action=withdraw`), each idempotent: a second dispute of a disputed pump-out, or a withdrawal
when none is open, changes nothing and says so."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from fogkeeper.maintenance.models import Service
from fogkeeper.maintenance.services import service_dispute, service_dispute_withdraw

from ..common import policy
from ..common.forms import put_errors
from ..common.pages import agency_page


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label="Why is the pump-out disputed?", widget=forms.Textarea(attrs={"rows": 3})
    )


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        label="Why is the dispute withdrawn?", widget=forms.Textarea(attrs={"rows": 3})
    )


ACTIONS = {"dispute": DisputeForm, "withdraw": WithdrawForm}
NO_ACTION = "Choose whether to dispute the pump-out or to withdraw its dispute."


@agency_page
def service_dispute_page(request, code: str, pk: int):
    """Dispute the pump-out, or withdraw its open dispute; either way the establishment is
    evaluated again at once."""
    service = get_object_or_404(
        Service.objects.select_related("device__establishment", "hauler", "submitted_by"),
        pk=pk,
        device__establishment__agency=request.agency,
        device__establishment__code=code,
    )
    policy.require_write(request.user, request.agency, "dispute")
    disputes = list(service.disputes.select_related("raised_by"))
    open_dispute = next((d for d in disputes if d.withdrawn_on is None), None)
    action = "withdraw" if open_dispute else "dispute"
    if request.method == "POST":
        action = request.POST.get("action", "")
    form = ACTIONS.get(action, DisputeForm)(request.POST if request.method == "POST" else None)
    if request.method == "POST" and action not in ACTIONS:
        form.add_error(None, NO_ACTION)
    elif form.is_valid():
        try:
            return _act(request, service, action, form.cleaned_data["reason"])
        except ValidationError as e:
            put_errors(form, e)
    context = {
        "fse": service.device.establishment,
        "service": service,
        "disputes": disputes,
        "open_dispute": open_dispute,
        "action": action if action in ACTIONS else "dispute",
        "form": form,
    }
    status = 400 if form.is_bound else 200
    return render(request, "web/records/dispute.html", context, status=status)


def _act(request, service: Service, action: str, reason: str):
    today = timezone.localdate()
    fse = service.device.establishment
    manifest = service.manifest_number
    if action == "dispute":
        dispute, done = service_dispute(
            service=service, reason=reason, raised_on=today, actor=request.user
        )
        said = f"The dispute of manifest {manifest} was recorded; it no longer counts."
        unchanged = (
            f"Manifest {manifest} is already disputed (since {dispute.raised_on:%Y-%m-%d}); "
            "nothing was changed."
        )
    else:
        _, done = service_dispute_withdraw(
            service=service, reason=reason, withdrawn_on=today, actor=request.user
        )
        said = f"The dispute of manifest {manifest} was withdrawn."
        unchanged = f"Manifest {manifest} is not disputed; nothing was changed."
    if done:
        messages.success(request, f"{said} The establishment was evaluated again.")
    else:
        messages.info(request, unchanged)
    return redirect("web:establishment", code=fse.code)
