"""Each pack's application.yaml: the permit application's fields, cited."""

import pytest

from fogkeeper.permits.requirements import (
    DEFAULT,
    DETAILS,
    application_spec,
    load_application_spec,
)
from fogkeeper.rules.errors import PackError
from fogkeeper.rules.packs import default_registry


@pytest.mark.parametrize("pack_id", ["san-clemente", "town-10-02"])
def test_it_cites_every_field_of_each_bundled_application(pack_id):
    spec = application_spec(default_registry().get(pack_id))
    assert spec.fields and all(f.reference for f in spec.fields)
    assert set(spec.names) <= set(DETAILS)


def test_it_lists_the_towns_building_permit_as_the_document_in_lieu():
    spec = application_spec(default_registry().get("town-10-02"))
    assert spec.in_lieu.name == "building_permit_reference"
    assert spec.in_lieu.reference == "10.02.050(B)"


def test_it_gives_a_pack_without_the_file_the_name_and_address_required(tmp_path):
    spec = load_application_spec(tmp_path)
    assert spec is DEFAULT
    assert [f.name for f in spec.fields if f.required] == ["applicant_name", "applicant_address"]


def test_it_rejects_an_uncited_field(tmp_path):
    (tmp_path / "application.yaml").write_text(
        "reference: '1.1'\nfields:\n  applicant_name: {required: true}\n"
    )
    with pytest.raises(PackError, match="applicant_name: no reference"):
        load_application_spec(tmp_path)


def test_it_rejects_a_field_the_application_does_not_have(tmp_path):
    (tmp_path / "application.yaml").write_text(
        "reference: '1.1'\nfields:\n  shoe_size: {required: true, reference: '1.2'}\n"
    )
    with pytest.raises(PackError, match="shoe_size is not a field"):
        load_application_spec(tmp_path)
