"""An onboarding import that writes what the engine reads of establishments already evaluated
(their own fields, devices added to them, the haulers serving them) queues them for evaluation
once each as it commits; a dry run, an import of new establishments and one about
establishments never evaluated (an agency being onboarded) queue nothing: the next sweep
evaluates those first."""

from __future__ import annotations

from datetime import date

import pytest

from fogkeeper import reevaluation
from fogkeeper.compliance.models import ComplianceStatus
from fogkeeper.onboarding.importer import onboard
from fogkeeper.registry.haulers import contract_start
from tests.records import make_agency, make_device, make_establishment, make_hauler
from tests.reevaluation import assert_evaluated_again

pytestmark = pytest.mark.django_db

DEVICES = "establishment_code,code,kind,installed_on\nFSE-1,GI-1,interceptor,2015-03-01\n"
HAULERS = "code,name,licence_number,licence_expires_on,licensed\nH-1,Coast,L-7,,no\n"
PUMPOUTS = (
    "establishment_code,device_code,hauler_code,manifest_number,service_date,gallons_removed\n"
    "FSE-1,GI-1,H-1,M-1,2025-05-01,750\n"
)
NEW = (
    "code,name,address,opened_on,operator_name\n"
    "FSE-9,Harbor Grill,5 Pier Way,2015-03-01,Harbor Foods LLC\n"
)


@pytest.fixture
def asked(monkeypatch):
    """The establishments queued for evaluation, as (agency id, ids) of each batch asked."""
    calls = []
    real = reevaluation.queue.reevaluate
    monkeypatch.setattr(
        reevaluation.queue, "reevaluate", lambda *a, **kw: calls.append(a) or real(*a, **kw)
    )
    return calls


def _evaluated_long_ago(fse) -> None:
    reevaluation.reevaluate_on_commit(fse, as_of=date(2024, 1, 2))
    assert ComplianceStatus.objects.get(establishment=fse).as_of == date(2024, 1, 2)


def _import(fse, kind, text, dry_run=False):
    return onboard(
        agency=fse.agency,
        kind=kind,
        data=text.encode(),
        name="f.csv",
        today=fse.agency.today(),
        dry_run=dry_run,
    )


@pytest.mark.parametrize("kind, text", [
    ("devices", DEVICES),
    ("haulers", HAULERS),
    ("pumpouts", PUMPOUTS),
    ("establishments", NEW.replace("FSE-9,Harbor Grill", "FSE-1,Pier Taqueria Two").replace(
        "Harbor Foods LLC", "Pier Foods LLC")),
], ids=["a device added", "its hauler changed", "a pump-out added", "its name changed"],
)  # fmt: skip
def test_an_import_evaluates_the_establishments_it_changed_again_once(kind, text, asked):
    fse = make_establishment(make_agency())
    contract_start(hauler=make_hauler(fse.agency), establishment=fse, since=date(2020, 1, 1))
    if kind == "pumpouts":
        make_device(fse)
    _evaluated_long_ago(fse)

    outcome = _import(fse, kind, text)

    assert outcome.stored, outcome.problems
    assert asked == [(fse.agency_id, {fse.pk})]
    assert_evaluated_again(fse)


def test_a_dry_run_new_establishments_or_ones_never_evaluated_evaluate_nothing(asked):
    fse, never = make_establishment(make_agency()), make_establishment(make_agency("town-10-02"))
    _evaluated_long_ago(fse)

    _import(fse, "devices", DEVICES, dry_run=True)
    assert _import(fse, "establishments", NEW).stored
    assert _import(never, "devices", DEVICES).stored

    assert asked == []
    assert ComplianceStatus.objects.get(establishment=fse).as_of == date(2024, 1, 2)
