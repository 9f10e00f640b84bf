"""A page of audit rows names the records its foreign keys point to (record_words), in one
query for every model named by its code and name, and one for each other model."""

import pytest
from django.contrib.auth.models import User

from fogkeeper.audit.selectors import Change, name_related
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, GreaseControlDevice
from tests.records import make_device, make_establishment
from tests.web.people import make_user, two_agencies

pytestmark = pytest.mark.django_db


def change(model, old, new) -> Change:
    return Change("Field", str(old), str(new), model=model, ids=(old, new))


def test_it_names_each_record_as_record_words_does_in_one_query_a_kind(
    django_assert_num_queries,
):
    sc, _ = two_agencies()
    mona = make_user("mona", sc, role="manager")
    mona.first_name, mona.last_name = "Mona", "Reyes"
    mona.save()
    pier = make_establishment(sc, code="SC-1", name="Pier Taqueria")
    device = make_device(pier)
    rows = [
        [change(FoodServiceEstablishment, None, pier.pk), change(Agency, sc.pk, sc.pk)],
        [change(GreaseControlDevice, device.pk, 987654), change(User, mona.pk, None)],
    ]
    with django_assert_num_queries(2):  # the records named by code and name at once, people
        name_related(rows)
    said = [(c.old, c.new) for row in rows for c in row]
    assert said == [
        ("None", "Pier Taqueria (SC-1)"),
        (sc.name, sc.name),
        ("GI-1", "a record since deleted"),
        ("Mona Reyes", "None"),
    ]
