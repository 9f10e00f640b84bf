"""The access matrix's rows of each area of the pages, one module each (`TABLE` in the
matrix's columns; optionally `RECORDS`, URL name -> the URL's parameters from a side of the
world, and `POSTED`, URL name -> what is posted), so each area's pages bring their rows."""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"{__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name)
    ]
