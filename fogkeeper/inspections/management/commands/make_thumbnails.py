"""`manage.py make_thumbnails`: queue the thumbnail of every inspection photo that has none
(photos stored before thumbnails were made on upload, or whose task was lost)."""

from django.conf import settings
from django.core.management.base import BaseCommand

from fogkeeper.inspections.models import InspectionPhoto
from fogkeeper.inspections.tasks import photo_thumbnail


class Command(BaseCommand):
    help = (
        "Make the thumbnail of every inspection photo without one (on the workers when a "
        "broker is set)."
    )

    def handle(self, *args, **options):
        ids = list(InspectionPhoto.objects.filter(thumbnail="").values_list("pk", flat=True))
        for photo_id in ids:
            photo_thumbnail.delay(photo_id)
        done = "made" if settings.CELERY_TASK_ALWAYS_EAGER else "queued"
        self.stdout.write(f"{len(ids)} thumbnail{'s' if len(ids) != 1 else ''} {done}")
