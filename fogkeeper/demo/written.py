"""The written demo programs: one file per pack, fogkeeper/demo/programs/<pack>.yaml, holding
the agency (`agency`: code, name, letterhead), where it is (`place`: its establishments'
city, state and ZIP code, the centre of the map), the shape of its well-run establishments
(`builder`, read by data.py `Shape`), its fees and first letter (`enforcement`,
enforcement.py), and the program itself (stories.py). A pack without a file gets a
generated demo (generated.py); no code names a pack."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fogkeeper.safeload import load_yaml

DATA = Path(__file__).resolve().parent / "programs"


def written() -> list[str]:
    """The packs with a written program, by pack id."""
    return sorted(p.stem for p in DATA.glob("*.yaml"))


@cache
def _read(pack_id: str) -> dict:
    return load_yaml((DATA / f"{pack_id}.yaml").read_text(encoding="utf-8"))


def read(pack_id: str) -> dict:
    """The written program of `pack_id` (KeyError when it has none)."""
    if pack_id not in written():
        raise KeyError(f"no written demo program for {pack_id!r}")
    return _read(pack_id)


def section(pack_id: str, name: str) -> dict:
    """One section of the pack's written program, empty when the pack has none."""
    return (_read(pack_id).get(name) or {}) if pack_id in written() else {}
