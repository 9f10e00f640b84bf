"""Staff disputing a pump-out (usually one a hauler submitted): the service is kept but does
not count towards compliance while the dispute is open; withdrawing the dispute keeps it on
record. Who may is policy.may_write(..., "dispute"); the writes are maintenance's services."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from fogkeeper.compliance.resweep import sweep_establishment
from fogkeeper.maintenance.models import Service
from fogkeeper.maintenance.services import service_dispute, service_dispute_withdraw

from . import policy
from .forms import put_errors
from .views import agency_page


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label="Why is the pump-out disputed?", widget=forms.Textarea(attrs={"rows": 3})
    )


class WithdrawForm(forms.Form):
    reason = forms.CharField(
        label="Why is the dispute withdrawn?", widget=forms.Textarea(attrs={"rows": 3})
    )


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
    fse = service.device.establishment
    disputes = list(service.disputes.select_related("raised_by"))
    open_dispute = next((d for d in disputes if d.withdrawn_on is None), None)
    form_class = WithdrawForm if open_dispute else DisputeForm
    form = form_class(request.POST if request.method == "POST" else None)
    if form.is_valid():
        today = timezone.localdate()
        reason = form.cleaned_data["reason"]
        try:
            if open_dispute:
                service_dispute_withdraw(
                    dispute=open_dispute, reason=reason, withdrawn_on=today, actor=request.user
                )
            else:
                service_dispute(service=service, reason=reason, raised_on=today, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            sweep_establishment(fse, as_of=today)
            done = "withdrawn" if open_dispute else "recorded; it no longer counts"
            messages.success(
                request,
                f"The dispute of manifest {service.manifest_number} was {done}. "
                "The establishment was evaluated again.",
            )
            return redirect("web:establishment", code=fse.code)
    context = {
        "fse": fse,
        "service": service,
        "disputes": disputes,
        "open_dispute": open_dispute,
        "form": form,
    }
    status = 400 if form.is_bound else 200
    return render(request, "web/dispute.html", context, status=status)
