"""A pack made by `fogkeeper packs new`, filled in as its author would."""

from __future__ import annotations

from pathlib import Path


def fill(folder: Path) -> None:
    """The placeholders replaced as an author would: the example section kept as the citation."""
    for path in folder.glob("*.yaml"):
        text = path.read_text(encoding="utf-8")
        for placeholder in ("TODO: the section, as ", "TODO: the chapter, as ",
                            "TODO: where the effective date is stated, as "):  # fmt: skip
            text = text.replace(placeholder, "")
        text = text.replace("TODO: the department that runs the program", "Public Works")
        text = text.replace("code: TODO", "code: EXC")
        text = text.replace('"TODO: wq-2022-0103-dwq or none"', "none")
        text = text.replace("TODO: the court an appeal or a civil penalty goes to, as ", "")
        path.write_text(text, encoding="utf-8")
