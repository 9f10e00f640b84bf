"""The project's URLs and error handlers, and views that fail on purpose (under /api/ too)."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.db.utils import IntegrityError, OperationalError
from django.http import Http404
from django.urls import path
from psycopg import errors as pg

from fogkeeper.config import urls as project


def integrity(cause: Exception) -> IntegrityError:
    """An IntegrityError as Django raises it over psycopg's (which carries the SQLSTATE)."""
    error = IntegrityError(str(cause))
    error.__cause__ = cause
    return error


FAILURES = {
    400: SuspiciousOperation("a malformed request"),
    403: PermissionDenied(),
    404: Http404("nothing here"),
    500: RuntimeError("the view broke"),
    503: OperationalError("connection refused"),  # no server answer: the database is down
    409: integrity(pg.UniqueViolation('duplicate key value violates unique constraint "code"')),
    # a foreign key's refusal is a fault of ours, not a second writer
    423: integrity(pg.ForeignKeyViolation("insert or update violates foreign key constraint")),
}


def fail(request, status: int):
    request.user.is_authenticated  # noqa: B018 - looks the person up, as real views do
    raise FAILURES[status]


urlpatterns = [
    path("fail/<int:status>/", fail),
    path("api/v1/fail/<int:status>/", fail),
    *project.urlpatterns,
]
handler400 = project.handler400
handler403 = project.handler403
handler404 = project.handler404
handler500 = project.handler500
