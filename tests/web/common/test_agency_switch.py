import pytest

from tests.records import make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


def test_it_shows_the_agency_the_page_acts_for(client):
    sc, _ = two_agencies()
    client.force_login(make_user("alice", sc))
    html = client.get("/establishments/").content.decode()
    assert "Acting for <strong>City of San Clemente</strong>" in html
    assert 'id="agency-select"' not in html  # one agency: nothing to switch


def test_it_switches_a_member_of_two_agencies(client):
    sc, town = two_agencies()
    make_establishment(town, code="T-1", name="Town Diner")
    client.force_login(make_user("bob", sc, town))
    assert '<label for="agency-select">' in client.get("/establishments/").content.decode()

    response = client.post("/agency/switch/", {"agency": "town-10-02", "next": "/establishments/"})

    assert response.status_code == 302
    assert response["Location"] == "/establishments/"
    html = client.get("/establishments/").content.decode()
    assert "Acting for <strong>The Town</strong>" in html
    assert "Town Diner" in html


def test_it_refuses_to_switch_to_an_agency_one_is_not_a_member_of(client):
    sc, _ = two_agencies()
    client.force_login(make_user("alice", sc))
    response = client.post("/agency/switch/", {"agency": "town-10-02"})
    assert response.status_code == 404


def test_it_ignores_a_next_url_off_the_site(client):
    sc, town = two_agencies()
    client.force_login(make_user("bob", sc, town))
    response = client.post("/agency/switch/", {"agency": "town-10-02", "next": "https://evil"})
    assert response["Location"] == "/"


def test_it_ends_access_when_the_membership_is_removed(client):
    sc, town = two_agencies()
    bob = make_user("bob", sc, town)
    client.force_login(bob)
    client.post("/agency/switch/", {"agency": "town-10-02"})
    bob.memberships.filter(agency=town).delete()
    html = client.get("/establishments/").content.decode()
    assert "Acting for <strong>City of San Clemente</strong>" in html


def test_it_lets_a_superuser_switch_to_any_agency(client, django_user_model):
    two_agencies()
    root = django_user_model.objects.create_superuser("root", password="x")
    client.force_login(root)
    client.post("/agency/switch/", {"agency": "town-10-02"})
    assert (
        "Acting for <strong>The Town</strong>"
        in client.get("/dashboard/?as_of=2025-06-30").content.decode()
    )


def test_switching_on_a_record_page_lands_on_that_areas_list(client):
    """The record's code is of the agency one left: back to it would answer 404."""
    sc, town = two_agencies()
    make_establishment(sc, code="SC-0012", name="Pier Diner")
    client.force_login(make_user("bob", sc, town))
    for page, lands in [
        ("/establishments/SC-0012/", "/establishments/"),
        ("/establishments/SC-0012/record/inspection/", "/establishments/"),
        ("/cases/SC-0012/EC-7/", "/cases/"),
        ("/establishments/?q=pier", "/establishments/?q=pier"),
    ]:
        response = client.post("/agency/switch/", {"agency": "town-10-02", "next": page})
        assert response["Location"] == lands, page
        assert client.get(response["Location"]).status_code == 200


def test_a_new_sign_in_acts_for_the_agency_chosen_last(client):
    sc, town = two_agencies()
    bob = make_user("bob", sc, town)
    client.force_login(bob)
    assert "Acting for <strong>City of San Clemente</strong>" in _establishments(client)
    client.post("/agency/switch/", {"agency": "town-10-02"})
    client.logout()

    client.force_login(bob)

    assert "Acting for <strong>The Town</strong>" in _establishments(client)


def _establishments(client) -> str:
    return client.get("/establishments/").content.decode()
