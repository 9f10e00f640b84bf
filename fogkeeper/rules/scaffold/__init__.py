"""`fogkeeper packs new NAME`: a new pack folder from the files here, every key commented with
what it means and every citation a "TODO" placeholder that `packs check` lists by line until
the agency's ordinance fills it in."""

from __future__ import annotations

import re
from pathlib import Path

from ..packs import PACKS_DIR

HERE = Path(__file__).resolve().parent
FILES = ("pack.yaml", "parameters.yaml", "checklist.yaml", "enforcement.yaml")
PLACEHOLDER = "TODO"


class ScaffoldRefused(ValueError):
    pass


def new_pack(folder: Path | str, name: str | None = None) -> Path:
    """Write a new pack at `folder` (its last part is the pack's id); refuses an existing
    folder, an id that is not lower-case letters, digits and hyphens, and a bundled pack's id."""
    folder = Path(folder)
    pack_id = folder.name
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", pack_id):
        raise ScaffoldRefused(
            f"{pack_id!r}: a pack's id is lower-case letters, digits and hyphens (as my-city)"
        )
    if (PACKS_DIR / pack_id).exists():
        raise ScaffoldRefused(f"{pack_id!r} is the id of a bundled pack: choose another")
    if folder.exists():
        raise ScaffoldRefused(f"{folder} already exists: nothing was written")
    title = (name or pack_id.replace("-", " ").title()).strip()
    if not title or "\n" in title or '"' in title:
        raise ScaffoldRefused(f"{name!r}: a name is one line of text, without double quotes")
    texts = {
        file: (HERE / file).read_text(encoding="utf-8").replace("{id}", pack_id) for file in FILES
    }
    texts = {file: text.replace("{name}", title) for file, text in texts.items()}
    folder.mkdir(parents=True)
    (folder / "letters").mkdir()
    for file, text in texts.items():
        (folder / file).write_text(text, encoding="utf-8")
    return folder
