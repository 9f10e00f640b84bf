"""Questions a lower layer asks a higher one (fogkeeper/layers.py), as Django signals: the
app that answers connects its receiver when it is ready, so the asking module need not
import it.

- `findings_wanted` (establishment, keys, on): enforcement's letters cite the engine's
  findings of the violations they are about; compliance, which evaluates the records, answers.
- `report_wanted` (establishment, as_of): billing's lien check needs the date the engine gives
  a penalty order; compliance answers with the establishment's report.
- `demo_loaded` (agencies, staff): the demo's programs are written; the staff pages add the
  people who sign in to them (web/people/demo.py).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal

findings_wanted = Signal()
report_wanted = Signal()
demo_loaded = Signal()


def _answer(signal: Signal, name: str, **question: Any) -> Any:
    answers = signal.send(sender=None, **question)
    if not answers:
        raise ImproperlyConfigured(f"no installed app answers {name} (fogkeeper.compliance?)")
    return answers[0][1]


def findings_of(establishment: Any, keys: set[tuple[str, str]], on: date) -> dict[tuple, list]:
    """(rule, subject) -> the engine's findings of it at `establishment` by `on`, oldest first."""
    return _answer(
        findings_wanted, "findings_wanted", establishment=establishment, keys=keys, on=on
    )


def report_of(establishment: Any, as_of: date) -> Any:
    """The engine's report of `establishment` as of `as_of`."""
    return _answer(report_wanted, "report_wanted", establishment=establishment, as_of=as_of)
