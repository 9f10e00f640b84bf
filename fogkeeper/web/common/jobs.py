"""The pages of background work started from a page (fogkeeper/jobs.py): a run's page,
whose progress fragment htmx polls while it is under way, and the button that queues a
stalled run again."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib import messages
from django.core.paginator import Page, Paginator
from django.http import HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers

from fogkeeper.audit.services import audit_record

from . import policy

RUNS_PER_PAGE = 25
POLL_SECONDS = 5  # how often a running run's page asks for its progress


def duration_words(start: datetime | None, end: datetime | None) -> str:
    """How long a run took, or has taken so far: '4.2 s', '3 min 5 s', '1 h 2 min'."""
    if start is None or end is None:
        return ""
    seconds = max((end - start) / timedelta(seconds=1), 0.0)
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min" if hours else f"{minutes} min {rest} s"


def runs_page(request, runs, words) -> Page:
    """The `?page=` of a list of runs, each as {"run", "status" (`words(run)`)}."""
    page = Paginator(runs, RUNS_PER_PAGE).get_page(request.GET.get("page"))
    page.object_list = [{"run": r, "status": words(r)} for r in page.object_list]
    return page


NOT_STALLED = (
    "The {what} is not stalled: it is finished, or a worker moved it on within the last few "
    "minutes. Nothing was queued."
)


def run_page(request, run, *, kind: str, page: str, fragment: str, **extra):
    """The run's page, or its progress fragment alone for htmx."""
    context = {
        "run": run,
        "duration": duration_words(run.started_at, run.finished_at or run.progress_at),
        "stalled": run.stalled(),
        "may_requeue": policy.may_write(request.user, request.agency, kind),
        "poll": POLL_SECONDS,
        **extra,
    }
    partial = bool(request.headers.get("HX-Request"))
    response = render(request, fragment if partial else page, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def requeue(request, run, *, kind: str, queue, action: str, what: str, page: str):
    """Queue a stalled run again (its message lost, or its worker gone), then show it."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    policy.require_write(request.user, request.agency, kind)
    if not run.stalled():
        messages.error(request, NOT_STALLED.format(what=what))
    else:
        queue(run)
        audit_record(action=action, obj=run, actor=request.user, agency=request.agency)
        messages.success(request, f"The {what} was queued again; a worker carries it on.")
    return redirect(page, pk=run.pk)
