"""Who may read and write what, for which agency: decided here and only here (ACCESS.md).

The staff pages, the portals and the API all ask this module. A person acts for an agency
through a membership naming the agency and a role; a superuser acts as a manager of every
agency. A record one may not reach answers 404, as if it did not exist, so ids reveal nothing.
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone

from fogkeeper.registry.models import Agency, FoodServiceEstablishment

from ..models import STAFF_ROLES, Membership

SESSION_KEY = "fogkeeper_agency"

# What each role may write (ACCESS.md "may write"). "establishment" covers the registry
# around an establishment (operators, parcels and owners, laterals and sewer segments);
# "device" its grease control devices and food grinders; "hauler" the haulers and their
# service contracts (the manager's records); "employee" an establishment's employees (with
# trainings); "membership" approving who may sign in (enrolment requests); "sweep" starting
# a sweep of the agency (the manager's); "request" a request the ordinance lets an operator
# file (fogkeeper/filings), "request_answer" deciding it (the manager's, who sets frequencies
# and modifies permits); "communication" a letter or email written once to many
# establishments (the manager's, and the clerk's, who keeps the program's correspondence).
# Staff roles write for the whole agency; an operator
# for its establishments, a hauler for its customers' devices. A sample of the discharge is
# part of an inspection (13.30.080(C); 10.02.090): whoever records inspections.
# fmt: off
WRITES = {
    "manager": {
        "establishment", "device", "service", "training", "inspection", "sample", "incident",
        "permit", "operator_change", "frequency", "fees", "notice", "hearing", "decision",
        "appeal", "penalty", "invoice", "payment", "membership", "dispute", "enforcement",
        "hauler", "employee", "plan_review", "yellow_grease", "segment_cleaning", "sweep",
        "onboarding", "communication", "request_answer", "report_requirement",
    },
    "inspector": {
        "establishment", "device", "service", "training", "inspection", "sample", "incident",
        "operator_change", "notice", "dispute", "employee", "plan_review", "yellow_grease",
        "segment_cleaning",
    },
    "clerk": {"hearing", "decision", "appeal", "penalty", "invoice", "payment", "communication"},
    "auditor": set(),
    "operator": {
        "training", "yellow_grease", "permit_application", "notice_answer", "contact",
        "employee", "request", "report",
    },
    "hauler": {"service"},
    "owner": set(),
}
# fmt: on

# What kind of write each enforcement step is (WRITES' keys), by ACCESS.md: an inspector
# sends notices of noncompliance and records their correction; the clerk and hearing officer
# hearings, decisions, appeals, penalty orders and court judgments; the manager, besides,
# suspends and revokes permits and takes the enforcement decisions (complaints, schedules).
ACTION_KINDS = {
    "notice_of_noncompliance": "notice",
    "suspension_notice": "permit",
    "revocation_notice": "permit",
    "emergency_suspension": "permit",
    "administrative_complaint": "enforcement",
    "compliance_schedule": "enforcement",
    "manager_decision": "decision",
    "hearing_decision": "decision",
    "emergency_decision": "decision",
    "final_decision": "decision",
    "council_decision": "decision",
    "city_manager_decision": "decision",
    "criminal_citation": "notice",  # a citation an enforcement officer issues, as a notice
    "penalty_order": "penalty",
    "court_judgment": "decision",
    "hearing": "hearing",
    "hearing_waiver": "hearing",
    "case_closure": "enforcement",
    "appeal": "appeal",
}
# A later fact about an action is written by whoever may take it, except these.
FACT_KINDS = {
    "corrected_on": "notice",
    "paid_on": "payment",
    "hearing_concluded_on": "hearing",
    "hearing_concluded_at": "hearing",
    "concluded_on": "hearing",
}


def action_kind(action_type: str) -> str:
    """The kind of write taking an action of `action_type` is (a key of WRITES' sets); an
    action type no mapping names is the manager's decision."""
    return ACTION_KINDS.get(action_type, "enforcement")


def fact_kind(action_type: str, field: str) -> str:
    name = field.split(".")[0]
    if name == "milestones":
        return "enforcement"
    return FACT_KINDS.get(name, action_kind(action_type))


# What each role may read of the establishments it reaches (ACCESS.md "may read").
EVERYTHING = "*"
# fmt: off
READS = {
    "manager": {EVERYTHING},
    "inspector": {EVERYTHING},
    "clerk": {EVERYTHING},
    "auditor": {EVERYTHING},
    "operator": {
        "establishment", "permit", "status", "findings", "schedule", "devices", "services",
        "trainings", "inspection_results", "letters", "invoices",
    },
    "hauler": {"establishment", "devices", "schedule", "own_services"},
    "owner": {"establishment", "status", "findings", "schedule", "permit"},
}
# fmt: on

# The audit trail is read by the manager and the auditor (the one the trail is kept for).
AUDIT_READERS = {"manager", "auditor"}


def may_read_audit(user, agency: Agency | None) -> bool:
    """Whether the person may read the agency's audit trail."""
    return role(user, agency) in AUDIT_READERS


def _active(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active)


def readable_agencies(user) -> QuerySet[Agency]:
    if not _active(user):
        return Agency.objects.none()
    if user.is_superuser:
        return Agency.objects.order_by("name")
    return Agency.objects.filter(memberships__user=user).distinct().order_by("name")


def request_memberships(request) -> dict[int, Membership]:
    """The signed-in person's memberships by agency id, each with its agency and its
    operator, hauler or owner: read in one query, once per request (none for a superuser,
    who holds no membership and reads every agency)."""
    user = request.user
    key = getattr(user, "pk", None)
    cached = getattr(request, "_memberships", None)
    if cached is None or cached[0] != key:
        found: dict[int, Membership] = {}
        if _active(user) and not user.is_superuser:
            rows = Membership.objects.filter(user=user).select_related(
                "agency", "operator", "hauler", "owner"
            )
            found = {m.agency_id: m for m in rows.order_by("agency__name", "agency_id")}
        cached = request._memberships = (key, found)
    return cached[1]


def request_agencies(request) -> list[Agency]:
    """The agencies the person signed in to `request` may read, read once per request."""
    key = getattr(request.user, "pk", None)
    cached = getattr(request, "_readable_agencies", None)
    if cached is None or cached[0] != key:
        if _active(request.user) and not request.user.is_superuser:
            agencies = [m.agency for m in request_memberships(request).values()]
        else:
            agencies = list(readable_agencies(request.user))
        cached = request._readable_agencies = (key, agencies)
    return cached[1]


def current_agency(request) -> Agency | None:
    """The agency the request acts for: the one chosen in the session if still readable
    (a removed membership ends access at once), else the one the person chose last (a new
    session), otherwise the first readable one."""
    agencies = request_agencies(request)
    chosen = request.session.get(SESSION_KEY)
    if chosen is None and len(agencies) > 1:
        chosen = _last_chosen(request)
    for agency in agencies:
        if agency.pk == chosen:
            return agency
    return agencies[0] if agencies else None


def _last_chosen(request) -> int | None:
    """The pk of the agency the person last chose to act for, if any."""
    chosen = [
        (m.last_chosen, m.agency_id)
        for m in request_memberships(request).values()
        if m.last_chosen is not None
    ]
    return max(chosen)[1] if chosen else None


def choose_agency(request, code: str) -> Agency:
    """Act for the agency `code` for the rest of the session, and from the next sign-in."""
    agency = readable_agencies(request.user).filter(code=code).first()
    if agency is None:
        raise Http404("no such agency")
    request.session[SESSION_KEY] = agency.pk
    Membership.objects.filter(user=request.user, agency=agency).update(last_chosen=timezone.now())
    return agency


def membership(user, agency: Agency | None) -> Membership | None:
    """The person's membership of `agency` (a superuser's is an unsaved manager one)."""
    if not _active(user) or agency is None:
        return None
    if user.is_superuser:
        return Membership(user=user, agency=agency, role="manager")
    acting = getattr(user, "_acting_membership", None)
    if acting is not None and acting.agency_id == agency.pk:
        return acting
    return (
        Membership.objects.filter(user=user, agency=agency)
        .select_related("operator", "hauler", "owner")
        .first()
    )


def request_membership(request, agency: Agency | None) -> Membership | None:
    """membership(), kept on the signed-in user for the rest of the request: the role checks
    of the view, its templates and tags then ask no more."""
    found = request_memberships(request).get(agency.pk) if agency is not None else None
    if found is None:
        found = membership(request.user, agency)
    if found is not None and found.pk is not None:
        request.user._acting_membership = found
    return found


def role(user, agency: Agency | None) -> str | None:
    found = membership(user, agency)
    return found.role if found else None


def is_staff(user, agency: Agency | None) -> bool:
    return role(user, agency) in STAFF_ROLES


def establishments(user, agency: Agency | None, *, on: date | None = None) -> QuerySet:
    """The establishments of `agency` the person reaches: all of them for staff; an
    operator's current ones; a hauler's current customers; an owner's on its parcels."""
    found = membership(user, agency)
    qs = FoodServiceEstablishment.objects.filter(agency=agency)
    if found is None:
        return qs.none()
    if found.role in STAFF_ROLES:
        return qs
    on = on or timezone.localdate()
    if found.role == "operator":
        current = Q(tenures__since__lte=on) & (
            Q(tenures__until__isnull=True) | Q(tenures__until__gte=on)
        )
        return qs.filter(current, tenures__operator=found.operator_id).distinct()
    if found.role == "hauler":
        current = Q(contracts__since__lte=on) & (
            Q(contracts__until__isnull=True) | Q(contracts__until__gte=on)
        )
        return qs.filter(current, contracts__hauler=found.hauler_id).distinct()
    if found.role == "owner":
        return qs.filter(parcel__owner=found.owner_id)
    return qs.none()


def reachable(user, agency: Agency | None, code: str) -> FoodServiceEstablishment:
    """The establishment `code` if the person reaches it, else 404."""
    fse = establishments(user, agency).filter(code=code).first()
    if fse is None:
        raise Http404("no such establishment")
    return fse


def may_read(user, agency: Agency | None, what: str) -> bool:
    """Whether the person may read `what` (a key of READS' sets) of what they reach."""
    allowed = READS.get(role(user, agency) or "", set())
    return EVERYTHING in allowed or what in allowed


def may_write(user, agency: Agency | None, kind: str) -> bool:
    """Whether the person, acting for `agency`, may record a `kind` (a key of WRITES' sets)
    for the establishments they reach."""
    return kind in WRITES.get(role(user, agency) or "", set())


def require_write(user, agency: Agency | None, kind: str) -> None:
    if not may_write(user, agency, kind):
        raise PermissionDenied(f"your role at {agency} may not record this")


def services(user, agency: Agency | None) -> QuerySet:
    """The pump-outs the person may read: every one of the establishments they reach, or, for a
    role that reads only its own services (a hauler), only the ones its company did."""
    from fogkeeper.maintenance.models import Service

    reached = Service.objects.filter(device__establishment__in=establishments(user, agency))
    if may_read(user, agency, "services"):
        return reached
    if may_read(user, agency, "own_services"):
        found = membership(user, agency)
        assert found is not None  # reading own services is a member's
        return reached.filter(hauler_id=found.hauler_id) if found.hauler_id else reached.none()
    return reached.none()
