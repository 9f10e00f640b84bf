"""The plans of a grease control device submitted for review (fogkeeper/web/permits/views.py): the
file uploaded with them is checked to be a PDF or a JPEG or PNG scan of at most 25 MB, kept
under a name of its own, and downloaded by the staff who decide the plans, from the
establishment's page and from the decision's form."""

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from fogkeeper.audit.models import AuditEvent
from fogkeeper.permits.models import PlanReview
from fogkeeper.permits.services import plans as services
from fogkeeper.registry.models import Agency
from fogkeeper.uploads import Kept
from tests.compliance.records import make_pier_taqueria
from tests.images import declared_png
from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db

NEW = "/establishments/FSE-0042/plan-reviews/new/?as_of=2025-06-30"
PDF = b"%PDF-1.4\n% plans of a 1,000-gallon interceptor\n%%EOF\n"


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def sc(client):
    sc, town = two_agencies()
    make_pier_taqueria(sc)
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("ivan", sc, role="inspector"))
    return sc


def submit(client, document):
    data = {"submitted_on": "2025-06-20", "description": "New interceptor"}
    if document is not None:
        data["document"] = document
    return client.post(NEW, data)


def test_the_plans_are_kept_under_their_own_name_and_downloaded_from_both_pages(client, sc):
    response = submit(client, SimpleUploadedFile("scan (final) v2.PDF", PDF))
    assert response.status_code == 302
    review = PlanReview.objects.get()
    assert review.document.name.endswith("/FSE-0042-plans-2025-06-20.pdf")
    url = f"/establishments/FSE-0042/plan-reviews/{review.pk}/plans/"
    page = client.get("/establishments/FSE-0042/").content.decode()
    assert f'<a href="{url}">Download<span class="usa-sr-only"> the plans submitted 2025-06-20' in (
        page
    )
    decide = client.get(f"/establishments/FSE-0042/plan-reviews/{review.pk}/decide/")
    assert f'<a href="{url}">Download the plans submitted</a>' in decide.content.decode()
    download = client.get(url)
    assert download["Content-Type"] == "application/pdf"
    assert 'filename="FSE-0042-plans-2025-06-20.pdf"' in download["Content-Disposition"]
    assert b"".join(download.streaming_content) == PDF
    row = AuditEvent.objects.get(action="plan_review.submit")
    assert row.after["document"] == review.document.name


def test_plans_recorded_without_a_file_say_so_and_have_nothing_to_download(client, sc):
    submit(client, None)
    review = PlanReview.objects.get()
    decide = client.get(f"/establishments/FSE-0042/plan-reviews/{review.pk}/decide/")
    assert "No file of the plans was uploaded with this submission" in decide.content.decode()
    assert client.get(f"/establishments/FSE-0042/plan-reviews/{review.pk}/plans/").status_code == (
        404
    )


def test_a_png_scan_is_kept_as_a_png(client, sc, tmp_path):
    from PIL import Image

    path = tmp_path / "scan.png"
    Image.new("RGB", (8, 6)).save(path)
    submit(client, SimpleUploadedFile("plans.png", path.read_bytes()))
    review = PlanReview.objects.get()
    assert review.document.name.endswith("FSE-0042-plans-2025-06-20.png")
    url = f"/establishments/FSE-0042/plan-reviews/{review.pk}/plans/"
    assert client.get(url)["Content-Type"] == "image/png"


@pytest.mark.parametrize(
    "upload, words",
    [
        (
            SimpleUploadedFile("plans.pdf", b"<html><script>alert(1)</script>"),
            "The plans must be a PDF, or a JPEG or PNG photo or scan.",
        ),
        (
            declared_png(100_000, 100_000, name="plans.png"),
            "The plans&#x27; image has too many pixels to open",
        ),
    ],
)
def test_a_file_that_is_not_plans_is_refused_and_nothing_is_recorded(client, sc, upload, words):
    response = submit(client, upload)
    assert response.status_code == 400 and words in response.content.decode()
    assert (
        not PlanReview.objects.exists()
        and not AuditEvent.objects.filter(action="plan_review.submit").exists()
    )
    assert sc.establishments.get(code="FSE-0042").interceptor_plans_submitted_on is None


def test_plans_over_the_size_limit_are_refused_naming_it(client, sc, monkeypatch):
    small = Kept(field="document", name="The plans", verb="are", whose="The plans'", max_mb=1)
    monkeypatch.setattr(services, "PLANS", small)
    response = submit(client, SimpleUploadedFile("plans.pdf", b"%PDF-" + b"0" * (1024 * 1024)))
    assert response.status_code == 400
    assert "The plans are 1.0 MB; the largest accepted is 1 MB." in response.content.decode()
    assert not PlanReview.objects.exists()


def test_another_agencys_plans_are_not_found(client, sc):
    town = make_establishment(Agency.objects.get(pack="town-10-02"), code="T-2", name="Town Grill")
    review = services.plan_review_submit(
        establishment=town,
        submitted_on=date(2025, 6, 1),
        description="Town plans",
        today=date(2025, 6, 30),
        document=SimpleUploadedFile("p.pdf", PDF),
    )
    assert client.get(f"/establishments/T-2/plan-reviews/{review.pk}/plans/").status_code == 404
    assert client.get(f"/establishments/FSE-0042/plan-reviews/{review.pk}/plans/").status_code == (
        404
    )
