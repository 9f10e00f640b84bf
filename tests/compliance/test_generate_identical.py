"""`manage.py generate`, the demo's builder and the case files give byte for byte what they gave
when their digests were pinned: a change meant to leave them alone (a module split, a
refactoring) must leave these digests alone too."""

import hashlib
import json
from dataclasses import asdict
from datetime import date
from pathlib import Path

import pytest
from django.apps import apps
from django.db import models

from fogkeeper.compliance.casefiles.as_json import build_case_files
from fogkeeper.compliance.generate import generate_program
from fogkeeper.demo import build_programs
from fogkeeper.inspections.models import Inspection
from fogkeeper.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    Operator,
    Parcel,
    PropertyOwner,
)
from fogkeeper.training.models import Employee, Training

AS_OF = date(2026, 11, 30)
# the imaginary town's pack, whose discharge limits and design exceptions no bundled pack has
TEST_PACKS = Path(__file__).resolve().parent.parent / "rules" / "packs"

# sha256 of every row `generate` writes (60 establishments, 2 years, seed 7) into a database
# without establishments, and of the case files built from them on AS_OF
GENERATED = {
    "imaginary-town": (
        "959e7a929d018489300f478820dd8f0c149f9b9bdcad39e4c54a6c19e2ec12b7",
        "18afce9b7726bf3e6de27a396c1fd6e2360abc4ca27223eed6faebdb963a79c6",
    ),
    "san-clemente": (
        "0cfe1e7031f8a25f76e8a1d1370152bf68fbd7a4343e08ef07d3527f31122d92",
        "22d29bc58d11d464411f6ce98ccf32c308ca63dd240a54cdc4f5e3afc7b84eb8",
    ),
    "town-10-02": (
        "bf5420f7306d4ffd997b512fcecdda12564507cdf1c684c99c669d96dbd6dee3",
        "401ff1cd942f2592a64b094ecbf4b2cecb0a375afd0886c859e6a9ef67811bca",
    ),
    "us-oh-aurora": (
        "e9ed6fc0ffb12bba8a0c3db3664d24e4967d35dad484df22e4e589e43c0bd109",
        "901475dec29622b52a4742a6a53533ad9bdf6ddddd4873bc64227288f29e6d6b",
    ),
}
# The generator numbers the rows of these after the last already there, and some of their
# numbers are in its text (permit numbers, parcel numbers, owners' names).
NUMBERED = (
    PropertyOwner,
    Parcel,
    Operator,
    FoodServiceEstablishment,
    GreaseControlDevice,
    Employee,
    Training,
    Inspection,
)
# sha256 of the written demo programs, private fields included, on each date (changed by
# issue 42: the Town's demo owes a self-monitoring report, RPT-1)
DEMO = {
    date(2026, 11, 30): "394d9fae99a8e8e2304c012c46f138c87c0778181f22002d9f23f3c19e19ddb3",
    date(2025, 1, 1): "f60bb4669b00c66990757ea1c3ef855de38db4d7b513b805a78694d5c80fe09d",
}


def _digest(value) -> str:
    text = json.dumps(value, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _tables() -> list:
    """The models whose rows have an integer id the database or the generator assigns."""
    return sorted(
        (
            m
            for m in apps.get_models()
            if m._meta.managed and not m._meta.proxy and isinstance(m._meta.pk, models.AutoField)
        ),
        key=lambda m: m._meta.label,
    )


def _last_ids() -> dict:
    return {
        m: m.objects.order_by("-pk").values_list("pk", flat=True).first() or 0 for m in _tables()
    }


def _rows_written(before: dict) -> dict[str, list]:
    """Each table's rows made since `before`, in id order. An id, and a reference to a row
    made since, is counted from the table's first new row (the sequences and the rows already
    there differ from run to run); timestamps are left out."""
    first = {}
    for model, last in before.items():
        first[model] = (
            model.objects.filter(pk__gt=last).order_by("pk").values_list("pk", flat=True).first()
        )

    def ref(model, value):
        if value is None or first.get(model) is None or int(value) <= before[model]:
            return value
        return ["new", int(value) - first[model]]

    written = {}
    for model, last in before.items():
        fields = [f for f in model._meta.concrete_fields if not isinstance(f, models.DateTimeField)]
        names = [f.attname for f in fields]
        rows = []
        for row in model.objects.filter(pk__gt=last).order_by("pk").values_list(*names):
            item = dict(zip(names, row, strict=True))
            for f in fields:
                if f.primary_key:
                    item[f.attname] = ref(model, item[f.attname])
                elif f.is_relation:
                    item[f.attname] = ref(f.related_model, item[f.attname])
            if "object_type" in item and "object_id" in item:
                target = apps.get_model(item["object_type"])
                item["object_id"] = ref(target, item["object_id"])
            rows.append(item)
        if rows:
            written[model._meta.label] = rows
    return written


@pytest.mark.django_db
@pytest.mark.parametrize("pack", sorted(GENERATED))
def test_generate_writes_the_same_rows_and_case_files_for_a_seed(pack, monkeypatch):
    monkeypatch.setenv("FOGKEEPER_PACKS", str(TEST_PACKS))
    before = _last_ids()
    assert not any(before[model] for model in NUMBERED), "the digests are of a first program"
    result = generate_program(
        establishments=60, years=2, as_of=AS_OF, agency_code="pinned", pack=pack, seed=7
    )
    rows = _rows_written(before)
    ids = list(result.agency.establishments.order_by("pk").values_list("pk", flat=True))
    cases = list(build_case_files(result.agency, ids, AS_OF).values())
    assert (_digest(rows), _digest(cases)) == GENERATED[pack]


@pytest.mark.parametrize("as_of", sorted(DEMO))
def test_the_demo_builder_builds_the_same_programs(as_of):
    programs = [asdict(p) for p in build_programs(as_of)]
    assert _digest(programs) == DEMO[as_of]
