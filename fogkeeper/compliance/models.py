"""What the nightly sweep found: each establishment's current status and its findings, with
when each was first and last seen open."""

from django.db import models


class SweepRun(models.Model):
    agency = models.ForeignKey("registry.Agency", on_delete=models.PROTECT, related_name="sweeps")
    as_of = models.DateField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    establishments = models.PositiveIntegerField(default=0)
    opened = models.PositiveIntegerField(default=0, help_text="findings newly open")
    closed = models.PositiveIntegerField(default=0, help_text="findings closed")
    changed = models.PositiveIntegerField(default=0, help_text="findings otherwise changed")
    errors = models.JSONField(
        default=list, blank=True, help_text="case files that failed validation: code and problems"
    )
    timings = models.JSONField(
        default=dict, blank=True, help_text="seconds spent loading, evaluating and storing"
    )
    queries = models.PositiveIntegerField(default=0, help_text="database queries the sweep ran")
    RUNNING, COMPLETE, DIED = "running", "complete", "died"
    STATUSES = [(RUNNING, "running"), (COMPLETE, "complete"), (DIED, "stopped unfinished")]
    status = models.CharField(max_length=10, choices=STATUSES, default=RUNNING)
    batch_size = models.PositiveIntegerField(default=1000)
    batches_total = models.PositiveIntegerField(default=0)
    batches_done = models.PositiveIntegerField(default=0)
    progress_at = models.DateTimeField(
        null=True, blank=True, help_text="when a batch last finished (or the run started)"
    )
    requested_by = models.CharField(
        max_length=150, blank=True, help_text="who started it: a user, or the nightly schedule"
    )

    class Meta:
        ordering = ["-started_at"]
        # two sweeps of one agency never run at once: the second is refused (runs.py)
        constraints = [
            models.UniqueConstraint(
                fields=["agency"],
                condition=models.Q(status="running"),
                name="one_running_sweep_per_agency",
            )
        ]

    def __str__(self) -> str:
        return f"sweep of {self.agency} as of {self.as_of}"


class SweepBatch(models.Model):
    """One batch of a sweep's establishments, evaluated and stored by one task. Its counts
    are stored in the same transaction as its findings, so that a batch is stored once
    however many times its task runs."""

    QUEUED, DONE = "queued", "done"
    run = models.ForeignKey(SweepRun, on_delete=models.CASCADE, related_name="batches")
    number = models.PositiveIntegerField()
    establishment_ids = models.JSONField(default=list)
    status = models.CharField(max_length=10, default=QUEUED)
    attempts = models.PositiveIntegerField(default=0, help_text="times a worker began it")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=200, blank=True, help_text="host and process id")
    establishments = models.PositiveIntegerField(default=0)
    opened = models.PositiveIntegerField(default=0)
    closed = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    errors = models.JSONField(default=list, blank=True)
    timings = models.JSONField(default=dict, blank=True)
    queries = models.PositiveIntegerField(default=0)
    max_rss_kib = models.PositiveBigIntegerField(
        default=0, help_text="the worker process's peak memory when the batch was stored"
    )

    class Meta:
        ordering = ["run", "number"]
        constraints = [
            models.UniqueConstraint(fields=["run", "number"], name="one_batch_number_per_run")
        ]

    def __str__(self) -> str:
        return f"batch {self.number} of {self.run}"


class DailyJob(models.Model):
    """A job the schedule runs once a day for an agency (the nightly sweep, the reminders):
    queued when its hour comes in the agency's time zone, queued again if it has not
    finished a while later (a message lost to a broker restart), done once."""

    agency = models.ForeignKey("registry.Agency", on_delete=models.CASCADE, related_name="+")
    job = models.CharField(max_length=40)
    on = models.DateField(help_text="the agency's local date it runs for")
    queued_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True)
    outcome = models.TextField(blank=True)

    class Meta:
        ordering = ["-on", "job"]
        constraints = [
            models.UniqueConstraint(fields=["agency", "job", "on"], name="one_daily_job_a_day")
        ]

    def __str__(self) -> str:
        return f"{self.job} of {self.agency} on {self.on}"


class ComplianceStatus(models.Model):
    """The establishment's report from its last sweep (`as_of`). The sweep leaves it as it was
    when the establishment's case file fails validation (see SweepRun.errors)."""

    establishment = models.OneToOneField(
        "registry.FoodServiceEstablishment", on_delete=models.CASCADE, related_name="compliance"
    )
    as_of = models.DateField()
    status = models.CharField(max_length=20)
    status_citation = models.CharField(
        max_length=200, blank=True, help_text="the provision that makes it exempt"
    )
    open_violations = models.PositiveIntegerField(default=0)
    schedule = models.JSONField(default=list)
    deadlines = models.JSONField(default=list)
    accruals = models.JSONField(default=list)
    next_due = models.DateField(
        null=True, blank=True, db_index=True, help_text="earliest due date of the schedule"
    )
    next_inspection_due = models.DateField(
        null=True,
        blank=True,
        db_index=True,
        help_text="earliest due date of an inspection in the schedule (the field list's)",
    )

    class Meta:
        verbose_name_plural = "compliance statuses"
        # the establishments list filtered by status: counted from the index alone
        indexes = [models.Index(fields=["status", "establishment"], name="status_establishment")]

    def __str__(self) -> str:
        return f"{self.establishment}: {self.status} as of {self.as_of}"


class Finding(models.Model):
    """One finding of the engine, kept while the sweep keeps reporting it.

    A row is written only when something about it changes, so an unchanged finding costs
    nothing to sweep again. `last_seen_on` is therefore the as_of of the last sweep that
    changed it; an open finding has also been seen by every later sweep of its establishment,
    up to `establishment.compliance.as_of`. When a finding closes because it is no longer
    reported, `last_seen_on` is the as_of of the sweep before, the last one that saw it open.
    """

    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.CASCADE, related_name="findings"
    )
    agency = models.ForeignKey(
        "registry.Agency",
        on_delete=models.CASCADE,
        related_name="findings",
        db_index=False,  # leads the partial indexes below
        help_text="the establishment's, so that the agency's findings are counted without it",
    )
    rule = models.CharField(max_length=80, db_index=True)
    subject = models.CharField(max_length=60)
    severity = models.CharField(max_length=20)
    since = models.DateField()
    due = models.DateField(null=True, blank=True)
    resolved_on = models.DateField(null=True, blank=True)
    open = models.BooleanField(db_index=True)
    citation = models.CharField(max_length=200)
    message = models.TextField()
    evidence = models.JSONField(default=dict, blank=True)
    first_seen_on = models.DateField(help_text="as_of of the first sweep that reported it")
    last_seen_on = models.DateField(
        help_text="as_of of the last sweep that changed it; open ones are seen by every sweep"
    )
    closed_on = models.DateField(
        null=True, blank=True, help_text="when it stopped being open (resolved or no longer found)"
    )

    class Meta:
        ordering = ["establishment", "-open", "rule", "since"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "rule", "subject", "since"], name="finding_identity"
            )
        ]
        indexes = [
            # the dashboard's open violations by rule, from the index alone
            models.Index(
                fields=["agency", "rule", "establishment"],
                condition=models.Q(open=True, severity="violation"),
                name="finding_agency_open_violation",
            ),
            # an establishment's open findings of a rule (the field list's overdue pump-outs,
            # the establishments list's filter by rule)
            models.Index(
                fields=["establishment", "rule"],
                condition=models.Q(open=True),
                name="finding_open_by_establishment",
            ),
            # the findings list, open or closed, newest first: a page and its count from
            # the agency's rows alone
            models.Index(fields=["agency", "open", "since"], name="finding_agency_list"),
            # the findings list of one rule, open or closed
            models.Index(fields=["agency", "rule", "open", "since"], name="finding_agency_rule"),
            # the compliance rate on a day: violations open that day (open, or closed since)
            models.Index(
                fields=["agency", "closed_on", "since", "establishment"],
                condition=models.Q(severity="violation"),
                name="finding_agency_violation",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rule} {self.subject} since {self.since}"


class ScheduleItem(models.Model):
    """An obligation of an establishment's schedule (`ComplianceStatus.schedule`) and its due
    date, one row each, written with the status so that the pages can select by obligation
    and due date in the database. Subjects and citations stay in the schedule."""

    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        on_delete=models.CASCADE,
        related_name="schedule_items",
    )
    agency = models.ForeignKey(
        "registry.Agency",
        on_delete=models.CASCADE,
        related_name="schedule_items",
        db_index=False,  # leads the index below
        help_text="the establishment's",
    )
    obligation = models.CharField(max_length=80)
    due = models.DateField()

    class Meta:
        indexes = [
            models.Index(
                fields=["agency", "obligation", "due", "establishment"],
                name="schedule_item_agency",
            )
        ]

    def __str__(self) -> str:
        return f"{self.obligation} due {self.due}"


class ComplianceRate(models.Model):
    """The agency's compliance rate on a month end, as its last sweep on or after that day
    found it: `compliant` of the `active` (open) establishments had no open violation. The
    dashboard's chart reads these and computes a missing day from the findings."""

    agency = models.ForeignKey(
        "registry.Agency", on_delete=models.CASCADE, related_name="compliance_rates"
    )
    date = models.DateField()
    active = models.PositiveIntegerField()
    compliant = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["agency", "date"], name="compliance_rate_per_day"),
            models.CheckConstraint(
                condition=models.Q(compliant__lte=models.F("active")),
                name="compliance_rate_compliant_of_active",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.agency} on {self.date}: {self.compliant} of {self.active}"


class DashboardFigures(models.Model):
    """The counts over the agency that its dashboard shows for a day (`as_of`: the day of its
    last sweep), stored by the sweep when it finishes and counted again after each batch of
    establishments a write re-evaluates (dashboard.py), so that the page reads one row
    rather than count the agency on every visit. A page for another day counts them afresh."""

    agency = models.OneToOneField(
        "registry.Agency", on_delete=models.CASCADE, related_name="dashboard_figures"
    )
    as_of = models.DateField()
    violations = models.JSONField(
        default=dict, blank=True, help_text="rule -> establishments with a violation of it open"
    )
    permits_to_renew = models.PositiveIntegerField(default=0)
    inspections_due = models.PositiveIntegerField(
        default=0, help_text="establishments with an inspection due or overdue"
    )
    inspections_this_week = models.PositiveIntegerField(
        default=0, help_text="establishments with an inspection due in the six days after"
    )
    rates = models.JSONField(
        default=list, blank=True, help_text="[day, open, compliant] of the chart, oldest first"
    )
    calendar = models.JSONField(
        default=list, blank=True, help_text="the deadlines of the week from as_of, by date"
    )
    counted_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "dashboard figures"

    def __str__(self) -> str:
        return f"dashboard of {self.agency} as of {self.as_of}"
