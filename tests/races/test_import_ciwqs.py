"""The same CIWQS export imported twice at once, by the command and by the service: no
exception escapes and each spill is stored once (issue 15, item 5). Both runs wait for each
other once they have read the whole file, so both store after having looked for the spills
already present."""

import threading
from io import StringIO

import pytest
from django.core.management import call_command

from fogkeeper.audit.models import AuditEvent
from fogkeeper.incidents.ciwqs import ciwqs_import
from fogkeeper.incidents.models import Incident
from tests.imports.test_import_ciwqs import SAMPLE
from tests.races import race
from tests.records import make_agency

pytestmark = pytest.mark.django_db(transaction=True)


class Output(StringIO):
    """The command's output, which waits at `read` once the whole file is read."""

    def __init__(self, read: threading.Barrier):
        super().__init__()
        self.read = read

    def write(self, text: str) -> int:
        if text.startswith("read 9/9 rows"):
            self.read.wait(timeout=10)
        return super().write(text)


def test_two_commands_at_once_store_each_spill_once():
    agency = make_agency()
    read = threading.Barrier(2)
    outs = [Output(read), Output(read)]
    done = race(
        2, lambda i: call_command("import_ciwqs", str(SAMPLE), agency=agency.code, stdout=outs[i])
    )
    assert done == [None, None]
    assert Incident.objects.filter(agency=agency).count() == 6
    assert AuditEvent.objects.filter(action="ciwqs.import").count() == 1
    assert sorted("incidents created: 6" in out.getvalue() for out in outs) == [False, True]


def test_two_service_runs_at_once_store_each_spill_once():
    agency = make_agency()
    read = threading.Barrier(2)

    def rows_read(done: int, total: int) -> None:
        if done == total:
            read.wait(timeout=10)

    results = race(2, lambda i: ciwqs_import(agency=agency, path=SAMPLE, rows_read=rows_read))
    assert sorted(r.created for r in results) == [0, 6], results
    assert sorted(r.already_present for r in results) == [0, 6]
    assert Incident.objects.filter(agency=agency).count() == 6
