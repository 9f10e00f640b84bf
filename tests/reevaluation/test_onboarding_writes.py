"""An onboarding import that writes what the engine reads of establishments already stored
(their own fields, devices added to them, the haulers serving them) queues them for evaluation
once each as it commits; a dry run, and an import of new establishments only, queue nothing
(a new establishment is evaluated first by the next sweep)."""

from __future__ import annotations

from datetime import date

import pytest

from fogkeeper import reevaluation
from fogkeeper.onboarding.importer import onboard
from fogkeeper.registry.haulers import contract_start
from tests.records import make_agency, make_establishment, make_hauler
from tests.reevaluation import assert_evaluated_again, forget_evaluation

pytestmark = pytest.mark.django_db

DEVICES = "establishment_code,code,kind,installed_on\nFSE-1,GI-1,interceptor,2015-03-01\n"
HAULERS = "code,name,licence_number,licence_expires_on,licensed\nH-1,Coast,L-7,,no\n"
NEW = (
    "code,name,address,opened_on,operator_name\n"
    "FSE-9,Harbor Grill,5 Pier Way,2015-03-01,Harbor Foods LLC\n"
)


@pytest.fixture
def asked(monkeypatch):
    """The establishments queued for evaluation, as (agency id, ids) of each batch asked."""
    calls = []
    real = reevaluation.queue.reevaluate
    monkeypatch.setattr(reevaluation.queue, "reevaluate",
                        lambda *a, **kw: calls.append(a) or real(*a, **kw))  # fmt: skip
    return calls


def _import(fse, kind, text, dry_run=False):
    return onboard(agency=fse.agency, kind=kind, data=text.encode(), name="f.csv",
                   today=fse.agency.today(), dry_run=dry_run)  # fmt: skip


@pytest.mark.parametrize("kind, text", [
    ("devices", DEVICES),
    ("haulers", HAULERS),
    ("establishments", NEW.replace("FSE-9,Harbor Grill", "FSE-1,Pier Taqueria Two").replace(
        "Harbor Foods LLC", "Pier Foods LLC")),
], ids=["a device added", "its hauler changed", "its name changed"])  # fmt: skip
def test_an_import_evaluates_the_establishments_it_changed_again_once(kind, text, asked):
    fse = make_establishment(make_agency())
    contract_start(hauler=make_hauler(fse.agency), establishment=fse, since=date(2020, 1, 1))
    forget_evaluation(fse)

    outcome = _import(fse, kind, text)

    assert outcome.stored, outcome.problems
    assert asked == [(fse.agency_id, {fse.pk})]
    assert_evaluated_again(fse)


def test_a_dry_run_or_new_establishments_only_evaluate_nothing(asked):
    fse = make_establishment(make_agency())

    _import(fse, "devices", DEVICES, dry_run=True)
    assert _import(fse, "establishments", NEW).stored

    assert asked == []
