"""A letter downloaded (/letters/<id>.pdf): exactly as stored, named after its action, for
the agency acted for only.

The two letters are made once for the module (a transaction rolled back when it ends); each
test runs in a savepoint of it and is given them read again."""

import hashlib

import pytest

from fogkeeper.enforcement.models import Letter
from tests.web.enforcement import two_cases_once
from tests.web.people import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def built(django_db_setup, django_db_blocker):
    """San Clemente's case EC-7 and the Town's EC-1 with their letters."""
    with two_cases_once(django_db_blocker):
        yield


@pytest.fixture
def letters(built, db):
    """The letter of San Clemente's notice NNC-1 and of the Town's decision HD-1."""
    return Letter.objects.get(action__code="NNC-1"), Letter.objects.get(action__code="HD-1")


def test_it_sends_the_letter_exactly_as_stored(client, letters):
    notice, _ = letters
    client.force_login(make_user("alice", notice.action.establishment.agency))
    response = client.get(f"/letters/{notice.pk}.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert hashlib.sha256(response.content).hexdigest() == notice.sha256


def test_it_names_the_file_after_the_establishment_and_the_action(client, letters):
    notice, _ = letters
    client.force_login(make_user("alice", notice.action.establishment.agency))
    response = client.get(f"/letters/{notice.pk}.pdf")
    assert response["Content-Disposition"] == (
        'attachment; filename="FSE-0042-NNC-1-notice-of-noncompliance.pdf"'
    )


def test_it_answers_404_for_another_agencys_letter(client, letters):
    notice, decision = letters
    client.force_login(make_user("alice", notice.action.establishment.agency))
    assert client.get(f"/letters/{decision.pk}.pdf").status_code == 404
    assert client.get("/letters/999999.pdf").status_code == 404


def test_it_answers_404_to_a_member_of_both_agencies_acting_for_the_other(client, letters):
    notice, decision = letters
    sc, town = notice.action.establishment.agency, decision.action.establishment.agency
    client.force_login(make_user("bob", sc, town))
    client.post("/agency/switch/", {"agency": town.code})
    assert client.get(f"/letters/{notice.pk}.pdf").status_code == 404
    assert client.get(f"/letters/{decision.pk}.pdf").status_code == 200


def test_it_sends_anonymous_visitors_to_sign_in(client, letters):
    notice, _ = letters
    response = client.get(f"/letters/{notice.pk}.pdf")
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next=/letters/{notice.pk}.pdf"
