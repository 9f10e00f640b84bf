"""The sweep runs (issue 14): the agency's sweeps, newest first, and each one's progress
batch by batch; the manager starts one as of a day (compliance.tasks.start_sweep queues its
batches for the workers, or runs them here when no broker is set). A running run's page
follows the work on its own (htmx polls its progress every few seconds)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from fogkeeper.audit.services import audit_record
from fogkeeper.compliance.models import SweepBatch, SweepRun
from fogkeeper.compliance.runs import SweepAlreadyRunning
from fogkeeper.compliance.tasks import start_sweep
from fogkeeper.formats import counted

from ..common import policy
from ..common.dates import agency_today
from ..common.forms import DateInput
from ..common.jobs import POLL_SECONDS, duration_words
from ..common.pages import PAGE_SIZE, agency_page, reads_only

START_KIND = "sweep"  # the kind of write starting a sweep is (policy.WRITES: the manager's)
ERRORS_SHOWN = 100  # case files that failed validation listed on a run's page
BATCH_FIELDS = ("establishments", "opened", "closed", "changed", "errors")


class SweepStartForm(forms.Form):
    as_of = forms.DateField(
        label="As of",
        widget=DateInput,
        help_text="The day the establishments are evaluated as of: today, or a day before.",
        error_messages={
            "required": "Enter the day to sweep as of.",
            "invalid": "Enter the day to sweep as of as a date (YYYY-MM-DD).",
        },
    )

    def __init__(self, *args, agency, **kwargs):
        super().__init__(*args, **kwargs)
        self.agency, self.today = agency, agency_today(agency)
        self.fields["as_of"].initial = self.today

    def clean_as_of(self) -> date:
        day = self.cleaned_data["as_of"]
        if day > self.today:
            raise forms.ValidationError(
                f"The as-of date {day} is after today ({self.today} in the agency's time "
                "zone): a sweep evaluates what has happened, not what may."
            )
        effective = self.agency.get_pack().effective
        if day < effective:
            raise forms.ValidationError(
                f"The as-of date {day} is before the ordinance took effect ({effective})."
            )
        return day


@dataclass
class Progress:
    """What a run has done so far: its own totals once complete, else its stored batches'."""

    establishments: int = 0
    opened: int = 0
    closed: int = 0
    changed: int = 0
    errors: list = field(default_factory=list)


def progress(run: SweepRun, batches: list[SweepBatch] | None = None) -> Progress:
    if run.status == SweepRun.COMPLETE:
        return Progress(**{name: getattr(run, name) for name in BATCH_FIELDS})
    if batches is None:
        batches = list(run.batches.filter(status=SweepBatch.DONE).only("status", *BATCH_FIELDS))
    done = Progress()
    for b in batches:
        if b.status == SweepBatch.DONE:
            for name in BATCH_FIELDS[:4]:
                setattr(done, name, getattr(done, name) + getattr(b, name))
            done.errors += b.errors
    return done


def status_words(run: SweepRun) -> str:
    """'running — 12 of 25 batches', 'complete', 'stopped before it finished — 12 of 25
    batches' (compliance.runs.mark_dead)."""
    if run.status == SweepRun.RUNNING:
        return f"running — {run.batches_done} of {run.batches_total} batches"
    if run.status == SweepRun.DIED:
        return f"stopped before it finished — {run.batches_done} of {run.batches_total} batches"
    return run.get_status_display()


def took_words(start, end) -> str:
    """How long a run took, as a person says it: '40 seconds', '2 minutes', '1 hour 5 minutes'
    (the exact figure stays in the technical details)."""
    if start is None or end is None:
        return ""
    seconds = max(round((end - start).total_seconds()), 0)
    if seconds < 60:
        return counted(seconds, "second")
    hours, minutes = divmod(round(seconds / 60), 60)
    if not hours:
        return counted(minutes, "minute")
    return counted(hours, "hour") + (f" {counted(minutes, 'minute')}" if minutes else "")


def summary_words(run: SweepRun, done: Progress) -> str:
    """What a run did, in one sentence: 'Checked 1,204 establishments in 2 minutes: 38 new
    findings, 12 resolved, 3 otherwise changed.' (so far, while it runs)."""
    checked = counted(done.establishments, "establishment")
    if run.status == SweepRun.COMPLETE:
        took = took_words(run.started_at, run.finished_at)
        head = f"Checked {checked}" + (f" in {took}" if took else "")
    elif run.status == SweepRun.RUNNING:
        head = f"So far, checked {checked}"
    else:
        head = f"Checked {checked} before it stopped"
    found = (
        f"{counted(done.opened, 'new finding')}, {done.closed:,} resolved, "
        f"{done.changed:,} otherwise changed"
    )
    text = f"{head}: {found}."
    if done.errors:
        records = counted(len(done.errors), "establishment")
        text += f" {records} could not be checked: their records need correcting (below)."
    return text


def run_row(run: SweepRun) -> dict:
    end = run.finished_at or (timezone.now() if run.status == SweepRun.RUNNING else None)
    return {
        "run": run,
        "status": status_words(run),
        "done": progress(run),
        "duration": duration_words(run.started_at, end),
    }


def _start_form(request, data=None) -> SweepStartForm | None:
    if not policy.may_write(request.user, request.agency, START_KIND):
        return None
    return SweepStartForm(data, agency=request.agency)


def _list(request, form, running=None, status=200):
    runs = SweepRun.objects.filter(agency=request.agency).order_by("-started_at", "-pk")
    page = Paginator(runs.defer("errors", "timings"), PAGE_SIZE).get_page(request.GET.get("page"))
    page.object_list = [run_row(r) for r in page.object_list]  # type: ignore[misc]  # rows shown
    context = {"page": page, "form": form, "running": running}
    return render(request, "web/sweeps/list.html", context, status=status)


@agency_page
@reads_only
def sweep_list(request):
    """The agency's sweep runs, newest first; the manager's form to start one."""
    return _list(request, _start_form(request))


@agency_page
def sweep_start(request):
    """Start a sweep as of the day asked for (manager), then show its run."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    policy.require_write(request.user, request.agency, START_KIND)
    form = _start_form(request, request.POST)
    assert form is not None  # the person may write (required above)
    if not form.is_valid():
        return _list(request, form, status=400)
    try:
        run = start_sweep(
            request.agency,
            as_of=form.cleaned_data["as_of"],
            requested_by=request.user.get_username(),
        )
    except SweepAlreadyRunning as e:
        return _list(request, form, running=e.run, status=409)
    # the run is committed by plan_sweep, before its batches are queued: recorded right after
    audit_record(action="sweep.start", obj=run, actor=request.user, agency=request.agency)
    messages.success(request, f"The sweep as of {run.as_of} was started.")
    return redirect("web:sweep_detail", pk=run.pk)


@agency_page
@reads_only
def sweep_detail(request, pk: int):
    """One run: its progress, its batches, the case files that failed validation. While it
    runs, htmx asks for the progress again every POLL_SECONDS (the fragment alone)."""
    run = get_object_or_404(SweepRun, pk=pk, agency=request.agency)
    batches = list(run.batches.defer("establishment_ids").order_by("number"))
    done = progress(run, batches)
    queued = [b.pk for b in batches if b.status != SweepBatch.DONE]
    context = {
        **run_row(run),
        "done": done,
        "summary": summary_words(run, done),
        "batches": batches,
        "planned": done.establishments + _establishments_of(queued),
        "errors": done.errors[:ERRORS_SHOWN],
        "errors_more": max(len(done.errors) - ERRORS_SHOWN, 0),
        "poll": POLL_SECONDS,
    }
    partial = bool(request.headers.get("HX-Request"))
    template = "web/sweeps/_progress.html" if partial else "web/sweeps/detail.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _establishments_of(batch_ids: list[int]) -> int:
    """How many establishments the batches not yet stored hold."""
    if not batch_ids:
        return 0
    lists = SweepBatch.objects.filter(pk__in=batch_ids).values_list("establishment_ids", flat=True)
    return sum(len(ids) for ids in lists)
