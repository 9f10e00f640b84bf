"""Case files from trusted data: the engine's records (records.py) built by a caller that
vouches for their types and constraints, as a database's typed and constrained columns do,
so that nothing is converted or validated again.

What the types cannot say is still checked, as `parse_case` checks it: ids neither empty nor
blank, unique, every reference to a listed record (`_ids_hold`, in one pass what its fast path
checks in `_listed_ids`, `_references_hold` and `_blank_words`), and what depends on the pack
(its vocabulary, checklist, actions, dates and units, by parse_case's own checks). When any of
that fails, `case_file` returns None and the caller asks `parse_case`, which words the
problems: the engine refuses nothing that it would not refuse from the same file as a dict.
"""

from __future__ import annotations

from typing import Any

import msgspec

from . import casefile, records
from .casefile import CaseFile


def case_file(model: records.CaseFileModel, *, packs: Any = None) -> CaseFile | None:
    """The CaseFile `parse_case` makes of the same records, or None when it might refuse
    them. `model.enforcement` holds the actions as dicts, as a case file spells them."""
    from . import packs as packs_module

    registry = packs or packs_module.default_registry()
    if model.as_of is None or not registry.has(model.jurisdiction):
        return None
    raw = casefile._raw_actions(model.enforcement)
    if raw is None:
        return None
    model = msgspec.structs.replace(model, enforcement=raw)
    if not _ids_hold(model):
        return None
    pack = registry.get(model.jurisdiction)
    as_of = model.as_of  # not None (above): `replace` made a new model
    assert as_of is not None
    if as_of < pack.effective:
        return None
    problems: list[Any] = []
    casefile._check_date_order(model, problems)
    casefile._check_vocabulary(model, pack, problems)
    casefile._check_checklist(model, pack, problems)
    actions = casefile._read_actions(model, pack, problems)
    casefile._check_design_exceptions(model, pack, as_of, problems)
    casefile._check_sample_units(model, pack, as_of, problems)
    if problems:
        return None
    if model.establishment.category is None:
        est = msgspec.structs.replace(model.establishment, category=pack.default_category)
        model = msgspec.structs.replace(model, establishment=est)
    return CaseFile(model=model, pack=pack, as_of=model.as_of, actions=tuple(actions))


def _ids_hold(m: records.CaseFileModel) -> bool:
    """Whether every id is neither empty nor blank and unique in its list, and every
    reference names a listed record: `_references_hold` and the schema's id type at once."""
    est, permit = m.establishment, m.permit
    words = {est.id, est.category or "-"}
    if permit is not None:
        words.add(permit.number)
        words.update(permit.discharge_limits)
        words.update(limit.unit for limit in permit.discharge_limits.values())
    words.update(d.kind for d in m.devices)
    for s in m.samples:
        words.update((s.parameter, s.unit))
    listed = {}
    for name in _LISTED:
        items = getattr(m, name)
        ids = {r.id for r in items}
        if len(ids) < len(items):
            return False
        listed[name] = ids
        words |= ids
    if "" in words or any(map(str.isspace, words)):
        return False
    devices, haulers = listed["devices"] | {None}, listed["haulers"] | {None}
    return (
        {s.device for s in m.services} <= devices
        and {s.device for s in m.samples} <= devices
        and {s.hauler for s in m.services} <= haulers
        and {p.hauler for p in m.yellow_grease_pickups} <= haulers
        and {a.employee for t in m.trainings for a in t.attendees} <= listed["employees"]
        and {r.device for i in m.inspections for r in i.measurements} <= devices
        and {a.device for i in m.inspections for a in i.answers} <= devices
    )


_LISTED = (
    "devices",
    "haulers",
    "employees",
    "services",
    "trainings",
    "inspections",
    "incidents",
    "samples",
    "enforcement",
)
