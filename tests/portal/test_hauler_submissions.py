"""The hauler's list of its own submissions, each recorded or disputed."""

import pytest

from fogkeeper.maintenance.services import service_dispute, service_dispute_withdraw
from tests.compliance.records import AS_OF

from . import haulers
from .haulers import SUBMISSIONS, SUBMIT, pump_out, staff_user

pytestmark = pytest.mark.django_db
clock, world = haulers.clock, haulers.world  # the fixtures


def _row(html: str, manifest: str) -> str:
    start = html.index(f'<th scope="row">{manifest}</th>')
    return html[start : html.index("</tr>", start)]


def test_it_lists_what_the_hauler_submitted_as_recorded(client, world):
    client.force_login(world.hank)
    client.post(SUBMIT, pump_out(world.trap))
    html = client.get(SUBMISSIONS).content.decode()
    row = _row(html, "CP-900")
    assert "Pier Taqueria" in row and "Submitted by the hauler (form)" in row
    assert "Recorded" in row
    assert "FSE-0042-M1" not in html  # recorded by staff, not submitted by the hauler


def test_it_shows_a_disputed_submission_and_its_withdrawal(client, world):
    client.force_login(world.hank)
    client.post(SUBMIT, pump_out(world.trap))
    service = world.coastal.services.get(manifest_number="CP-900")
    ines = staff_user("ines", world.sc)
    service_dispute(service=service, reason="Doubt", raised_on=AS_OF, actor=ines)
    assert "Disputed</strong> by the agency since 2025-06-30" in _row(
        client.get(SUBMISSIONS).content.decode(), "CP-900"
    )
    service_dispute_withdraw(service=service, reason="Seen", withdrawn_on=AS_OF, actor=ines)
    assert "Recorded" in _row(client.get(SUBMISSIONS).content.decode(), "CP-900")


def test_it_searches_by_manifest_number(client, world):
    client.force_login(world.hank)
    client.post(SUBMIT, pump_out(world.trap))
    client.post(SUBMIT, pump_out(world.trap, manifest_number="CP-901", date="2025-06-25"))
    html = client.get(SUBMISSIONS, {"q": "901"}).content.decode()
    assert '<th scope="row">CP-901</th>' in html
    assert '<th scope="row">CP-900</th>' not in html
