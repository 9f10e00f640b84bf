"""Helpers for the tests of requests: a hearing of an establishment's case."""

from __future__ import annotations

from fogkeeper.enforcement.models import EnforcementAction, EnforcementCase
from tests.records import d


def make_hearing(fse, code: str = "H-1", day: str = "2026-06-01") -> EnforcementAction:
    case = EnforcementCase.objects.create(establishment=fse, code=f"C-{code}", opened_on=d(day))
    return EnforcementAction.objects.create(
        case=case,
        establishment=fse,
        code=code,
        type="hearing",
        level="manager",
        taken_on=d(day),
        cites="13.30.080",
        fields={"hearing_on": day},
    )
