"""The portal tests' worlds, each built once for a module whose tests ask for it (conftest's
`_module_world`): the operators' (conftest.py) or the hauler's (haulers.py), whichever the
module knows as `world`. A world's fixture reads it again for each test, or builds it for the
test where its module built none (a module outside tests/portal that imports the fixture)."""

from __future__ import annotations

from typing import Any


def asked_for(request: Any) -> bool:
    """Whether a test of the module that `request` sets up asks for the world."""
    mine = [i for i in request.session.items if getattr(i, "module", None) is request.module]
    return any("world" in item.fixturenames for item in mine)


def shared(request: Any) -> bool:
    """Whether the test's module built its world once for all its tests."""
    return "_module_world" in request.fixturenames and request.getfixturevalue("_module_world")
