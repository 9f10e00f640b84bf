"""What a lower layer asks of a higher one (fogkeeper/layers.py, UPCALLS), by name: the app
that answers provides its function when it is ready (AppConfig.ready), so the asking module
need not import it. A name asked for that no installed app has provided is an error, never a
silent nothing: a process that never loaded the answering app must not skip the work.

- `reevaluate` (agency_id, establishment_ids, as_of): compliance evaluates these
  establishments again and stores what changed (fogkeeper/reevaluation.py asks, on commit).
- `findings_of` (establishment, keys, on): enforcement's letters cite the engine's findings
  of the violations they are about; compliance, which evaluates the records, answers.
- `report_of` (establishment, as_of): billing's lien check needs the date the engine gives a
  penalty order; compliance answers with the establishment's report.
- `demo_people` (agencies, staff): the demo's programs are written; the staff pages add the
  people who sign in to them (web/people/demo.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from .layers import UPCALLS

_provided: dict[str, Callable[..., Any]] = {}


def provide(name: str, function: Callable[..., Any]) -> None:
    """Answer `name` with `function` from now on (an app's ready(); again is harmless)."""
    if name not in UPCALLS:
        raise ImproperlyConfigured(f"{name} is not a call up the layers of fogkeeper/layers.py")
    _provided[name] = function


def provider(name: str) -> Callable[..., Any]:
    """The function provided for `name`; ImproperlyConfigured when none was."""
    try:
        return _provided[name]
    except KeyError:
        raise ImproperlyConfigured(
            f"no installed app provides {name} (fogkeeper.{UPCALLS[name][0]}?)"
        ) from None


def findings_of(establishment: Any, keys: set[tuple[str, str]], on: date) -> dict[tuple, list]:
    """(rule, subject) -> the engine's findings of it at `establishment` by `on`, oldest first."""
    return provider("findings_of")(establishment=establishment, keys=keys, on=on)


def report_of(establishment: Any, as_of: date) -> Any:
    """The engine's report of `establishment` as of `as_of`."""
    return provider("report_of")(establishment=establishment, as_of=as_of)


def demo_people(agencies: Any, staff: Any) -> None:
    """The demo's programs are written: add the people who sign in to them."""
    provider("demo_people")(agencies=agencies, staff=staff)
