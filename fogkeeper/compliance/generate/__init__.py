"""A synthetic FOG program at a city's proportions, for measuring the sweep:
`python manage.py generate --pack PACK --establishments N --years Y`.

Everything the ordinance decides comes from the pack (ordinance.py); program.py hands each
establishment to one builder per kind of record (establishments.py, devices.py, permits.py,
pumpouts.py, people.py, inspections.py, incidents.py). About half the establishments are well
run; the others have defects drawn at random.

Deterministic for a seed. Rows are generated a chunk of establishments at a time and written
with PostgreSQL's COPY (with `bulk_create` on other databases), with ids assigned here so
that no row has to be read back; the sequences are reset afterwards.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from .program import _Generator

Progress = Callable[[str], None]


@dataclass
class GenerateResult:
    agency: Any
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def pack_to_generate(pack: str | None) -> str:
    """The id of the pack a program is generated on: `pack`, else the only pack the
    deployment knows. No pack is the default among several: each is an ordinance, and which
    one a synthetic city runs on is the caller's to say."""
    from fogkeeper.rules.packs import default_registry

    known = default_registry().ids()
    if pack is None and len(known) == 1:
        return known[0]
    if pack is None:
        raise ValueError(f"name the jurisdiction pack with --pack (known: {', '.join(known)})")
    if pack not in known:
        raise ValueError(f"unknown jurisdiction pack {pack!r} (known: {', '.join(known)})")
    return pack


def generate_program(
    *,
    establishments: int,
    years: int,
    as_of: date,
    agency_code: str = "synthetic",
    pack: str,
    seed: int = 1,
    chunk: int = 1000,
    agency_name: str | None = None,
    letterhead: str | None = None,
    progress: Progress | None = None,
) -> GenerateResult:
    """Create an agency with a synthetic program of `establishments` FSEs and `years` of
    history up to `as_of` under the pack `pack`, in one transaction."""
    from django.db import transaction

    from fogkeeper.registry.models import Agency

    if establishments < 1 or years < 1:
        raise ValueError("establishments and years must be at least 1")
    pack = pack_to_generate(pack)
    if Agency.objects.filter(code=agency_code).exists():
        raise ValueError(f"agency {agency_code!r} already exists")
    started = time.perf_counter()
    with transaction.atomic():
        gen = _Generator(
            establishments=establishments,
            years=years,
            as_of=as_of,
            agency_code=agency_code,
            pack=pack,
            seed=seed,
            agency_name=agency_name,
            letterhead=letterhead,
        )
        for first in range(0, establishments, chunk):
            last = min(first + chunk, establishments)
            for i in range(first, last):
                gen.establishment(i)
            gen.flush()
            if progress is not None:
                c = gen.counts()
                progress(
                    f"  {last:,}/{establishments:,} establishments: {c['devices']:,} devices, "
                    f"{c['services']:,} pump-outs, {c['employees']:,} employees, "
                    f"{c['inspections']:,} inspections ({time.perf_counter() - started:.1f} s)"
                )
        gen.finish()
    gen.analyze()
    return GenerateResult(gen.agency, gen.counts(), time.perf_counter() - started)
