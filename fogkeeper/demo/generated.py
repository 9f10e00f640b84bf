"""The demo of a pack without written stories (any pack but the two bundled ones): a small
program from the synthetic generator, on the pack's own device kinds, categories, checklist
and permit term, for an agency named after the pack."""

from __future__ import annotations

from datetime import date

from fogkeeper.compliance.generate import generate_program

ESTABLISHMENTS = 40
YEARS = 4


def load_generated(pack_id: str, *, as_of: date, seed: int):
    """An agency on `pack_id` (its code the pack's id) with a generated program of about
    forty establishments and up to four years of history up to `as_of`."""
    from fogkeeper.rules.packs import default_registry

    pack = default_registry().get(pack_id)
    years = max(1, min(YEARS, as_of.year - pack.effective.year + 1))
    name = pack.titles.get("agency") or pack.name
    result = generate_program(
        establishments=ESTABLISHMENTS,
        years=years,
        as_of=as_of,
        agency_code=pack.id,
        pack=pack.id,
        seed=seed,
        agency_name=name,
        letterhead="",  # letters print the agency's name and its department above it
    )
    return result.agency
