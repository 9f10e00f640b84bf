"""Every bundled pack runs the whole application by data alone: for each pack of the registry,
`manage.py demo --pack`, `manage.py generate --pack`, the sweep of both agencies, and the staff
pages of each answering 200 in the pack's own words (its agency's name and its sections)."""

import re
from datetime import date
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.registry.models import Agency
from fogkeeper.rules.packs import default_registry

pytestmark = pytest.mark.django_db

AS_OF = date(2026, 6, 30)
Q = f"as_of={AS_OF}"
GENERATED = 200


def citation_prefix(pack) -> str:
    """The chapter's numbering as its rules cite it: "13.30.", "10.02."."""
    citation = next(iter(pack.rules.values())).citation
    found = re.match(r"[\d.]+\.", citation)
    assert found, citation
    return found.group(0)


@pytest.fixture(params=default_registry().ids())
def loaded(request, client):
    """The pack's demo agency and a generated agency on it, both swept, a superuser signed in."""
    pack = default_registry().get(request.param)
    call_command("demo", "--pack", pack.id, "--as-of", AS_OF.isoformat(), stdout=StringIO())
    demo = Agency.objects.get(pack=pack.id)
    code = f"gen-{pack.id}"[:40]
    call_command(
        "generate", "--pack", pack.id, "--establishments", str(GENERATED), "--years", "1",
        "--agency-code", code, "--as-of", AS_OF.isoformat(), stdout=StringIO(),
    )  # fmt: skip
    generated = Agency.objects.get(code=code)
    call_command("sweep", "--agency", code, "--as-of", AS_OF.isoformat(), stdout=StringIO())
    admin = get_user_model().objects.create_superuser("every-pack", "every@example.org", "x" * 16)
    client.force_login(admin)
    return pack, demo, generated


def pages(agency) -> list[str]:
    fse = (
        agency.establishments.filter(closed_on=None, devices__removed_on=None)
        .distinct()
        .order_by("code")
        .first()
    )
    assert fse is not None
    return [
        "/dashboard/",
        "/establishments/",
        f"/establishments/{fse.code}/",
        "/calendar/",
        "/ordinance/",
        f"/reports/annual/?year={AS_OF.year}",
    ]


def get_all(client, agency) -> dict[str, tuple[int, str]]:
    response = client.post("/agency/switch/", {"agency": agency.code, "next": "/dashboard/"})
    assert response.status_code == 302
    out = {}
    for url in pages(agency):
        response = client.get(url + ("&" if "?" in url else "?") + Q)
        out[url] = (response.status_code, response.content.decode())
    return out


def test_it_runs_the_pack_by_data_alone(client, loaded):
    """One test per pack (the demo and 200 generated establishments are loaded once)."""
    pack, demo, generated = loaded
    prefix = citation_prefix(pack)

    # both agencies are on the pack, and the sweep evaluated every establishment of each
    assert demo.pack == generated.pack == pack.id
    assert generated.establishments.count() == GENERATED
    for agency in (demo, generated):
        statuses = ComplianceStatus.objects.filter(establishment__agency=agency)
        assert statuses.count() == agency.establishments.count() > 0

    # the demo agency's staff pages answer 200, each naming the agency, the ordinance page
    # its chapter and sections
    answers = get_all(client, demo)
    assert {url: status for url, (status, _) in answers.items()} == dict.fromkeys(answers, 200)
    for url, (_, html) in answers.items():
        assert demo.name in html, url
    assert prefix in answers["/ordinance/"][1]
    assert pack.ordinance.split(" (")[0].replace('"', "&quot;") in answers["/ordinance/"][1]

    # and so do the generated agency's
    answers = get_all(client, generated)
    assert {url: status for url, (status, _) in answers.items()} == dict.fromkeys(answers, 200)
    assert generated.name in answers["/dashboard/"][1]
    assert prefix in answers["/ordinance/"][1]
