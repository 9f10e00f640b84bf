"""The fast reading of case files (msgspec Structs, issue 14) reports what the schema did.

- the reports on 3,000 generated case files, each on two dates, are the ones the engine
  gave before it was made faster (digests in golden/engine_reports.json);
- the fast path and the schema's path give equal reports and equal records;
- a broken case file fails with the same problems whichever path reads it;
- the Structs have the schema's fields and defaults.
"""

from __future__ import annotations

import copy
import json
import random

import msgspec
import pytest

from fogkeeper.rules import CaseFileError, casefile, evaluate, parse_case, records
from fogkeeper.rules import schema as schema_module
from tests.rules import engine_golden


def test_reports_are_the_ones_before_the_faster_engine():
    want = json.loads(engine_golden.GOLDEN.read_text(encoding="utf-8"))["digests"]
    got = engine_golden.digests(parse_case, evaluate)
    changed = [i for i, (a, b) in enumerate(zip(got, want, strict=True)) if a != b]
    assert not changed, f"{len(changed)} reports changed, e.g. case {changed[0] // 2}"


def test_fast_and_schema_paths_agree():
    cases = engine_golden.cases(300)
    fast = [parse_case(c) for c in cases]
    assert all(casefile._fast_model(c) is not None for c in cases)
    for data, quick in zip(cases, fast, strict=True):
        slow = parse_case(data, fast=False)
        assert _plain(slow.model) == _plain(quick.model)
        assert slow.actions == quick.actions
        assert evaluate(slow).to_dict() == evaluate(quick).to_dict()


def _plain(model):
    """The records, with each enforcement action as (id, type, its other fields)."""
    actions = [(a.id, a.type, a.model_extra) for a in model.enforcement]
    return msgspec.structs.replace(model, enforcement=actions)


def _mutations(rng: random.Random, case: dict):
    """Copies of a case file with one field broken (or oddly typed but valid)."""
    odd = (None, "", " ", "x", "2025-13-40", "2025-01-02T00:00:00", 3, 3.0, -1, True, [], {})
    for _ in range(40):
        broken = copy.deepcopy(case)
        key = rng.choice([k for k, v in broken.items() if v])
        target = broken[key]
        if isinstance(target, list):
            target = rng.choice(target)
        if isinstance(target, dict) and target:
            field = rng.choice(sorted(target))
            target[field] = rng.choice(odd)
        else:
            broken[key] = rng.choice(odd)
        yield broken


def _outcome(data, fast=True):
    try:
        result = parse_case(data, fast=fast)
    except CaseFileError as e:
        return [(p.path, p.message) for p in e.problems]
    return evaluate(result).to_dict()


def test_broken_case_files_fail_alike():
    rng = random.Random(14)
    cases = [m for c in engine_golden.cases(40) for m in _mutations(rng, c)]
    fast = [_outcome(c) for c in cases]
    slow = [_outcome(c, fast=False) for c in cases]
    assert fast == slow
    assert sum(isinstance(o, list) for o in fast) > len(cases) / 4  # many really broke


@pytest.mark.parametrize("name", sorted(set(records.STRUCTS) - {"Reading"}))
def test_structs_have_the_schema_fields(name):
    schema = getattr(schema_module, name)
    struct = records.STRUCTS[name]
    assert list(schema.model_fields) == list(struct.__struct_fields__)
    with_default = struct.__struct_fields__[
        len(struct.__struct_fields__) - len(struct.__struct_defaults__) :
    ]
    pairs = zip(with_default, struct.__struct_defaults__, strict=True)
    defaults = {f: d for f, d in pairs if d is not msgspec.NODEFAULT}
    for field, info in schema.model_fields.items():
        if info.is_required():
            assert field not in defaults, field
        else:
            default = defaults[field]
            default = default.factory() if hasattr(default, "factory") else default
            assert default == info.default, field
