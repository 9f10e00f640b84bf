"""What the portals keep of their own: the reminders sent to operators, each sent once."""

from django.db import models


class ReminderSent(models.Model):
    """A reminder emailed to an establishment's operator that `obligation` (of the engine's
    schedule, for `subject`) falls due on `due` (see portal.reminders)."""

    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="reminders"
    )
    obligation = models.CharField(max_length=60)
    subject = models.CharField(max_length=80)
    due = models.DateField()
    sent_on = models.DateField()
    email = models.EmailField(help_text="the address it was sent to")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-sent_on", "establishment", "due"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "obligation", "subject", "due"], name="reminder_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.obligation} {self.subject} due {self.due}, sent {self.sent_on}"


class OverdueReminder(models.Model):
    """The last reminder emailed to an establishment's operator that `obligation` (for
    `subject`), due on `due`, is overdue: it is sent again a week later at the soonest, and no
    more once the obligation is done (its due date leaves the overdue schedule)."""

    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment",
        on_delete=models.PROTECT,
        related_name="overdue_reminders",
    )
    obligation = models.CharField(max_length=60)
    subject = models.CharField(max_length=80)
    due = models.DateField()
    last_sent_on = models.DateField()
    times = models.PositiveIntegerField(default=1, help_text="how many times it was sent")
    email = models.EmailField(help_text="the address it was last sent to")

    class Meta:
        ordering = ["-last_sent_on", "establishment", "due"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "obligation", "subject", "due"],
                name="overdue_reminder_per_item",
            )
        ]

    def __str__(self) -> str:
        return f"{self.obligation} {self.subject} due {self.due}, sent {self.last_sent_on}"


ENROLMENT_KINDS = [("operator", "FSE operator"), ("hauler", "Grease hauler")]
ENROLMENT_STATUSES = [("waiting", "Waiting"), ("approved", "Approved"), ("rejected", "Rejected")]


class EnrolmentRequest(models.Model):
    """An FSE operator or a hauler asking an agency for an account (portal.enrolment). The
    agency's manager approves it, which creates the membership, or rejects it with a reason.
    An email has one waiting request per agency at a time."""

    agency = models.ForeignKey(
        "registry.Agency", on_delete=models.PROTECT, related_name="enrolment_requests"
    )
    kind = models.CharField(max_length=20, choices=ENROLMENT_KINDS)
    business_name = models.CharField(max_length=200)
    contact_name = models.CharField(max_length=200)
    email = models.EmailField()
    phone = models.CharField(max_length=40)
    mailing_address = models.TextField()
    establishments = models.TextField(
        blank=True, help_text="for an operator: the establishments it runs, as it wrote them"
    )
    establishment_codes = models.JSONField(
        default=list, blank=True, help_text="for an operator: the codes it gave (unchecked)"
    )
    service_area = models.TextField(blank=True, help_text="for a hauler")
    licence_number = models.CharField(max_length=60, blank=True)
    licence_expires_on = models.DateField("licence expiry date", null=True, blank=True)
    submitted_at = models.DateTimeField()
    status = models.CharField(max_length=20, choices=ENROLMENT_STATUSES, default="waiting")
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(blank=True, help_text="why it was rejected")
    membership = models.ForeignKey(
        "web.Membership", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-submitted_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["agency", "email"],
                condition=models.Q(status="waiting"),
                name="one_waiting_enrolment_per_email",
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=["operator", "hauler"]), name="enrolment_kind_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.business_name} ({self.get_kind_display()}) asks {self.agency}"

    @property
    def waiting(self) -> bool:
        return self.status == "waiting"
