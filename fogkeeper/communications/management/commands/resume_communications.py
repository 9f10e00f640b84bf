"""`manage.py resume_communications`: finish the communications a restart stopped halfway.

A communication sends each recipient in its own transaction and only those still pending, so
running it again sends only what is left (delivery.py)."""

from __future__ import annotations

from django.core.management.base import BaseCommand
from django.db.models import Q

from fogkeeper.communications.delivery import run_communication
from fogkeeper.communications.models import Communication, Recipient


class Command(BaseCommand):
    help = "Finish the communications not finished (stopped by a restart, or by an error)."

    def handle(self, *args, **options) -> None:
        stopped = Q(status=Communication.FAILED, recipients__state=Recipient.PENDING)
        underway = Q(status__in=Communication.UNDERWAY)
        comms = Communication.objects.filter(stopped | underway).distinct().order_by("pk")
        if not comms.exists():
            self.stdout.write("No communication is unfinished.")
        for comm in comms:
            before = comm.recipients.exclude(state=Recipient.PENDING).count()
            Communication.objects.filter(pk=comm.pk).update(status=Communication.QUEUED)
            ran = run_communication(comm.pk)
            assert ran is not None  # queued just above, so it ran
            comm = ran
            self.stdout.write(
                f"Communication {comm.pk} ({comm.agency.code}, {comm.subject!r}): "
                f"{comm.done - before:,} more done; {comm.sent:,} sent, {comm.letter_only:,} "
                f"letter only, {comm.skipped:,} skipped, {comm.failed:,} failed of {comm.total:,}."
            )
