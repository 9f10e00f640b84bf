"""The staff inbox: what operators, haulers and the public file, newest first.

Everything filed is an audit row written with it (who, for which agency, what, when), so the
inbox reads the audit trail: the rows of the actions of SOURCES written by someone holding an
outside role at the agency (or, for a source `by_anyone`, by anyone, e.g. a request for an
account sent before one has a login). That list is sorted and paginated by the database; only
the page shown is then turned into rows, one query per kind of record on it.

A kind of record is added with one function (`@source(...)`) that turns the records of a page
into `InboxRow`s: the date filed, what it is, the establishment and the record's page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone

from fogkeeper.audit.models import AuditEvent
from fogkeeper.registry.models import Agency, FoodServiceEstablishment

from ..models import STAFF_ROLES, Membership

RECENT_DAYS = 7


@dataclass
class InboxRow:
    at: datetime
    kind: str
    title: str
    what: str
    who: str
    business: str
    establishment: FoodServiceEstablishment | None
    url: str


@dataclass(frozen=True)
class Source:
    kind: str
    title: str
    model: str  # the audit rows' object_type: "permits.permitapplication"
    actions: tuple[str, ...]
    rows: Callable[[Iterable[str]], dict[str, dict]]  # object ids -> what the row shows
    by_anyone: bool = False


SOURCES: dict[str, Source] = {}


def source(kind: str, title: str, model: str, *actions: str, by_anyone: bool = False):
    """Register a function (object ids -> {id: {"what", "establishment", "url"}}) as the
    inbox's source of `kind`, filed through the audit `actions` on `model`."""

    def register(fn):
        SOURCES[kind] = Source(kind, title, model, actions, fn, by_anyone)
        return fn

    return register


def _ids(object_ids: Iterable[str]) -> list[int]:
    return [int(i) for i in object_ids if str(i).isdigit()]


def _establishment_url(fse: FoodServiceEstablishment, anchor: str = "") -> str:
    return reverse("web:establishment", args=[fse.code]) + anchor


@source("application", "Permit application", "permits.permitapplication", "application.submit")
def _applications(object_ids):
    from fogkeeper.permits.models import PermitApplication

    out = {}
    for a in PermitApplication.objects.filter(pk__in=_ids(object_ids)).select_related(
        "establishment", "renewal_of"
    ):
        what = f"Renewal of {a.renewal_of.number}" if a.renewal_of else "New application"
        out[str(a.pk)] = {
            "what": f"{what}, from {a.applicant_name}",
            "establishment": a.establishment,
            "url": reverse("web:permit_application", args=[a.pk]),
        }
    return out


@source("answer", "Answer to a notice", "enforcement.noticeanswer", "enforcement.notice_answer")
def _answers(object_ids):
    from fogkeeper.enforcement.models import NoticeAnswer

    out = {}
    answers = NoticeAnswer.objects.filter(pk__in=_ids(object_ids)).select_related(
        "action__case", "action__establishment"
    )
    for a in answers:
        fse, action = a.action.establishment, a.action
        url = reverse("web:case", args=[fse.code, action.case.code]) if action.case else ""
        out[str(a.pk)] = {
            "what": f"Answer to {action.code}: {a.text[:80]}",
            "establishment": fse,
            "url": url or _establishment_url(fse),
        }
    return out


@source("training", "Training", "training.training", "training.record")
def _trainings(object_ids):
    from fogkeeper.training.models import Training

    out = {}
    for t in Training.objects.filter(pk__in=_ids(object_ids)).select_related("establishment"):
        log = ", with its signed log" if t.log else ""
        out[str(t.pk)] = {
            "what": f"Training {t.code} of {t.date:%Y-%m-%d}: {t.topic}{log}",
            "establishment": t.establishment,
            "url": _establishment_url(t.establishment),
        }
    return out


@source("report", "Required report", "submittals.reportsubmission", "report.submit")
def _reports(object_ids):
    from fogkeeper.submittals.models import ReportSubmission

    out = {}
    submissions = ReportSubmission.objects.filter(pk__in=_ids(object_ids)).select_related(
        "requirement__establishment__agency"
    )
    for s in submissions:
        fse = s.requirement.establishment
        late = " (late)" if s.submitted_on > s.due_on else ""
        out[str(s.pk)] = {
            "what": f"{s.requirement.title} due {s.due_on:%Y-%m-%d}, submitted "
            f"{s.submitted_on:%Y-%m-%d}{late}",
            "establishment": fse,
            "url": reverse("web:required_reports", args=[fse.code]),
        }
    return out


@source("service", "Pump-out", "maintenance.service", "service.record")
def _services(object_ids):
    from fogkeeper.maintenance.models import Service

    out = {}
    services = Service.objects.filter(pk__in=_ids(object_ids)).select_related(
        "device__establishment"
    )
    for s in services:
        fse = s.device.establishment
        out[str(s.pk)] = {
            "what": f"{s.device.code} pumped out {s.date:%Y-%m-%d}, manifest "
            f"{s.manifest_number} ({s.get_source_display().lower()})",
            "establishment": fse,
            "url": _establishment_url(fse),
        }
    return out


@source("dispute", "Dispute of a pump-out", "maintenance.servicedispute", "service.dispute")
def _disputes(object_ids):
    from fogkeeper.maintenance.models import ServiceDispute

    out = {}
    disputes = ServiceDispute.objects.filter(pk__in=_ids(object_ids)).select_related(
        "service__device__establishment"
    )
    for d in disputes:
        fse = d.service.device.establishment
        url = reverse("web:service_dispute", args=[fse.code, d.service_id])
        out[str(d.pk)] = {
            "what": f"Dispute of manifest {d.service.manifest_number}",
            "establishment": fse,
            "url": url,
        }
    return out


@source("yellow_grease", "Yellow-grease receipt", "maintenance.yellowgreasepickup", "pickup.record")
def _pickups(object_ids):
    from fogkeeper.maintenance.models import YellowGreasePickup

    out = {}
    pickups = YellowGreasePickup.objects.filter(pk__in=_ids(object_ids)).select_related(
        "establishment", "hauler"
    )
    for p in pickups:
        by = f" by {p.hauler.name}" if p.hauler else ""
        out[str(p.pk)] = {
            "what": f"Waste cooking oil collected {p.date:%Y-%m-%d}{by}",
            "establishment": p.establishment,
            "url": _establishment_url(p.establishment),
        }
    return out


@source("request", "Request", "filings.filing", "filing.submit")
def _requests(object_ids):
    from fogkeeper.filings.models import Filing
    from fogkeeper.filings.selectors import view

    out = {}
    filings = Filing.objects.filter(pk__in=_ids(object_ids)).select_related(
        "establishment__agency", "device", "permit", "hearing"
    )
    for f in filings:
        shown = view(f)
        about = f", {shown.about}" if shown.about else ""
        out[str(f.pk)] = {
            "what": f"{shown.title} ({shown.citation}){about}",
            "establishment": f.establishment,
            "url": reverse("web:filing", args=[f.pk]),
        }
    return out


@source("account", "Account request", "portal.enrolmentrequest", "enrolment.submit", by_anyone=True)
def _account_requests(object_ids):
    from fogkeeper.portal.models import EnrolmentRequest

    out = {}
    for r in EnrolmentRequest.objects.filter(pk__in=_ids(object_ids)):
        out[str(r.pk)] = {
            "what": f"{r.get_kind_display()} asks for an account",
            "who": r.contact_name,
            "business": r.business_name,
            "establishment": None,
            "url": reverse("web:enrolment_request", args=[r.pk]),
        }
    return out


def _filed(agency: Agency, kinds: Iterable[str]) -> QuerySet[AuditEvent]:
    outside = Membership.objects.filter(agency=agency).exclude(role__in=STAFF_ROLES)
    which = Q()
    for kind in kinds:
        s = SOURCES[kind]
        rows = Q(object_type=s.model, action__in=s.actions)
        which |= rows if s.by_anyone else rows & Q(actor__in=outside.values("user"))
    return AuditEvent.objects.filter(which, agency=agency).order_by("-at", "-id")


def inbox(*, agency: Agency, kind: str = "") -> QuerySet[AuditEvent]:
    """The audit rows of what was filed at `agency` (of one kind of SOURCES, or all), newest
    first: a lazy queryset to paginate, then `inbox_rows` for the page."""
    return _filed(agency, [kind] if kind in SOURCES else list(SOURCES))


def _recent_since(today: date | None) -> datetime:
    today = today or timezone.localdate()
    since = datetime.combine(today - timedelta(days=RECENT_DAYS - 1), datetime.min.time())
    return timezone.make_aware(since)


def recent(*, agency: Agency, today: date | None = None) -> QuerySet[AuditEvent]:
    """What was filed in the last RECENT_DAYS days."""
    return inbox(agency=agency).filter(at__gte=_recent_since(today))


def recent_count_sql(*, agency: Agency, today: date | None = None) -> tuple[str, list[Any]]:
    """recent()'s count as one SQL statement and its parameters, made from SOURCES as
    _filed() makes its filter: the nav counts it on every staff page, where the ORM's
    composing of a filter of every source cost more than the count."""
    anyone = [(s.model, a) for s in SOURCES.values() if s.by_anyone for a in s.actions]
    outside = [(s.model, a) for s in SOURCES.values() if not s.by_anyone for a in s.actions]
    staff = sorted(STAFF_ROLES)
    members = Membership._meta.db_table
    sql = (
        f"SELECT COUNT(*) FROM {AuditEvent._meta.db_table} WHERE agency_id = %s AND at >= %s"
        f" AND ((object_type, action) IN ({_pairs(anyone)})"
        f" OR ((object_type, action) IN ({_pairs(outside)}) AND actor_id IN"
        f" (SELECT user_id FROM {members} WHERE agency_id = %s"
        f" AND role NOT IN ({', '.join(['%s'] * len(staff))}))))"
    )
    params = [agency.pk, _recent_since(today), *_flat(anyone), *_flat(outside), agency.pk]
    return sql, params + staff


def _pairs(pairs: list[tuple[str, str]]) -> str:
    return ", ".join(["(%s, %s)"] * len(pairs)) if pairs else "(NULL, NULL)"


def _flat(pairs: list[tuple[str, str]]) -> list[str]:
    return [value for pair in pairs for value in pair]


def inbox_rows(*, agency: Agency, events: Iterable[AuditEvent]) -> list[InboxRow]:
    """A page of the inbox's audit rows as what the page shows: one query per kind on the
    page, and one for who filed (each person's business at the agency)."""
    events = list(events)
    kinds = {(s.model, a): s for s in SOURCES.values() for a in s.actions}
    by_source: dict[str, list[str]] = {}
    for e in events:
        by_source.setdefault(kinds[(e.object_type, e.action)].kind, []).append(e.object_id)
    shown = {kind: SOURCES[kind].rows(ids) for kind, ids in by_source.items()}
    people = _businesses(agency, {e.actor_id for e in events if e.actor_id})
    out = []
    for e in events:
        s = kinds[(e.object_type, e.action)]
        row = shown[s.kind].get(e.object_id)
        if row is None:
            continue
        who, business = people.get(e.actor_id or 0, ("", ""))  # 0: no one's id
        out.append(
            InboxRow(
                at=e.at,
                kind=s.kind,
                title=s.title,
                what=row["what"],
                who=row.get("who", who),
                business=row.get("business", business),
                establishment=row["establishment"],
                url=row["url"],
            )
        )
    return out


def _businesses(agency: Agency, user_ids: set[int]) -> dict[int, tuple[str, str]]:
    """Each person's name and the business their membership at `agency` names."""
    out = {}
    for m in Membership.objects.filter(agency=agency, user_id__in=user_ids).select_related(
        "user", "operator", "hauler", "owner"
    ):
        business = m.operator or m.hauler or m.owner
        name = m.user.get_full_name() or m.user.get_username()
        out[m.user_id] = (name, getattr(business, "name", "") or "")
    return out
