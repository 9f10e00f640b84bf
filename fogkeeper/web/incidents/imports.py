"""The CIWQS import page: the manager or the inspector uploads the State Water Board's
private lateral sewage discharge export (Latin-1 CSV, as published); a file that is not one
is refused at once, naming what is wrong, and nothing is kept. Offered only to an agency
whose State pack's system is CIWQS (any other agency's pages answer 404, saying why). The
import runs on a worker (incidents/imports.py; here and now when no broker is set) and its
page follows it: rows read, then incidents created, already present, matched and skipped,
and the establishments evaluated again."""

from __future__ import annotations

from functools import wraps

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render

from fogkeeper.audit.services import audit_record
from fogkeeper.incidents.ciwqs import CiwqsFileError
from fogkeeper.incidents.imports import check_upload, queue, start_import
from fogkeeper.incidents.models import IncidentImport
from fogkeeper.incidents.reporting_pack import of_agency

from ..common import jobs, policy
from ..common.pages import agency_page, reads_only

KIND = "incident"  # the kind of write an import is (policy.WRITES: manager's, inspector's)
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
WDID_LENGTH = 20


class CiwqsUploadForm(forms.Form):
    file = forms.FileField(
        label="CIWQS export (CSV)",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
        help_text="The private lateral sewage discharge export from CIWQS, as downloaded.",
        error_messages={"required": "Choose the CIWQS export to import."},
    )
    wdids = forms.CharField(
        label="Only these sewer systems (WDID)",
        required=False,
        max_length=500,
        help_text="The export's WDID of the agency's systems, separated by commas; leave empty "
        "to take every spill of the file.",
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                f"The file is larger than {MAX_UPLOAD_BYTES // (1024 * 1024)} MB: export "
                "fewer regions or years from CIWQS and import each file."
            )
        try:
            self.rows = check_upload(upload)
        except CiwqsFileError as e:
            raise forms.ValidationError(f"{e}. Nothing was imported.") from e
        return upload

    def clean_wdids(self) -> list[str]:
        wdids = [w.strip() for w in self.cleaned_data["wdids"].split(",") if w.strip()]
        bad = [w for w in wdids if len(w) > WDID_LENGTH or not w.replace("-", "").isalnum()]
        if bad:
            raise forms.ValidationError(
                f"Not a WDID: {', '.join(bad)}. A WDID reads like 9SSO10686, letters and digits."
            )
        return wdids


def offered(view):
    """The page only for an agency whose State pack reports in CIWQS; 404 for another."""

    @wraps(view)
    def page(request, *args, **kwargs):
        state = of_agency(request.agency)
        if state is None or state.system != "CIWQS":
            raise Http404(
                f"{request.agency.name} imports no State spill export: its ordinance pack "
                "names no State reporting system to import from."
            )
        return view(request, *args, **kwargs)

    return page


def _form(request, data=None, files=None) -> CiwqsUploadForm | None:
    if not policy.may_write(request.user, request.agency, KIND):
        return None
    return CiwqsUploadForm(data, files)


def status_words(run: IncidentImport) -> str:
    if run.underway:
        return f"{run.status_words().lower()} — {run.rows_read} of {run.rows_total} rows"
    return run.get_status_display()


def _list(request, form, status=200):
    runs = IncidentImport.objects.filter(agency=request.agency).select_related("requested_by")
    page = jobs.runs_page(request, runs, status_words)
    context = {"page": page, "form": form}
    return render(request, "web/incidents/imports.html", context, status=status)


@agency_page
@offered
def import_list(request):
    """The agency's CIWQS imports, newest first, and the form to upload one (POST here)."""
    if request.method not in ("GET", "HEAD", "POST"):
        return HttpResponseNotAllowed(["GET", "POST"])
    if request.method != "POST":
        return _list(request, _form(request))
    policy.require_write(request.user, request.agency, KIND)
    form = _form(request, request.POST, request.FILES)
    assert form is not None  # the person may write (required above)
    if not form.is_valid():
        return _list(request, form, status=400)
    run = start_import(
        agency=request.agency,
        upload=form.cleaned_data["file"],
        rows=form.rows,
        wdids=form.cleaned_data["wdids"],
        user=request.user,
    )
    audit_record(action="ciwqs.upload", obj=run, actor=request.user, agency=request.agency)
    messages.success(request, f"{run.filename} was uploaded and its import started.")
    return redirect("web:incident_import", pk=run.pk)


@agency_page
@offered
@reads_only
def import_detail(request, pk: int):
    """One import: rows read while it runs (htmx polls the fragment), then what it did."""
    run = get_object_or_404(
        IncidentImport.objects.select_related("requested_by"), pk=pk, agency=request.agency
    )
    return jobs.run_page(
        request,
        run,
        kind=KIND,
        page="web/incidents/import.html",
        fragment="web/incidents/_import_progress.html",
        status=status_words(run),
    )


@agency_page
@offered
def import_requeue(request, pk: int):
    """Queue a stalled import again (its message lost, or its worker gone)."""
    run = get_object_or_404(IncidentImport, pk=pk, agency=request.agency)
    return jobs.requeue(
        request,
        run,
        kind=KIND,
        queue=queue,
        action="ciwqs.requeue",
        what="import",
        page="web:incident_import",
    )
