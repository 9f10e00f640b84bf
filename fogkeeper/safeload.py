"""YAML and JSON read from files and requests, refused when hostile before they are built.

A YAML alias (`*name`) repeats what its anchor (`&name`) holds. Loaded, the repeats are one
shared object, but whatever walks or prints the result walks every repeat: nine anchors of
nine aliases each, 600 bytes, make 9 ** 9 values, and `fogkeeper evaluate` spelt them out
into one "not a date" message until the machine ran out of memory (issue 37, item 9). Packs
use aliases honestly (a list of holidays, an action's fields), so they are capped, not
refused: all the aliases of a document may repeat at most MAX_REPEATED values in all.

Nesting is capped at MAX_DEPTH levels: JSON and YAML are built by recursion, and a file
nested 100,000 deep ended in a RecursionError's traceback.

Both are checked on the parser's events (YAML) or a scan of the brackets (JSON), which need
no recursion and stop at the first level or repeat past the cap."""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

_Loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

MAX_DEPTH = 100
MAX_REPEATED = 10_000

_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class Refused(ValueError):
    """A document refused for its shape; its words say what is wrong, after the file's name."""


def _too_deep() -> Refused:
    return Refused(f"is nested deeper than {MAX_DEPTH} levels")


def _too_many_repeats() -> Refused:
    return Refused(
        f"its YAML aliases (*name) repeat more than {MAX_REPEATED:,} values in all: write "
        f"the values out, or repeat less"
    )


def load_yaml(text: str | bytes) -> Any:
    """The YAML document in `text` (a safe load), once its depth and repeats are checked.
    Raises Refused, or yaml.YAMLError for what is not YAML."""
    check_yaml(text)
    return yaml.load(text, Loader=_Loader)


def load_json(text: str | bytes) -> Any:
    """The JSON document in `text`, once its depth is checked. Raises Refused, or ValueError
    for what is not JSON."""
    check_json(text)
    return json.loads(text)


def check_yaml(text: str | bytes) -> None:
    """Raises Refused for YAML nested past MAX_DEPTH or whose aliases repeat more than
    MAX_REPEATED values; what is not YAML is left for the load to say."""
    try:
        _check_events(yaml.parse(text, Loader=_Loader))
    except yaml.MarkedYAMLError as e:
        if e.problem == "exceeded maximum nesting depth":  # libyaml's own cap, past ours
            raise _too_deep() from None
        raise


def _check_events(events) -> None:
    sizes: dict[str, int] = {}  # an anchor's values, its aliases' counted in
    open_: list[list] = [[None, 0]]  # [anchor, values so far] of each open collection
    repeated = 0
    for event in events:
        if isinstance(event, yaml.CollectionStartEvent):
            open_.append([event.anchor, 1])
            if len(open_) - 1 > MAX_DEPTH:
                raise _too_deep()
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = open_.pop()
            open_[-1][1] += size
            if anchor is not None:
                sizes[anchor] = size
        elif isinstance(event, yaml.AliasEvent):
            repeated += sizes.get(event.anchor, 1)  # type: ignore[arg-type]  # an alias has an anchor
            if repeated > MAX_REPEATED:
                raise _too_many_repeats()
            open_[-1][1] += sizes.get(event.anchor, 1)  # type: ignore[arg-type]  # as above
        elif isinstance(event, yaml.ScalarEvent):
            open_[-1][1] += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1


def check_json(text: str | bytes) -> None:
    """Raises Refused for JSON nested past MAX_DEPTH (brackets within strings are text)."""
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8", errors="replace")
    depth = 0
    for token in _JSON_TOKENS.finditer(text):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep()
        elif bracket in ("]", "}"):
            depth -= 1
