"""Who the page benchmark's users are and what they visit: the ten busiest staff pages, the
operator portal's two, the logins that read them and the records they open.

The ten staff pages are the ones a day of the program's office spends most of its requests
on, by what each role opens first and comes back to: the landing page (the manager's
dashboard, `/`); the establishment list filtered to the non-compliant ones (the daily work
queue) and an establishment's page (where every lookup ends); the inspector's field list
(an inspector's landing); the case list and a case's page (the clerk's work, with the
calendar, the clerk's landing); the findings list filtered to the most common rule (what the
sweep found); and the lists of inspections and pump-outs (the records staff check
entries against). The forms and exports are busy too, but a person opens them after one of
these and they are measured by bench.forms and bench.exports.

The operators read their portal: its home, listing their establishments, and an
establishment's page. Each operator user signs in as an operator of its own (the current
operator of an establishment of the sample), as a portal's users would.

The staff user is a manager of the agency (a member, not a superuser, as staff are), so the
pages run the same membership checks as in service."""

from __future__ import annotations

from django.contrib.auth.hashers import make_password

STAFF_USERNAME = "bench"
OPERATOR_PREFIX = "bench-operator-"
CASE_PREFIX = "EC-B"
# The pages each staff user requests in turn ({code}: one of a sample of establishments;
# {case}: one of the sample cases, as establishment code/case code).
STAFF_PAGES = {
    "dashboard": "/",
    "filtered list": "/establishments/?status=non_compliant",
    "establishment": "/establishments/{code}/",
    "field list": "/inspections/field/",
    "case list": "/cases/",
    "case": "/cases/{case}/",
    "calendar": "/calendar/",
    "findings": "/findings/?rule=gcd.service_overdue",
    "inspections": "/inspections/",
    "pump-outs": "/pump-outs/",
}
# The pages each operator user requests in turn ({code}: its establishment's).
OPERATOR_PAGES = {
    "portal home": "/portal/operator/",
    "portal establishment": "/portal/operator/{code}/",
}
PAGES = {**STAFF_PAGES, **OPERATOR_PAGES}


def staff_login(agency, password: str):
    """The bench's manager of `agency` (made again if a run before left one)."""
    from django.contrib.auth import get_user_model

    from fogkeeper.web.models import Membership

    User = get_user_model()
    User.objects.filter(username=STAFF_USERNAME).delete()
    user = User.objects.create_user(STAFF_USERNAME, "bench@example.invalid", password)
    Membership.objects.create(user=user, agency=agency, role="manager")
    return user


def operator_logins(agency, password: str, count: int, as_of) -> list[tuple[str, str]]:
    """`count` operator users, each of the current operator of an open establishment of its
    own: (username, that establishment's code). One password hash for all of them: hashing
    a hundred would be the setup's slowest step and measures nothing."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    from fogkeeper.registry.models import OperatorTenure
    from fogkeeper.web.models import Membership

    User = get_user_model()
    User.objects.filter(username__startswith=OPERATOR_PREFIX).delete()
    tenures = (
        OperatorTenure.objects.filter(
            establishment__agency=agency, since__lte=as_of, until__isnull=True
        )
        .filter(Q(establishment__closed_on__isnull=True) | Q(establishment__closed_on__gt=as_of))
        .select_related("establishment")
        .order_by("?")[:count]
    )
    encoded = make_password(password)
    logins = []
    for i, tenure in enumerate(tenures):
        user = User.objects.create(username=f"{OPERATOR_PREFIX}{i}", password=encoded)
        Membership.objects.create(
            user=user, agency=agency, role="operator", operator_id=tenure.operator_id
        )
        logins.append((user.username, tenure.establishment.code))
    return logins


def sample_cases(agency, count: int, as_of) -> list[str]:
    """`count` enforcement cases, each about an open finding of its establishment,
    opened through the services staff use: "establishment code/case code" of each. The
    sweep's findings are then evaluated again for them at once, as a batch of writes is."""
    from fogkeeper import reevaluation
    from fogkeeper.compliance.models import Finding
    from fogkeeper.enforcement.models import EnforcementCase
    from fogkeeper.enforcement.services import case_open, violation_add

    cases = EnforcementCase.objects.filter(
        establishment__agency=agency, code__startswith=CASE_PREFIX
    ).select_related("establishment")
    if not cases.exists():
        findings = Finding.objects.filter(agency=agency, open=True, severity="violation")
        chosen = findings.order_by("establishment_id", "since").distinct("establishment_id")
        with reevaluation.held():
            for i, finding in enumerate(chosen.select_related("establishment")[:count]):
                case = case_open(
                    establishment=finding.establishment, code=f"{CASE_PREFIX}{i}", opened_on=as_of
                )
                violation_add(
                    case=case,
                    code="V-1",
                    rule=finding.rule,
                    subject=finding.subject,
                    since=finding.since,
                )
        ids = {c.establishment_id for c in cases}
        reevaluation.reevaluate_ids_on_commit(agency.pk, ids, as_of=as_of)
    return [f"{c.establishment.code}/{c.code}" for c in cases]


def query_counts(staff, operators: list[tuple[str, str]], codes, cases) -> dict:
    """The number of queries of one request of each page, as the bench's users make them
    (the page's name -> (queries, HTTP status)). The staff user's only agency is the bench
    agency, so neither signs in to another first."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    fill = {"code": codes[0], "case": cases[0] if cases else ""}
    counts = _count(Client(HTTP_HOST="127.0.0.1"), staff, STAFF_PAGES, fill)
    if operators:
        username, code = operators[0]
        operator = get_user_model().objects.get(username=username)
        client = Client(HTTP_HOST="127.0.0.1")
        counts |= _count(client, operator, OPERATOR_PAGES, {"code": code})
    return counts


def _count(client, user, pages: dict[str, str], fill: dict) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(user)
    counts = {}
    for name, url in pages.items():
        client.get(url.format(**fill))  # the first request of a process fills its caches
        with CaptureQueriesContext(connection) as queries:
            status = client.get(url.format(**fill)).status_code
        counts[name] = (len(queries), status)
    return counts
