"""Every public function of a services module, and of every module that asks for a
re-evaluation or imports records, is either shown by a re-evaluation test to evaluate its
establishment again as it commits, or listed here as writing nothing the engine reads (with
why). A new service fails this test until it is one or the other."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

from fogkeeper.billing.annual import invoice_annual_fees
from fogkeeper.billing.annual_runs import start_annual_fees
from fogkeeper.compliance.from_findings import (
    bulk_notice_start,
    case_from_findings,
    run_bulk_notice,
)
from fogkeeper.onboarding.importer import onboard

from . import (
    test_billing_writes,
    test_enforcement_writes,
    test_filings_writes,
    test_permits_writes,
    test_records_writes,
    test_registry_writes,
    test_submittals_writes,
)

ROOT = Path(__file__).resolve().parents[2] / "fogkeeper"

# the imports of many records, the runs of them and the writes of attached files, that no
# module name gives away
IMPORTS = (
    "fogkeeper.onboarding.importer",
    "fogkeeper.incidents.imports",
    "fogkeeper.inspections.offline",
    "fogkeeper.training.logs",
    "fogkeeper.inspections.photos",
    "fogkeeper.inspections.receipts",
)

# shown by their own tests in this folder, beside the WRITES of each area's module
TESTED_APART = {
    case_from_findings: "test_enforcement_writes",
    bulk_notice_start: "test_enforcement_writes (the run it starts)",
    run_bulk_notice: "test_enforcement_writes",
    invoice_annual_fees: "test_billing_writes",
    start_annual_fees: "test_billing_writes (it runs run_annual_fees at once)",
    onboard: "test_onboarding_writes",
}


def _modules() -> list[str]:
    paths = [*ROOT.glob("*/services.py"), *ROOT.glob("*/services/*.py")]
    paths += [p for p in ROOT.rglob("*.py") if "fogkeeper.reevaluation import" in p.read_text()]
    names = {".".join(p.relative_to(ROOT.parent).with_suffix("").parts) for p in paths}
    names = {n.removesuffix(".__init__") for n in names} | set(IMPORTS)
    return sorted(n for n in names if not n.startswith(_NOT_SERVICES) and "migrations" not in n)


# the machinery itself, and the pages (they call the services, which ask for themselves)
_NOT_SERVICES = ("fogkeeper.reevaluation", "fogkeeper.web.")


def _public(module: str) -> dict[str, object]:
    mod = importlib.import_module(module)
    return {
        f"{module}.{name}": f
        for name, f in vars(mod).items()
        if inspect.isfunction(f) and f.__module__ == module and not name.startswith("_")
    }


def _covered() -> set[object]:
    areas = (
        test_registry_writes,
        test_records_writes,
        test_permits_writes,
        test_enforcement_writes,
        test_billing_writes,
        test_filings_writes,
        test_submittals_writes,
    )
    return {f for area in areas for f in area.WRITES} | set(TESTED_APART)


def test_every_write_service_is_tested_for_its_re_evaluation_or_exempt_with_a_reason():
    found = {name: f for module in _modules() for name, f in _public(module).items()}
    covered = _covered()
    unclassified = sorted(n for n, f in found.items() if f not in covered and n not in EXEMPT)
    assert unclassified == [], "neither tested for re-evaluation nor exempt: " + ", ".join(
        unclassified
    )
    both = sorted(n for n, f in found.items() if f in covered and n in EXEMPT)
    assert both == [], f"tested and yet listed as exempt: {both}"
    assert sorted(set(EXEMPT) - set(found)) == [], "exempt but no longer there"


_CHECKS = "checks or reads, writes nothing"
_HELPER = "a step of the services above, which ask for the re-evaluation themselves"
_NOT_READ = "the case file (fogkeeper/compliance/casefiles) does not read it"

EXEMPT: dict[str, str] = {
    "fogkeeper.api.services.token_rotate": f"an API token: {_NOT_READ}",
    "fogkeeper.audit.services.audit_record": "the audit trail: " + _NOT_READ,
    "fogkeeper.audit.services.establishment_id_of": _CHECKS,
    "fogkeeper.audit.services.plain": _CHECKS,
    "fogkeeper.audit.services.snapshot": _CHECKS,
    "fogkeeper.billing.annual.active_establishments": _CHECKS,
    "fogkeeper.billing.annual.annual_fee_item": _CHECKS,
    "fogkeeper.billing.annual.fee_for_year": _CHECKS,
    "fogkeeper.billing.annual.invoice_one": "a step of invoice_annual_fees, held: the run asks",
    "fogkeeper.billing.annual.reevaluate_invoiced": "the run's one batch, asked (tested with it)",
    "fogkeeper.billing.annual_runs.queue": "queues run_annual_fees, which start_annual_fees runs",
    "fogkeeper.billing.annual_runs.run_annual_fees": "run by start_annual_fees, tested with it",
    "fogkeeper.billing.annual_runs.underway": _CHECKS,
    "fogkeeper.billing.services.fee_schedule_set": f"the prices of later invoices: {_NOT_READ}",
    "fogkeeper.billing.services.lock_invoices": _HELPER,
    "fogkeeper.communications.services.audit_snapshot": _CHECKS,
    "fogkeeper.communications.services.communication_draft": f"a mailing: {_NOT_READ}",
    "fogkeeper.communications.services.communication_resume": f"a mailing: {_NOT_READ}",
    "fogkeeper.communications.services.communication_send": f"a mailing: {_NOT_READ}",
    "fogkeeper.communications.services.max_attachment_bytes": _CHECKS,
    "fogkeeper.communications.services.preview": _CHECKS,
    "fogkeeper.communications.services.queue": f"queues a mailing: {_NOT_READ}",
    "fogkeeper.communications.services.reach": _CHECKS,
    "fogkeeper.communications.services.recipients": _CHECKS,
    "fogkeeper.communications.services.size_words": _CHECKS,
    "fogkeeper.demo.agency_codes": _CHECKS,
    "fogkeeper.demo.build_programs": "the demo programs as plain data: writes nothing",
    "fogkeeper.demo.demo_packs": _CHECKS,
    "fogkeeper.demo.load_demo": "loads the demo under held(), then sweeps what it loaded",
    "fogkeeper.demo.staff_user": f"a demo login: {_NOT_READ}",
    "fogkeeper.enforcement.services.actions.action_deadlines": _CHECKS,
    "fogkeeper.enforcement.services.actions.action_final_on": _CHECKS,
    "fogkeeper.enforcement.services.actions.filled_by_law": _CHECKS,
    "fogkeeper.enforcement.services.hearings.hearing_window": _CHECKS,
    "fogkeeper.enforcement.services.shared.acts_of": _CHECKS,
    "fogkeeper.enforcement.services.shared.check_done": _CHECKS,
    "fogkeeper.enforcement.services.shared.day_of": _CHECKS,
    "fogkeeper.enforcement.services.shared.plain_fields": _CHECKS,
    "fogkeeper.enforcement.services.shared.sends_letter": _CHECKS,
    "fogkeeper.filings.services.filing_deliver": f"a record of a proceeding delivered: {_NOT_READ}",
    "fogkeeper.filings.services.filing_submit": f"a request filed: {_NOT_READ} until answered",
    "fogkeeper.incidents.ciwqs.read_export": _CHECKS,
    "fogkeeper.incidents.imports.check_upload": _CHECKS,
    "fogkeeper.incidents.imports.queue": "queues run_import",
    "fogkeeper.incidents.imports.run_import": "runs ciwqs_import, which asks (tested)",
    "fogkeeper.incidents.imports.start_import": "records the upload and queues run_import",
    "fogkeeper.incidents.services.incident_set_aside": (
        "sets aside a spill matched to no establishment: no case file holds it"
    ),
    "fogkeeper.inspections.services.inspection_photo_add": f"a photo: {_NOT_READ}",
    "fogkeeper.inspections.offline.stored_inspection": _CHECKS,
    "fogkeeper.inspections.photos.photo_problem": _CHECKS,
    "fogkeeper.inspections.photos.thumbnail_bytes": _CHECKS,
    "fogkeeper.inspections.photos.thumbnail_make": f"a photo's thumbnail: {_NOT_READ}",
    "fogkeeper.inspections.photos.thumbnail_queue": f"a photo's thumbnail: {_NOT_READ}",
    "fogkeeper.inspections.receipts.receipt_context": _CHECKS,
    "fogkeeper.inspections.receipts.receipt_filename": _CHECKS,
    "fogkeeper.inspections.receipts.receipt_pdf": _CHECKS,
    "fogkeeper.inspections.receipts.receipt_send": f"when a receipt was emailed: {_NOT_READ}",
    "fogkeeper.maintenance.services.lock_manifests": _HELPER,
    "fogkeeper.permits.operators.active_permits": _CHECKS,
    "fogkeeper.permits.operators.ends_with_new_operator": _CHECKS,
    "fogkeeper.permits.operators.new_operator_rule": _CHECKS,
    "fogkeeper.permits.operators.operator_change_ended": _CHECKS,
    "fogkeeper.permits.operators.operator_change_warning": _CHECKS,
    "fogkeeper.permits.services.decisions.decision_orders": _CHECKS,
    "fogkeeper.permits.services.decisions.decisions_ordering": _CHECKS,
    "fogkeeper.permits.services.decisions.ordering_types": _CHECKS,
    "fogkeeper.permits.services.issuance.check_complete": _CHECKS,
    "fogkeeper.permits.services.issuance.check_term": _CHECKS,
    "fogkeeper.permits.services.modifications.modification_notice": _CHECKS,
    "fogkeeper.permits.services.shared.check_frequency": _CHECKS,
    "fogkeeper.registry.devices.allowed_frequencies": _CHECKS,
    "fogkeeper.registry.devices.merge": _CHECKS,
    "fogkeeper.registry.devices.sizing_required": _CHECKS,
    "fogkeeper.registry.devices.sizing_rule": _CHECKS,
    "fogkeeper.registry.devices.together": _CHECKS,
    "fogkeeper.registry.haulers.hauler_add": "a new hauler serves no establishment yet",
    "fogkeeper.registry.places.owner_register": f"a property owner: {_NOT_READ}",
    "fogkeeper.registry.places.owner_update": f"a property owner: {_NOT_READ}",
    "fogkeeper.registry.places.parcel_register": f"a parcel: {_NOT_READ}",
    "fogkeeper.registry.places.parcel_update": f"a parcel: {_NOT_READ}",
    "fogkeeper.registry.places.segment_register": f"a sewer segment: {_NOT_READ}",
    "fogkeeper.registry.places.segment_update": f"a sewer segment: {_NOT_READ}",
    "fogkeeper.registry.retention.record_delete_check": _CHECKS,
    "fogkeeper.registry.retention.record_retained_from": _CHECKS,
    "fogkeeper.registry.services.add_error": _CHECKS,
    "fogkeeper.registry.services.audit": _HELPER,
    "fogkeeper.registry.services.check_coordinates": _CHECKS,
    "fogkeeper.registry.services.check_model": _CHECKS,
    "fogkeeper.registry.services.check_not_future": _CHECKS,
    "fogkeeper.registry.services.check_not_negative": _CHECKS,
    "fogkeeper.registry.services.check_order": _CHECKS,
    "fogkeeper.registry.services.check_positive": _CHECKS,
    "fogkeeper.registry.services.check_same_agency": _CHECKS,
    "fogkeeper.registry.services.check_within_depth": _CHECKS,
    "fogkeeper.registry.services.hauler_register": "a new hauler serves no establishment yet",
    "fogkeeper.registry.services.lock": _HELPER,
    "fogkeeper.registry.services.operator_contact_update": (
        "an operator's phone, email and address: the case file reads only its name"
    ),
    "fogkeeper.registry.services.operator_named": _CHECKS,
    "fogkeeper.registry.services.operator_register": "a new operator operates nothing yet",
    "fogkeeper.registry.services.operator_save": _HELPER,
    "fogkeeper.registry.services.record_end": _HELPER,
    "fogkeeper.registry.services.refuse": _CHECKS,
    "fogkeeper.sewers.services.cleaning_record": f"a sewer cleaning: {_NOT_READ}",
    "fogkeeper.training.logs.training_log_attach": (
        f"a training's signed log, a file: {_NOT_READ} (its signatures are recorded apart)"
    ),
    "fogkeeper.training.logs.training_log_kind": _CHECKS,
}
