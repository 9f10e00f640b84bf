"""Staff pages of the operators (the permittees): a searchable list, each operator with the
establishments it runs now and ran before, and forms to add one and keep its contact current."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.registry import selectors as registry
from fogkeeper.registry.models import Operator
from fogkeeper.registry.services import operator_register, operator_update
from fogkeeper.web.common import policy
from fogkeeper.web.common.forms import put_errors
from fogkeeper.web.common.pages import PAGE_SIZE, agency_page, reads_only

from .site_forms import OperatorForm
from .sites import KIND, form_page, registry_write


def list_page(request, rows, template: str, **extra):
    """A page of a registry list, with the search typed (`q`) kept in the page links."""
    q = request.GET.get("q", "").strip()
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "q": q,
        "query": f"q={q}" if q else "",
        "may_write": policy.may_write(request.user, request.agency, KIND),
        **extra,
    }
    return render(request, template, context)


@agency_page
@reads_only
def operator_list(request):
    rows = registry.operator_list(agency=request.agency, q=request.GET.get("q", ""))
    return list_page(request, rows, "web/registry/operator_list.html")


@agency_page
@reads_only
def operator_detail(request, operator: int):
    found = get_object_or_404(Operator, agency=request.agency, pk=operator)
    context = {
        "operator": found,
        "tenures": registry.operator_establishments(operator=found),
        "may_write": policy.may_write(request.user, request.agency, KIND),
    }
    return render(request, "web/registry/operator_detail.html", context)


@registry_write
def operator_new(request):
    form = OperatorForm(request.POST or None)
    if form.is_valid():
        try:
            found = operator_register(
                agency=request.agency, **form.cleaned_data, actor=request.user
            )
        except ValidationError as e:
            put_errors(form, e)
        else:
            messages.success(
                request,
                f"{found.name} is added. Pick it as the operator when registering an "
                "establishment or recording a change of operator.",
            )
            return redirect("web:operator", operator=found.pk)
    return form_page(request, form, title="Add an operator")


@agency_page
def operator_edit(request, operator: int):
    found = get_object_or_404(Operator, agency=request.agency, pk=operator)
    policy.require_write(request.user, request.agency, KIND)
    initial = {k: getattr(found, k) for k in ("name", "phone", "email", "mailing_address")}
    form = OperatorForm(request.POST or None, initial=initial)
    if form.is_valid():
        try:
            changed = operator_update(operator=found, **form.cleaned_data, actor=request.user)
        except ValidationError as e:
            put_errors(form, e)
        else:
            said = "The changes are saved." if changed else "Nothing had changed."
            messages.success(request, said)
            return redirect("web:operator", operator=found.pk)
    return form_page(request, form, title=f"Edit {found.name}", back=found)
