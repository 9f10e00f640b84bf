import pytest

from .records import DiesAfter, Killed


@pytest.fixture(autouse=True)
def _inline(settings):
    """The communication is sent where it is confirmed (no thread, no worker), to the test mail
    box, which dies on no message unless a test says so."""
    settings.FOGKEEPER_RUN_INLINE = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    DiesAfter.after, DiesAfter.handed, DiesAfter.error = None, 0, Killed
