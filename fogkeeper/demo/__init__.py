"""The demo program: a believable FOG program for each jurisdiction, loaded by
`python manage.py demo`. The two bundled packs have hand-written programs
(fogkeeper/demo/programs/<pack>.yaml, told by stories.py); any other pack the deployment
knows gets a small generated program (generated.py).

Each agency gets about forty food service establishments on real-looking streets, with their
parcels and owners (some parcels hold several tenants), the sewer segments their laterals
drain to, operators and their changes, permits (a few suspended or revoked, a few limiting
the oil and grease sampled at their outlets), grease control devices and years of
pump-out manifests with the depths the haulers measured, waste cooking oil pickups,
employees and their BMP training, inspections answering every item of the pack's checklist,
and sewer overflows. Most establishments are well run; each of the others has a story that
makes one or two rules of RULES.md (sections 3-9, as section 11 revises them) fire, so that
every rule fires somewhere.

Everything is dated relative to `as_of` and drawn from a seeded random generator, so a given
`as_of` always gives the same program. The program is first built as plain data in the shape
of CASEFILE.md (`build_programs`, also what the tests hand to the engine), then written with
the ORM (`load_demo`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from fogkeeper.reevaluation import held
from fogkeeper.upcalls import demo_people

from .builder import EARLIEST_AS_OF, SEED, STAFF_PASSWORD, STAFF_USERNAME, Program, _Builder

__all__ = ["EARLIEST_AS_OF", "SEED", "STAFF_PASSWORD", "STAFF_USERNAME", "Program"]


def build_programs(as_of: date, seed: int = SEED, packs: list[str] | None = None) -> list[Program]:
    """The written demo programs on `as_of` (of `packs` among them, default all), as plain
    data."""
    from .stories import tell
    from .written import written

    programs = []
    for pack_id in written():
        if packs is not None and pack_id not in packs:
            continue
        b = _Builder(pack_id, as_of, seed)
        tell(b)
        programs.append(b.program)
    return programs


# --------------------------------------------------------------------------- loading


def staff_user():
    """The demo's staff login, created the first time."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    user = User.objects.filter(username=STAFF_USERNAME).first()
    if user is None:
        user = User.objects.create_superuser(
            STAFF_USERNAME, email="staff@fogkeeper.invalid", password=STAFF_PASSWORD
        )
        user.first_name, user.last_name = "FOG", "Staff"
        user.save(update_fields=["first_name", "last_name"])
    return user


def demo_packs(packs: list[str] | None = None) -> list[str]:
    """The packs the demo loads: `packs`, default every pack the deployment knows."""
    from fogkeeper.rules.packs import default_registry

    known = default_registry().ids()
    unknown = [p for p in packs or () if p not in known]
    if unknown:
        raise ValueError(f"unknown jurisdiction pack {unknown[0]!r} (known: {', '.join(known)})")
    return list(packs) if packs else known


def agency_codes(packs: list[str]) -> list[str]:
    """The code the demo gives each pack's agency."""
    from .written import section

    return [section(p, "agency").get("code", p) for p in packs]


def load_demo(
    *, as_of: date | Mapping[str, date], seed: int = SEED, packs: list[str] | None = None
) -> list:
    """Write the demo programs of `packs` (default every pack known) and the staff login;
    returns the agencies. Each program leads up to `as_of`, or, given a day for each pack,
    to its own. One transaction."""
    from django.db import transaction

    from .enforcement import load_enforcement
    from .generated import load_generated
    from .load import load_program
    from .sewers import load_cleanings
    from .spills import load_spills
    from .written import written as written_packs

    packs = demo_packs(packs)
    day = as_of if isinstance(as_of, Mapping) else dict.fromkeys(packs, as_of)
    written = [p for p in written_packs() if p in packs]
    if any(day[p] < EARLIEST_AS_OF for p in written):
        raise ValueError(f"the demo needs as_of on or after {EARLIEST_AS_OF}")
    programs = [prog for p in written for prog in build_programs(day[p], seed, [p])]
    with transaction.atomic(), held():  # the demo command sweeps each agency after
        staff = staff_user()
        agencies = [load_program(p, staff, seed) for p in programs]
        agencies += [load_generated(p, as_of=day[p], seed=seed) for p in packs if p not in written]
        for agency in agencies:
            load_enforcement(agency, as_of=day[agency.pack], staff=staff)
            load_cleanings(agency, as_of=day[agency.pack], staff=staff)
            load_spills(agency, as_of=day[agency.pack])
        demo_people(agencies, staff)  # web/people/demo.py
        return agencies
