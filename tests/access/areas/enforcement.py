"""The case workbench and the bulk notice: each step by the roles ACCESS.md gives it (a
notice: manager and inspector; hearings, appeals and decisions: manager and clerk; the
enforcement decisions: the manager), nobody outside the agency's staff, and another agency's
case or run is not there (404)."""

from fogkeeper.enforcement.models import BulkNotice, EnforcementAction, EnforcementCase

TABLE = """
web:case_document                   GET   ok    ok    ok    ok    404   404   404   404   login
web:case_document                   POST  405   405   405   405   404   404   404   404   login
web:case_open                       GET   ok    ok    403   403   404   404   404   404   login
web:case_open                       POST  ok    ok    403   403   404   404   404   404   login
web:bulk_notice                     GET   ok    ok    403   403   404   404   404   own   login
web:bulk_notice                     POST  ok    ok    403   403   404   404   404   own   login
web:bulk_notice_run                 GET   ok    ok    ok    ok    404   404   404   404   login
web:bulk_notice_run                 POST  405   405   405   405   404   404   404   404   login
web:case_act                        GET   ok    ok    403   403   404   404   404   404   login
web:case_act                        POST  ok    ok    403   403   404   404   404   404   login
web:case_hearing                    GET   ok    403   ok    403   404   404   404   404   login
web:case_hearing                    POST  ok    403   ok    403   404   404   404   404   login
web:case_conclude                   GET   ok    403   ok    403   404   404   404   404   login
web:case_conclude                   POST  ok    403   ok    403   404   404   404   404   login
web:case_waiver                     GET   ok    403   ok    403   404   404   404   404   login
web:case_waiver                     POST  ok    403   ok    403   404   404   404   404   login
web:case_close                      GET   ok    403   403   403   404   404   404   404   login
web:case_close                      POST  ok    403   403   403   404   404   404   404   login
web:case_appeal                     GET   ok    403   ok    403   404   404   404   404   login
web:case_appeal                     POST  ok    403   ok    403   404   404   404   404   login
web:case_fact                       GET   ok    403   403   403   404   404   404   404   login
web:case_fact                       POST  ok    403   403   403   404   404   404   404   login
web:case_judgment                   GET   ok    403   ok    403   404   404   404   404   login
web:case_judgment                   POST  ok    403   ok    403   404   404   404   404   login
"""


def _case(side) -> dict:
    case = EnforcementCase.objects.filter(establishment__agency=side.agency).earliest("pk")
    return {"code": case.establishment.code, "case": case.code}


def _first(side) -> str:
    """The pack's first notice; EnforcementAction.DoesNotExist for a pack with none (one that
    defines no enforcement action)."""
    first = side.agency.get_pack().procedure.get("first_notice")
    if not first:
        raise EnforcementAction.DoesNotExist("the pack names no first notice")
    return first


def _first_notice(side) -> dict:
    return {**_case(side), "type": _first(side)}


def _run(side) -> dict:
    run = BulkNotice.objects.filter(agency=side.agency).first() or BulkNotice.objects.create(
        agency=side.agency,
        action_type=_first(side),
        rule="gcd.service_overdue",
        codes=[],
        as_of="2025-06-06",
        total=0,
    )
    return {"pk": run.pk}


# The Town's first notice is an administrative complaint, the FOG Manager's (10.02.330(A)):
# its inspector may not send it in bulk, where San Clemente's sends Notices of Non-Compliance.
B_ROLES = {
    ("web:bulk_notice", "GET"): {"inspector": "own 403"},
    ("web:bulk_notice", "POST"): {"inspector": "own 403"},
}


def _document(side) -> dict:
    """An appeal received with its written appeal, in the agency's first case."""
    from django.core.files.base import ContentFile

    case = EnforcementCase.objects.filter(establishment__agency=side.agency).earliest("pk")
    appeal = case.actions.filter(code="AP-DOC").first()
    if appeal is None and not side.agency.get_pack().has_actions:
        raise EnforcementAction.DoesNotExist("the pack defines no enforcement action")
    if appeal is None:
        appeal = EnforcementAction(
            case=case,
            establishment=case.establishment,
            code="AP-DOC",
            type="appeal",
            level="council",
            taken_on=case.opened_on,
            cites="-",
            fields={"filed_on": "x"},
        )
        appeal.document.save("appeal.pdf", ContentFile(b"%PDF-1.4\n%%EOF\n"), save=False)
        appeal.save()
    return {**_case(side), "action": appeal.code}


RECORDS = {
    "web:case_document": _document,
    "web:bulk_notice_run": _run,
    "web:case_act": _first_notice,
    **{
        f"web:case_{step}": _case
        for step in ("hearing", "conclude", "waiver", "close", "appeal", "fact", "judgment")
    },
}
