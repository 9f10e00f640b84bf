"""A file written for a record is kept only with it (issue 37, item 11): a disk that fills up
half-way through an inspection's photos leaves neither the inspection nor any file, a file cut
off while written is removed, and a file is kept with the block that stored it
(fogkeeper/uploads.py)."""

import errno
import os
import types
from pathlib import Path

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.files.storage import filesystem as storage_module
from django.db import transaction
from django.test import Client

from fogkeeper import uploads
from fogkeeper.inspections.models import Inspection, InspectionPhoto
from fogkeeper.inspections.offline import inspection_sync
from fogkeeper.onboarding.models import Onboarding
from fogkeeper.onboarding.runs import start_dry_run
from tests.images import png
from tests.inspections.test_offline_sync import DAY, fse, upload  # noqa: F401 (the fixture)
from tests.web.people import make_user


@pytest.fixture(autouse=True)
def _media_root_of_its_own(settings, tmp_path):
    """The worker's MEDIA_ROOT holds the files of the tests before: each test starts empty."""
    settings.MEDIA_ROOT = tmp_path / "media"


def files(settings) -> list[str]:
    root = Path(settings.MEDIA_ROOT)
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


class FullDisk:
    """The storage's writes, failing as a full disk does once `room` bytes are written: the
    write that crosses it writes what fits, then fails."""

    def __init__(self, monkeypatch, room: int):
        self.room, self.cut = room, []
        proxy = types.SimpleNamespace(**{k: getattr(os, k) for k in dir(os) if k[0] != "_"})
        proxy.fdopen = self.fdopen
        monkeypatch.setattr(storage_module, "os", proxy)

    def fdopen(self, fd, mode):
        real, disk = os.fdopen(fd, mode), self

        class File:
            def write(self, data):
                fits = data[: disk.room]
                real.write(fits)
                disk.room -= len(fits)
                if len(fits) < len(data):
                    disk.cut.append(os.readlink(f"/proc/self/fd/{fd}"))
                    raise OSError(errno.ENOSPC, "No space left on device")

            def close(self):
                real.close()

        return File()


@pytest.mark.django_db
def test_a_full_disk_half_way_through_a_syncs_photos_leaves_no_file_and_no_row(
    fse,  # noqa: F811
    settings,
    monkeypatch,
):
    signature, photos = png("signature.png", (30, 10)), [png(f"p{i}.png", (40, 40)) for i in "123"]
    disk = FullDisk(monkeypatch, room=signature.size + photos[0].size + photos[1].size // 2)
    sent = upload(fse, photos=photos, signature=signature, signed_by="Ana Ruiz")
    with pytest.raises(OSError, match="No space left"):
        inspection_sync(establishment=fse, upload=sent, today=DAY)
    assert disk.cut and disk.cut[0].endswith("p2.png")  # the second photo, cut off
    assert files(settings) == []
    assert not Inspection.objects.filter(client_id=sent.client_id).exists()
    assert not InspectionPhoto.objects.exists()


@pytest.mark.django_db
def test_a_full_disk_on_the_staff_form_leaves_no_file_and_no_row(fse, settings, monkeypatch):  # noqa: F811
    client = Client(raise_request_exception=False)
    client.force_login(make_user("alice", fse.agency))
    url = "/establishments/FSE-0042/record/inspection/?as_of=2025-06-30"
    spill_kit = next(  # the form's field of the spill kit's question
        f.name
        for f in client.get(url).context["form"]
        if f.label == "Is a spill kit kept on site and stocked?"
    )
    photos = [png(f"p{i}.png", (40, 40)) for i in "12"]
    FullDisk(monkeypatch, room=photos[0].size + 10)
    data = {"code": "I-77", "date": "2025-06-25", spill_kit: "no", "photos": photos}
    assert client.post(url, data).status_code == 500
    assert files(settings) == []
    assert not Inspection.objects.filter(code="I-77").exists()


@pytest.mark.django_db
def test_a_full_disk_leaves_no_empty_onboarding_file(fse, settings, monkeypatch):  # noqa: F811
    FullDisk(monkeypatch, room=0)
    csv = ContentFile(b"code,name\nFSE-1,Cafe\n", name="establishments.csv")
    with pytest.raises(OSError, match="No space left"):
        start_dry_run(agency=fse.agency, kind="establishments", upload=csv)
    assert files(settings) == []
    assert not Onboarding.objects.exists()


@pytest.mark.django_db
def test_a_file_is_kept_with_the_block_that_stores_it_or_removed(settings):
    """Removed when its block, or a block around it, rolls back; kept when all end well."""
    with uploads.atomic():
        kept = default_storage.save("kept.txt", ContentFile(b"kept"))
        with pytest.raises(ValueError), uploads.atomic():
            default_storage.save("inner.txt", ContentFile(b"rolled back"))
            raise ValueError("the savepoint is rolled back")
        assert files(settings) == [kept]
    with pytest.raises(ValueError), uploads.atomic():
        with uploads.atomic():
            default_storage.save("outer.txt", ContentFile(b"rolled back with the outer block"))
        raise ValueError("the outer block is rolled back")
    with uploads.atomic():
        default_storage.save("marked.txt", ContentFile(b"rolled back"))
        transaction.set_rollback(True)
    assert files(settings) == [kept]
    assert default_storage.open(kept).read() == b"kept"
