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
