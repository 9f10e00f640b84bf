"""The pack's first notice sent to every establishment of a generated, demo-sized program
with an open finding of a rule: one case and one letter each; an establishment refused gets
nothing, and the run says why."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import date
from unittest.mock import patch

import pytest
from django.db.models import Count

from fogkeeper.compliance import sweep
from fogkeeper.compliance.from_findings import bulk_notice_start, run_bulk_notice
from fogkeeper.compliance.generate import generate_program
from fogkeeper.compliance.models import Finding
from fogkeeper.compliance.runs import sweep_agency
from fogkeeper.enforcement.models import EnforcementAction, EnforcementCase, Letter

pytestmark = pytest.mark.django_db

AS_OF = date(2025, 6, 6)


@pytest.fixture
def program():
    agency = generate_program(
        establishments=600, years=3, as_of=AS_OF, agency_code="bulk", pack="san-clemente"
    ).agency
    sweep_agency(agency, as_of=AS_OF)
    return agency


def test_it_sends_one_notice_and_one_letter_to_each_of_over_200_establishments(program):
    rule, codes = _most_found(program)
    assert len(codes) > 200, f"only {len(codes)} establishments with {rule}"
    refused = codes[:1]
    Finding.objects.filter(establishment__code__in=refused, agency=program).update(open=False)
    run = bulk_notice_start(
        agency=program, rule=rule, codes=codes, as_of=AS_OF, delivery="mail",
        first_certified="7019 0700 0000 0000 0100",
        fields={"delivered_on": AS_OF, "correct_by": date(2025, 7, 6)},
    )  # fmt: skip
    with _loads() as loads:
        run = run_bulk_notice(run.pk)
    assert run.done == run.total == len(codes)
    sent_ids = program.establishments.filter(code__in=codes[1:]).values_list("pk", flat=True)
    assert loads == [sorted(sent_ids)]  # evaluated again together, once, after the sending
    sent = {r["establishment"] for r in run.sent}
    assert sent == set(codes[1:])
    assert run.refused == [
        {"establishment": refused[0], "reason": "no open finding of this rule any more"}
    ]
    per_establishment = dict(
        Letter.objects.filter(action__establishment__agency=program)
        .values_list("action__establishment__code").annotate(n=Count("id"))
    )  # fmt: skip
    assert per_establishment == {code: 1 for code in codes[1:]}
    assert not EnforcementCase.objects.filter(
        establishment__code=refused[0], establishment__agency=program
    ).exists()
    numbers = set(
        EnforcementAction.objects.filter(establishment__agency=program).values_list(
            "certified_mail_number", flat=True
        )
    )
    assert len(numbers) == len(codes) - 1  # one certified number of the roll each

    with _loads() as loads:
        again = run_bulk_notice(run.pk)  # a run finished is not sent twice
    assert loads == []
    assert Letter.objects.filter(action__establishment__agency=program).count() == len(codes) - 1
    assert again.done == run.done


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
        .values("rule").annotate(n=Count("establishment", distinct=True)).order_by("-n")
    )  # fmt: skip
    rule = rows[0]["rule"]
    codes = sorted(
        set(Finding.objects.filter(agency=agency, open=True, rule=rule).values_list(
            "establishment__code", flat=True))
    )  # fmt: skip
    return rule, codes
