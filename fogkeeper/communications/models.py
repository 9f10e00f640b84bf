"""A letter or email written once and sent to many establishments (issue 27): the
communication with the filter of the establishment list it went to, each establishment it
went to (one row each, so that a run restarted sends each once), and the establishments whose
operators asked for no more newsletters."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from fogkeeper.jobs import Job


class Communication(Job):
    """What was written (subject and body with merge fields, an optional PDF), how it goes
    (email, letter or both), whether it is a legal notice or a newsletter, the establishments
    it goes to (the establishment list's filters, kept as asked), and how far sending got."""

    DRAFT = "draft"
    STATUSES = [
        (DRAFT, "Draft: not sent"),
        (Job.QUEUED, "Queued"),
        (Job.RUNNING, "Sending"),
        (Job.COMPLETE, "Sent"),
        (Job.FAILED, "Stopped unfinished"),
    ]
    LEGAL_NOTICE, NEWSLETTER = "legal_notice", "newsletter"
    KINDS = [
        (LEGAL_NOTICE, "Legal notice (no unsubscribe; sent to every establishment chosen)"),
        (NEWSLETTER, "Newsletter (with an unsubscribe link; not sent to those who opted out)"),
    ]
    EMAIL, LETTER, BOTH = "email", "letter", "both"
    CHANNELS = [
        (EMAIL, "Email (a letter to establishments without an email address)"),
        (LETTER, "Letter"),
        (BOTH, "Email and letter"),
    ]

    agency = models.ForeignKey("registry.Agency", on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=20, choices=KINDS)
    channel = models.CharField(max_length=10, choices=CHANNELS)
    subject = models.CharField(max_length=200)
    body = models.TextField(help_text="plain text with merge fields such as {establishment_name}")
    filters = models.JSONField(
        default=dict, blank=True, help_text="the establishment list's filters"
    )
    attachment = models.FileField(upload_to="communications/%Y/%m/", blank=True)
    attachment_name = models.CharField(max_length=255, blank=True)
    site = models.CharField(max_length=200, help_text="the address unsubscribe links start with")
    as_of = models.DateField(help_text="the day the letters are dated and merge fields read")
    status = models.CharField(max_length=10, choices=STATUSES, default=DRAFT)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    sent = models.PositiveIntegerField(default=0)
    letter_only = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    queued_at = models.DateTimeField(null=True, blank=True)

    class Meta(Job.Meta):
        indexes = [models.Index(fields=["agency", "-created_at"], name="communication_agency")]

    def __str__(self) -> str:
        return f"{self.subject} ({self.get_status_display()})"

    @property
    def is_draft(self) -> bool:
        return self.status == self.DRAFT

    @property
    def is_newsletter(self) -> bool:
        return self.kind == self.NEWSLETTER

    @property
    def emails(self) -> bool:
        return self.channel in (self.EMAIL, self.BOTH)


class Recipient(models.Model):
    """One establishment a communication goes to, what it was sent as (the subject and body
    with its own values) and how: emailed (and the address), a letter, or why not."""

    PENDING, SENT, LETTER_ONLY, SKIPPED, FAILED = (
        "pending",
        "sent",
        "letter_only",
        "skipped",
        "failed",
    )
    STATES = [
        (PENDING, "Not sent yet"),
        (SENT, "Sent"),
        (LETTER_ONLY, "Letter only: no email address"),
        (SKIPPED, "Skipped"),
        (FAILED, "Failed"),
    ]

    communication = models.ForeignKey(
        Communication, on_delete=models.PROTECT, related_name="recipients"
    )
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="+"
    )
    position = models.PositiveIntegerField(help_text="the order sent in")
    state = models.CharField(max_length=12, choices=STATES, default=PENDING)
    email = models.EmailField(blank=True, help_text="the address it was emailed to")
    letter = models.BooleanField(default=False, help_text="a letter was made for the post")
    letter_pdf = models.BinaryField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    subject = models.CharField(max_length=300, blank=True)
    body = models.TextField(blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["communication", "establishment"], name="one_recipient_per_communication"
            ),
            models.CheckConstraint(
                condition=~Q(state="sent") | ~Q(email="") | Q(letter=True),
                name="recipient_sent_somehow",
            ),
        ]
        indexes = [
            models.Index(fields=["communication", "state", "position"], name="recipient_todo"),
            models.Index(fields=["establishment", "-sent_at"], name="recipient_history"),
        ]

    def __str__(self) -> str:
        return f"{self.communication_id} to {self.establishment_id}: {self.state}"

    def delivered(self) -> str:
        """How it reached the establishment, in words."""
        if self.state == self.PENDING:
            return "Not sent yet"
        if self.state in (self.SKIPPED, self.FAILED):
            return f"{self.get_state_display()}: {self.reason}"
        how = [f"emailed to {self.email}"] if self.email else []
        if self.letter:
            how.append("letter for the post")
        said = " and ".join(how).capitalize()
        return f"{said} ({self.reason})" if self.reason else said


class NewsletterOptOut(models.Model):
    """An establishment whose operator asked, by a newsletter's link, for no more newsletters.
    Legal notices still go to it."""

    establishment = models.OneToOneField(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="+"
    )
    email = models.EmailField(blank=True, help_text="the address the newsletter went to")
    communication = models.ForeignKey(
        Communication, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"no newsletters to {self.establishment_id} since {self.created_at:%Y-%m-%d}"
