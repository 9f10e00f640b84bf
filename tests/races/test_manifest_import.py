"""One manifest file uploaded from many pages at once, by the hauler: it takes the hauler's
manifest lock as a single submission does, so each manifest is stored once and every other
upload counts it as already imported, with no refusal in the database's words (issue 15,
item 5)."""

import pytest

from fogkeeper.maintenance.models import Service
from tests.imports.test_hauler_manifests import upload, world  # noqa: F401 (the fixture)
from tests.races import race

pytestmark = pytest.mark.django_db(transaction=True)
N = 10
ROWS = "H-1,M-1,FSE-1,GI-1,2025-06-01,3\nH-1,M-2,FSE-1,GI-1,2025-06-08,2\n"


def test_it_stores_each_manifest_once_when_one_file_is_uploaded_at_once(world):  # noqa: F811
    done = race(N, lambda i: upload(world, ROWS))
    counts = sorted((getattr(r, "created", r), getattr(r, "already_imported", r)) for r in done)
    assert counts == [(0, 2)] * (N - 1) + [(2, 0)], counts
    assert Service.objects.count() == 2
