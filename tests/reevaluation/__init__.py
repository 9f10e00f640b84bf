"""What the re-evaluation tests share: an establishment's stored evaluation made stale, and
whether it was evaluated again (its status dated the agency's today, its open findings the
engine's for that day).

Each area's test module keeps WRITES, {service: setup}: `setup(fse)` builds what the write
needs and returns the write itself, to be called once the stored evaluation is gone. The
completeness test (test_every_write_classified.py) reads the services they cover from them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from fogkeeper.compliance.casefiles.as_json import build_case_file
from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.rules import evaluate, parse_case
from tests.records import make_agency, make_establishment

Write = Callable[[], Any]
Setup = Callable[[Any], Write]


def today(fse) -> date:
    return fse.agency.today()


def open_findings(fse) -> set[tuple[str, str]]:
    return {(f.rule, f.subject) for f in Finding.objects.filter(establishment=fse, open=True)}


def engine_findings(fse) -> set[tuple[str, str]]:
    report = evaluate(parse_case(build_case_file(fse, today(fse))))
    return {(f.rule, f.subject) for f in report.findings if f.open}


def forget_evaluation(*fses) -> None:
    """As if the establishments were never evaluated: no status, no findings."""
    ComplianceStatus.objects.filter(establishment__in=fses).delete()
    Finding.objects.filter(establishment__in=fses).delete()


def assert_evaluated_again(fse) -> None:
    status = ComplianceStatus.objects.filter(establishment=fse).first()
    assert status is not None, "the write left the establishment unevaluated"
    assert status.as_of == today(fse)
    assert open_findings(fse) == engine_findings(fse)


PACKS = Path(__file__).resolve().parents[1] / "rules" / "format_packs"


def check_write(setup: Setup, pack: str = "san-clemente", monkeypatch=None) -> None:
    """The write `setup` returns, made on an establishment whose evaluation is gone,
    evaluates it again as it commits (the establishment the write returns, when it returns
    one: a registration)."""
    if pack not in ("san-clemente", "town-10-02"):
        monkeypatch.setenv("FOGKEEPER_PACKS", str(PACKS))
    fse = make_establishment(make_agency(pack))
    write = setup(fse)
    forget_evaluation(fse)
    made = write()
    assert_evaluated_again(made if isinstance(made, FoodServiceEstablishment) else fse)
