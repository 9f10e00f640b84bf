"""The admin is for the deployment's superusers (Django's is_staff), none of whom is a role of
ACCESS.md (the access matrix's admin:index row). Apart from the matrix's module, whose world
(both demo agencies) its cases share while the module runs."""

import pytest
from django.contrib.auth.models import User

from fogkeeper.web.models import Membership
from tests.records import make_agency

from .test_matrix import ADMIN_LOGIN
from .world import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_keeps_the_admin_from_agency_staff_even_with_django_staff_status(client):
    user = User.objects.create_user("mia", password=PASSWORD, is_staff=True)
    Membership.objects.create(user=user, agency=make_agency(), role="manager")
    client.force_login(user)
    response = client.get("/admin/registry/foodserviceestablishment/")
    assert response.status_code == 302
    assert response.headers["Location"].startswith(ADMIN_LOGIN)
