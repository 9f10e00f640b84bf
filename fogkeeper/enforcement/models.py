"""Enforcement cases: an establishment's violations and the actions taken on them.

Enforcement records are never edited or deleted: a later fact about an action (a correction
date, a concluded hearing, a payment) is a new `ActionFact`, and an action's effective fields
are its own fields overlaid with its facts in the order they were recorded.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models

# App-level steps that are not engine actions (they never enter a case file themselves).
HEARING, APPEAL, COURT_JUDGMENT = "hearing", "appeal", "court_judgment"
WAIVER = "hearing_waiver"  # the charged party's written waiver of the hearing on a notice
CLOSURE = "case_closure"  # the manager closes the case, with a reason
STEPS = (HEARING, APPEAL, COURT_JUDGMENT, WAIVER, CLOSURE)
DELIVERY = [("mail", "Mailed (certified)"), ("personal", "Personally delivered"), ("", "—")]


class Immutable(models.Model):
    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError(f"{self._meta.verbose_name} records are never changed; add a new one")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError(f"{self._meta.verbose_name} records are never deleted")


class EnforcementCase(Immutable):
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="cases"
    )
    code = models.CharField(max_length=40)
    opened_on = models.DateField()
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["establishment", "code"], name="case_code_unique")
        ]

    def __str__(self) -> str:
        return self.code


class CaseViolation(Immutable):
    """A violation the case is about: an engine finding (rule, subject, since)."""

    case = models.ForeignKey(EnforcementCase, on_delete=models.PROTECT, related_name="violations")
    code = models.CharField(max_length=40)
    rule = models.CharField(max_length=80)
    subject = models.CharField(max_length=80)
    since = models.DateField()
    citation = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["case", "code"], name="violation_unique")]

    def __str__(self) -> str:
        return f"{self.code} {self.rule} {self.subject}"


class EnforcementAction(Immutable):
    """One action or step: a pack action type (`notice_of_noncompliance`, `penalty_order`…) or
    an app-level step (`hearing`, `appeal`, `court_judgment`). `fields` holds the action's
    fields as the case file spells them (dates ISO, money as strings)."""

    case = models.ForeignKey(EnforcementCase, on_delete=models.PROTECT, related_name="actions")
    establishment = models.ForeignKey(
        "registry.FoodServiceEstablishment", on_delete=models.PROTECT, related_name="+"
    )
    code = models.CharField(max_length=40, help_text="the action id in the case file")
    type = models.CharField(max_length=40)
    level = models.CharField(max_length=40, help_text="who acts: inspector, manager, council…")
    taken_on = models.DateField()
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    delivery = models.CharField(max_length=10, choices=DELIVERY, blank=True)
    certified_mail_number = models.CharField(max_length=40, blank=True)
    cites = models.CharField(max_length=200)
    fields = models.JSONField(default=dict, blank=True)
    refers_to = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="the notice a hearing is on, the action appealed, the appeal decided",
    )
    violation = models.ForeignKey(
        CaseViolation, null=True, blank=True, on_delete=models.PROTECT, related_name="actions"
    )
    document = models.FileField(
        upload_to="enforcement/%Y/%m/",
        blank=True,
        help_text="the written appeal (or waiver) as received, PDF or image",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["taken_on", "pk"]
        # the list of the agency's actions, newest first (web/reports/lists.py)
        indexes = [models.Index(fields=["-taken_on", "-id"], name="action_taken_desc")]
        constraints = [
            models.UniqueConstraint(fields=["establishment", "code"], name="action_code_unique"),
            models.CheckConstraint(
                condition=~models.Q(delivery="mail") | ~models.Q(certified_mail_number=""),
                name="mailed_has_certified_number",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.type}"

    def traces_to(self, type: str) -> EnforcementAction | None:
        """The record of `type` this one follows: itself, or the first along its `refers_to`
        (a decision on a hearing on a notice, an order on an appeal of an order on it)."""
        record: EnforcementAction | None = self
        while record is not None and record.type != type:
            record = record.refers_to
        return record

    def effective_fields(self, facts: list[ActionFact] | None = None) -> dict[str, Any]:
        """The action's fields overlaid with its facts, in the order they were recorded: the
        facts prefetched with it when they were (a case's steps read every action's fields,
        so a page of them asks once), else read now."""
        if facts is None:
            prefetched = getattr(self, "_prefetched_objects_cache", {}).get("facts")
            if prefetched is not None:
                facts = sorted(prefetched, key=lambda f: (f.recorded_at, f.pk))
            else:
                facts = list(self.facts.order_by("recorded_at", "pk"))
        return overlay(self.fields, [(f.field, f.value) for f in facts])


def closure_on(actions, on) -> EnforcementAction | None:
    """The act that closed the case of `actions` on or before `on`, if one did."""
    return next((a for a in actions if a.type == CLOSURE and a.taken_on <= on), None)


def overlay(fields: dict[str, Any], facts: list[tuple[str, Any]]) -> dict[str, Any]:
    """`fields` with `facts` applied; `milestones.<id>.<field>` sets a milestone's field."""
    out = dict(fields)
    for name, value in facts:
        parts = name.split(".")
        if len(parts) == 3 and parts[0] == "milestones":
            out["milestones"] = [
                {**m, parts[2]: value} if m.get("id") == parts[1] else m
                for m in out.get("milestones", [])
            ]
        else:
            out[name] = value
    return out


class ActionFact(Immutable):
    action = models.ForeignKey(EnforcementAction, on_delete=models.PROTECT, related_name="facts")
    field = models.CharField(max_length=80)
    value = models.JSONField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["recorded_at", "pk"]

    def __str__(self) -> str:
        return f"{self.action.code}.{self.field} = {self.value}"


class Letter(Immutable):
    """The PDF sent for an action, kept byte for byte."""

    action = models.ForeignKey(EnforcementAction, on_delete=models.PROTECT, related_name="letters")
    pdf = models.BinaryField()
    sha256 = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"letter for {self.action.code}"


class NoticeAnswer(Immutable):
    """The operator's written answer to an action sent to it (a notice, an order), as filed
    through the portal. Answers are appended, never edited: a correction is a new answer."""

    action = models.ForeignKey(EnforcementAction, on_delete=models.PROTECT, related_name="answers")
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    answered_on = models.DateField()
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["answered_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(text=""), name="notice_answer_not_empty")
        ]

    def __str__(self) -> str:
        return f"answer to {self.action.code} on {self.answered_on}"


class BulkNotice(models.Model):
    """A run sending the pack's first notice to many establishments about their open findings
    of one rule: what was asked, how far it got, and each establishment's outcome (`sent`:
    establishment, case, action; `refused`: establishment, reason)."""

    agency = models.ForeignKey("registry.Agency", on_delete=models.PROTECT, related_name="+")
    action_type = models.CharField(max_length=40)
    rule = models.CharField(max_length=80)
    codes = models.JSONField(help_text="the establishments' codes, in the order sent")
    fields = models.JSONField(default=dict)
    delivery = models.CharField(max_length=10, choices=DELIVERY, blank=True)
    first_certified = models.CharField(max_length=40, blank=True)
    as_of = models.DateField()
    total = models.PositiveIntegerField()
    done = models.PositiveIntegerField(default=0)
    sent = models.JSONField(default=list)
    refused = models.JSONField(default=list)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"bulk {self.action_type} of {self.created_at:%Y-%m-%d}"

    def prefix(self) -> str:
        """The action codes' prefix: the capitals of the action's title (`NNC`)."""
        from .codes import initials

        return initials(self.agency.get_pack().actions[self.action_type].title)
