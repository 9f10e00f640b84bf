"""The onboarding pages: the runs and the upload form, one run with its progress, its
outcome and its problems page by page, the confirmation of a clean dry run, the blank files."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.audit.services import audit_record
from fogkeeper.onboarding.blank import blank
from fogkeeper.onboarding.catalog import KINDS
from fogkeeper.onboarding.export import zip_chunks
from fogkeeper.onboarding.models import Onboarding
from fogkeeper.onboarding.runs import again, confirm, start_dry_run
from fogkeeper.registry.models import Agency
from fogkeeper.rules.packs import default_registry

from ..common import jobs, policy
from ..common.pages import PAGE_SIZE, agency_page, reads_only

KIND = "onboarding"
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
FORMATS = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


class UploadForm(forms.Form):
    kind = forms.ChoiceField(
        label="What the file holds", choices=[(k.name, k.title) for k in KINDS.values()]
    )
    file = forms.FileField(
        label="Spreadsheet (CSV or XLSX)",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.xlsx,text/csv"}),
        help_text="Its first row names the columns, as in the blank file of its kind.",
        error_messages={"required": "Choose the spreadsheet to check."},
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                f"The file is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB: split it "
                "(one file of each kind, or one per year of pump-outs)."
            )
        if not upload.name.lower().endswith((".csv", ".xlsx")):
            raise forms.ValidationError("Upload a .csv or an .xlsx file.")
        return upload


class SettingsForm(forms.ModelForm):
    """What the agency tells its onboarding: where its establishments lie, and the day its
    pump-out history starts with the grace that follows it."""

    class Meta:
        model = Agency
        fields = (
            "area_south",
            "area_north",
            "area_west",
            "area_east",
            "history_starts",
            "history_grace_days",
        )
        labels = {
            "area_south": "Area: south edge (latitude)",
            "area_north": "Area: north edge (latitude)",
            "area_west": "Area: west edge (longitude, negative in the US)",
            "area_east": "Area: east edge (longitude, negative in the US)",
            "history_starts": "Pump-out history starts (YYYY-MM-DD)",
            "history_grace_days": "Grace after it starts (days)",
        }
        help_texts = {
            "area_south": "Blank: a point is judged by the spread of the establishments.",
            "history_starts": "A device in place before this day with no pump-out on record "
            'is "no record yet", not overdue, until the grace ends. Blank: every device is '
            "due within its frequency of its installation.",
        }


def _status(run: Onboarding) -> str:
    if run.died():
        return "Stopped: its worker died"
    if run.underway:
        return f"{run.status_words().lower()}: {run.rows_read} of {run.rows_total} rows"
    if run.status == Onboarding.COMPLETE and run.problem_count:
        return f"{run.problem_count} problem{'s' if run.problem_count > 1 else ''}"
    return run.get_status_display()


def _list(request, form, status=200, settings_form=None):
    runs = Onboarding.objects.filter(agency=request.agency).select_related("requested_by")
    page = jobs.runs_page(request, runs, _status)
    if settings_form is None and policy.may_write(request.user, request.agency, KIND):
        settings_form = SettingsForm(instance=request.agency)
    context = {
        "page": page,
        "form": form,
        "kinds": KINDS.values(),
        "agency": request.agency,
        "settings_form": settings_form,
    }
    return render(request, "web/onboarding/onboardings.html", context, status=status)


def _form(request, data=None, files=None) -> UploadForm | None:
    if not policy.may_write(request.user, request.agency, KIND):
        return None
    return UploadForm(data, files)


@agency_page
def onboardings(request):
    """The agency's onboardings, newest first, and the form to check a file (POST here)."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    if request.method != "POST":
        return _list(request, _form(request))
    policy.require_write(request.user, request.agency, KIND)
    form = _form(request, request.POST, request.FILES)
    assert form is not None  # the person may write (required above)
    if not form.is_valid():
        return _list(request, form, status=400)
    run = start_dry_run(
        agency=request.agency,
        kind=form.cleaned_data["kind"],
        upload=form.cleaned_data["file"],
        user=request.user,
    )
    audit_record(action="onboarding.upload", obj=run, actor=request.user, agency=request.agency)
    started = "waits for the workers" if run.waiting else "started"
    messages.success(request, f"{run.filename} was uploaded; its dry run {started}.")
    return redirect("web:onboarding", pk=run.pk)


@agency_page
@reads_only
def onboarding(request, pk: int):
    """One run: its progress (htmx polls the fragment), then its outcome and problems."""
    run = get_object_or_404(
        Onboarding.objects.select_related("requested_by", "checked"), pk=pk, agency=request.agency
    )
    problems = Paginator(run.problems, PAGE_SIZE).get_page(request.GET.get("page"))
    return jobs.run_page(
        request,
        run,
        kind=KIND,
        page="web/onboarding/onboarding.html",
        fragment="web/onboarding/_progress.html",
        status=_status(run),
        problems=problems,
        may_confirm=run.may_confirm and policy.may_write(request.user, request.agency, KIND),
        kind_title=KINDS[run.kind].title,
        confirmed=run.imports.first(),
        died=run.died(),
    )


@agency_page
def onboarding_settings(request):
    """The agency's area and the start of its pump-out history, set by its manager."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    policy.require_write(request.user, request.agency, KIND)
    agency = Agency.objects.get(pk=request.agency.pk)
    before = {f: str(getattr(agency, f)) for f in SettingsForm.Meta.fields}
    form = SettingsForm(request.POST, instance=agency)
    if not form.is_valid():
        return _list(request, _form(request), status=400, settings_form=form)
    form.save()
    audit_record(
        action="onboarding.settings",
        obj=agency,
        actor=request.user,
        agency=agency,
        before=before,
        after={f: str(getattr(agency, f)) for f in SettingsForm.Meta.fields},
    )
    messages.success(request, "The agency's onboarding settings were saved.")
    return redirect("web:onboardings")


@agency_page
def onboarding_confirm(request, pk: int):
    """Import the file of a clean dry run, as it was checked."""
    checked = get_object_or_404(Onboarding, pk=pk, agency=request.agency)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    policy.require_write(request.user, request.agency, KIND)
    if not checked.may_confirm:
        messages.error(
            request,
            "Only a finished dry run without a problem may be imported, once. Correct the "
            "file and upload it again.",
        )
        return redirect("web:onboarding", pk=checked.pk)
    run = confirm(checked, user=request.user)
    audit_record(action="onboarding.confirm", obj=run, actor=request.user, agency=request.agency)
    messages.success(request, f"The import of {run.filename} started.")
    return redirect("web:onboarding", pk=run.pk)


@agency_page
def onboarding_requeue(request, pk: int):
    run = get_object_or_404(Onboarding, pk=pk, agency=request.agency)
    return jobs.requeue(
        request,
        run,
        kind=KIND,
        queue=again,
        action="onboarding.requeue",
        what="onboarding",
        page="web:onboarding",
    )


@agency_page
@reads_only
def onboarding_blank(request, kind: str, file_format: str):
    """The blank file of a kind of record, with the agency's pack's words."""
    if kind not in KINDS or file_format not in FORMATS:
        raise Http404("No such blank file.")
    pack = default_registry().get(request.agency.pack)
    response = HttpResponse(blank(kind, pack, file_format), content_type=FORMATS[file_format])
    response["Content-Disposition"] = f'attachment; filename="{kind}.{file_format}"'
    return response


@agency_page
@reads_only
def onboarding_export(request):
    """The agency's program as the onboarding files, CSV in one ZIP, made as it is sent."""
    response = StreamingHttpResponse(zip_chunks(request.agency), content_type="application/zip")
    name = f"{request.agency.code}-program-{request.agency.today().isoformat()}.zip"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
