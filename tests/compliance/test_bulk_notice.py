"""The pack's first notice sent to every establishment of a generated, demo-sized program
with an open finding of a rule: one case and one letter each; an establishment refused gets
nothing, and the run says why.

The program and the run are built once (a module-scoped transaction, rolled back when the
module ends) and each test reads what it checks of them; the tests share one pytest-xdist
worker, so that building them once is once in the whole run."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from unittest.mock import patch

import pytest
from django.db.models import Count

from fogkeeper.compliance import sweep
from fogkeeper.compliance.from_findings import bulk_notice_start, run_bulk_notice
from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import BulkNotice, EnforcementAction, EnforcementCase, Letter
from fogkeeper.registry.models import Agency
from tests import databases

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("bulk-notice")]

AS_OF = date(2025, 6, 6)


@dataclass
class Sent:
    """The program, the rule most found, the establishments with an open finding of it (the
    first of which is refused: its finding closed before the run), the run once done and
    the ids of each batch evaluated again while it ran."""

    program: Agency
    rule: str
    codes: list[str]
    run: BulkNotice
    loads: list[list[int]]

    @property
    def refused(self) -> str:
        return self.codes[0]

    def letters(self):
        return Letter.objects.filter(action__establishment__agency=self.program)


@pytest.fixture(scope="module")
def sent(django_db_setup, django_db_blocker):
    with databases.rolled_back(django_db_blocker, as_committed=True):
        program = generate_program(
            establishments=450, years=3, as_of=AS_OF, agency_code="bulk", pack="san-clemente"
        ).agency
        sweep_agency(program, as_of=AS_OF)
        rule, codes = _most_found(program)
        Finding.objects.filter(establishment__code=codes[0], agency=program).update(open=False)
        run = bulk_notice_start(
            agency=program,
            rule=rule,
            codes=codes,
            as_of=AS_OF,
            delivery="mail",
            first_certified="7019 0700 0000 0000 0100",
            fields={"delivered_on": AS_OF, "correct_by": date(2025, 7, 6)},
        )
        with _loads() as loads:
            run = run_bulk_notice(run.pk)
        databases.check_constraints()
        yield Sent(program, rule, codes, run, loads)


def test_it_finds_over_200_establishments_with_an_open_finding_of_one_rule(sent):
    assert len(sent.codes) > 200, f"only {len(sent.codes)} establishments with {sent.rule}"


def test_it_sends_one_notice_and_one_letter_to_each_of_over_200_establishments(sent):
    run, codes = sent.run, sent.codes
    assert run.done == run.total == len(codes)
    assert {r["establishment"] for r in run.sent} == set(codes[1:])
    per_establishment = dict(
        sent.letters().values_list("action__establishment__code").annotate(n=Count("id"))
    )
    assert per_establishment == {code: 1 for code in codes[1:]}
    numbers = set(
        EnforcementAction.objects.filter(establishment__agency=sent.program).values_list(
            "certified_mail_number", flat=True
        )
    )
    assert len(numbers) == len(codes) - 1  # one certified number of the roll each


def test_it_sends_nothing_to_an_establishment_refused_and_says_why(sent):
    assert sent.run.refused == [
        {"establishment": sent.refused, "reason": "no open finding of this rule any more"}
    ]
    assert not EnforcementCase.objects.filter(
        establishment__code=sent.refused, establishment__agency=sent.program
    ).exists()


def test_it_evaluates_the_establishments_sent_again_together_once_after_the_sending(sent):
    sent_ids = sent.program.establishments.filter(code__in=sent.codes[1:]).values_list(
        "pk", flat=True
    )
    assert sent.loads == [sorted(sent_ids)]


def test_it_does_not_send_a_finished_run_twice(sent):
    with _loads() as loads:
        again = run_bulk_notice(sent.run.pk)
    assert loads == []
    assert sent.letters().count() == len(sent.codes) - 1
    assert again.done == sent.run.done


@contextmanager
def _loads():
    """The establishment ids of each batch of case files built (one per evaluation)."""
    loads, real = [], sweep.load_case_files

    def spy(agency, ids, as_of):
        loads.append(list(ids))
        return real(agency, ids, as_of)

    with patch.object(sweep, "load_case_files", spy):
        yield loads


def _most_found(agency) -> tuple[str, list[str]]:
    rows = (
        Finding.objects.filter(agency=agency, open=True)
        .values("rule")
        .annotate(n=Count("establishment", distinct=True))
        .order_by("-n")
    )
    rule = rows[0]["rule"]
    codes = sorted(
        set(
            Finding.objects.filter(agency=agency, open=True, rule=rule).values_list(
                "establishment__code", flat=True
            )
        )
    )
    return rule, codes
