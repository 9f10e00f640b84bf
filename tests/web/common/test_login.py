import pytest

from tests.web.people import PASSWORD, make_user, two_agencies

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/establishments/", "/establishments/FSE-1/"])
def test_it_sends_anonymous_visitors_to_sign_in(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={url}"


def test_it_renders_the_login_page_with_labelled_inputs(client):
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<label for="id_username">' in html
    assert '<label for="id_password">' in html
    assert "<h1>Sign in</h1>" in html


def test_it_signs_in_and_lands_on_the_dashboard(client):
    sc, _ = two_agencies()
    make_user("alice", sc)
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_it_refuses_a_user_of_no_agency(client):
    two_agencies()
    client.force_login(make_user("dave"))
    response = client.get("/establishments/")
    assert response.status_code == 403
    assert b"not a member of any agency" in response.content


def test_it_keeps_the_admin_at_admin(client):
    assert client.get("/admin/").status_code == 302
