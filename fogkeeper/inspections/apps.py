from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "fogkeeper.inspections"
    verbose_name = "Inspections"

    def ready(self) -> None:
        from django.conf import settings
        from PIL import Image

        # Pillow warns above this many pixels and refuses twice as many: no image larger than
        # a photo may be is decoded anywhere (photos.py refuses it on upload).
        Image.MAX_IMAGE_PIXELS = settings.FOGKEEPER_PHOTO_MAX_PIXELS
