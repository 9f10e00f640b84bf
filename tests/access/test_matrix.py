"""Every URL of the application, requested for reading and writing as each role of agency A,
each role of agency B, and anonymously (ACCESS.md). The table says what each must get:

    ok      the page or action (200; a redirect elsewhere than the sign-in; 400 when the
            empty form posted is refused for its content, which proves the role got through)
    portal  sent on to the person's portal
    login   sent to the sign-in page (anonymous)
    404     as if it did not exist: another agency's or another establishment's record, or a
            page not meant for the role
    403     the role reaches the record but may not do this
    405     the method is not offered (after the record named is found: one the person may
            not reach is 404 whatever the method)
    401     not signed in (the API)
    own     (agency B's roles on a page without a record id) what the same role of A gets,
            for their own agency, with no trace of agency A
    hid     (agency B's roles on A's record) 404 where the same role of A gets "ok", else
            what it gets

The URLs are built with agency A's records: for outside roles, a record their role reaches,
and then again one it does not (where what was "ok" or "405" must be 404 for them).
"""

from __future__ import annotations

import functools
import io

import pytest
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from PIL import Image

from fogkeeper.api import shown
from fogkeeper.compliance.models import Finding
from fogkeeper.enforcement.models import EnforcementAction, EnforcementCase, Letter
from fogkeeper.incidents.models import Incident
from fogkeeper.inspections.models import Inspection, InspectionPhoto
from fogkeeper.inspections.services import inspection_photo_add
from fogkeeper.maintenance.models import Service
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.training.models import Training
from tests import databases

from . import areas
from .world import ROLES, build_world

pytestmark = pytest.mark.django_db

COLUMNS = ("name", "method", *ROLES, "B", "anonymous")
TABLE = """
web:login                           GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
web:login                           POST  ok    ok    ok    ok    ok    ok    ok    ok    ok
web:logout                          GET   405   405   405   405   405   405   405   405   405
web:logout                          POST  login login login login login login login login login
web:agency_switch                   GET   405   405   405   405   405   405   405   405   405
web:agency_switch                   POST  ok    ok    ok    ok    portal portal portal 404   login
web:dashboard                       GET   ok    ok    ok    ok    portal portal portal own   login
web:dashboard                       POST  405   405   405   405   portal portal portal own   login
web:establishments                  GET   ok    ok    ok    ok    404   404   404   own   login
web:establishments                  POST  405   405   405   405   404   404   404   own   login
web:establishment                   GET   ok    ok    ok    ok    404   404   404   404   login
web:establishment                   POST  405   405   405   405   404   404   404   404   login
web:map                             GET   ok    ok    ok    ok    404   404   404   own   login
web:map                             POST  405   405   405   405   404   404   404   own   login
web:map_data                        GET   ok    ok    ok    ok    404   404   404   own   login
web:map_data                        POST  405   405   405   405   404   404   404   own   login
web:field                           GET   ok    ok    ok    ok    404   404   404   own   login
web:field                           POST  405   405   405   405   404   404   404   own   login
web:cases                           GET   ok    ok    ok    ok    404   404   404   own   login
web:cases                           POST  405   405   405   405   404   404   404   own   login
web:case                            GET   ok    ok    ok    ok    404   404   404   404   login
web:case                            POST  405   405   405   405   404   404   404   404   login
web:letter                          GET   ok    ok    ok    ok    404   404   404   404   login
web:letter                          POST  405   405   405   405   404   404   404   404   login
web:photo                           GET   ok    ok    ok    ok    404   404   404   404   login
web:photo                           POST  405   405   405   405   404   404   404   404   login
web:photo_thumbnail                 GET   ok    ok    ok    ok    404   404   404   404   login
web:photo_thumbnail                 POST  405   405   405   405   404   404   404   404   login
web:record_service                  GET   ok    ok    403   403   404   404   404   404   login
web:record_service                  POST  ok    ok    403   403   404   404   404   404   login
web:record_inspection               GET   ok    ok    403   403   404   404   404   404   login
web:record_inspection               POST  ok    ok    403   403   404   404   404   404   login
web:record_sample                   GET   ok    ok    403   403   404   404   404   404   login
web:record_sample                   POST  ok    ok    403   403   404   404   404   404   login
web:record_training                 GET   ok    ok    403   403   404   404   404   404   login
web:record_training                 POST  ok    ok    403   403   404   404   404   404   login
web:record_incident                 GET   ok    ok    403   403   404   404   404   404   login
web:record_incident                 POST  ok    ok    403   403   404   404   404   404   login
web:record_permit                   GET   ok    403   403   403   404   404   404   404   login
web:record_permit                   POST  ok    403   403   403   404   404   404   404   login
web:record_permit_application       GET   ok    403   403   403   404   404   404   404   login
web:record_permit_application       POST  ok    403   403   403   404   404   404   404   login
web:record_operator_change          GET   ok    ok    403   403   404   404   404   404   login
web:record_operator_change          POST  ok    ok    403   403   404   404   404   404   login
portal:home                         GET   ok    ok    ok    ok    portal portal portal own   login
portal:home                         POST  405   405   405   405   405   405   405   own   login
portal:hauler                       GET   404   404   404   404   404   ok    404   own   login
portal:hauler                       POST  404   404   404   404   404   405   404   own   login
portal:operator                     GET   404   404   404   404   ok    404   404   own   login
portal:operator                     POST  404   404   404   404   405   404   404   own   login
portal:owner                        GET   404   404   404   404   404   404   ok    own   login
portal:owner                        POST  404   404   404   404   404   404   405   own   login
portal:hauler_customer              GET   404   404   404   404   404   ok    404   404   login
portal:hauler_customer              POST  404   404   404   404   404   405   404   404   login
portal:hauler_submit                GET   404   404   404   404   404   ok    404   404   login
portal:hauler_submit                POST  404   404   404   404   404   ok    404   404   login
portal:hauler_upload                GET   404   404   404   404   404   ok    404   own   login
portal:hauler_upload                POST  404   404   404   404   404   ok    404   own   login
portal:hauler_submissions           GET   404   404   404   404   404   ok    404   own   login
portal:hauler_submissions           POST  404   404   404   404   404   405   404   own   login
portal:hauler_api_token             GET   404   404   404   404   404   ok    404   own   login
portal:hauler_api_token             POST  404   404   404   404   404   ok    404   own   login
web:service_dispute                 GET   ok    ok    403   403   404   404   404   404   login
web:service_dispute                 POST  ok    ok    403   403   404   404   404   404   login
portal:operator_establishment       GET   404   404   404   404   ok    404   404   404   login
portal:operator_establishment       POST  404   404   404   404   405   404   404   404   login
portal:operator_letter              GET   404   404   404   404   ok    404   404   404   login
portal:operator_letter              POST  404   404   404   404   405   404   404   404   login
portal:operator_training            GET   404   404   404   404   ok    404   404   404   login
portal:operator_training            POST  404   404   404   404   ok    404   404   404   login
portal:operator_yellow_grease       GET   404   404   404   404   ok    404   404   404   login
portal:operator_yellow_grease       POST  404   404   404   404   ok    404   404   404   login
portal:operator_permit_application  GET   404   404   404   404   ok    404   404   404   login
portal:operator_permit_application  POST  404   404   404   404   ok    404   404   404   login
portal:operator_notice_answer       GET   404   404   404   404   ok    404   404   404   login
portal:operator_notice_answer       POST  404   404   404   404   ok    404   404   404   login
portal:operator_contact             GET   404   404   404   404   ok    404   404   own   login
portal:operator_contact             POST  404   404   404   404   ok    404   404   own   login
portal:owner_establishment          GET   404   404   404   404   404   404   ok    404   login
portal:owner_establishment          POST  404   404   404   404   404   404   405   404   login
api:schema                          GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
api:schema                          POST  405   405   405   405   405   405   405   405   405
api:docs                            GET   ok    ok    ok    ok    ok    ok    ok    ok    ok
api:docs                            POST  405   405   405   405   405   405   405   405   405
api:token                           GET   ok    ok    ok    ok    ok    ok    ok    own   401
api:token                           POST  ok    ok    ok    ok    ok    ok    ok    own   401
api:establishment-list              GET   ok    ok    ok    ok    ok    ok    ok    own   401
api:establishment-list              POST  405   405   405   405   405   405   405   own   401
api:establishment-detail            GET   ok    ok    ok    ok    ok    ok    ok    hid   401
api:establishment-detail            POST  405   405   405   405   405   405   405   404   401
api:device-list                     GET   ok    ok    ok    ok    ok    ok    403   own   401
api:device-list                     POST  405   405   405   405   405   405   405   own   401
api:device-detail                   GET   ok    ok    ok    ok    ok    ok    403   hid   401
api:device-detail                   POST  405   405   405   405   405   405   405   404   401
api:permit-list                     GET   ok    ok    ok    ok    ok    403   ok    own   401
api:permit-list                     POST  405   405   405   405   405   405   405   own   401
api:permit-detail                   GET   ok    ok    ok    ok    ok    403   ok    hid   401
api:permit-detail                   POST  405   405   405   405   405   405   405   404   401
api:service-list                    GET   ok    ok    ok    ok    ok    ok    403   own   401
api:service-list                    POST  403   403   403   403   403   ok    403   own   401
api:service-detail                  GET   ok    ok    ok    ok    ok    ok    403   hid   401
api:service-detail                  POST  405   405   405   405   405   405   404   404   401
api:training-list                   GET   ok    ok    ok    ok    ok    403   403   own   401
api:training-list                   POST  405   405   405   405   405   405   405   own   401
api:training-detail                 GET   ok    ok    ok    ok    ok    403   403   hid   401
api:training-detail                 POST  405   405   405   405   405   405   405   404   401
api:inspection-list                 GET   ok    ok    ok    ok    ok    403   403   own   401
api:inspection-list                 POST  405   405   405   405   405   405   405   own   401
api:inspection-detail               GET   ok    ok    ok    ok    ok    403   403   hid   401
api:inspection-detail               POST  405   405   405   405   405   405   405   404   401
api:incident-list                   GET   ok    ok    ok    ok    403   403   403   own   401
api:incident-list                   POST  405   405   405   405   405   405   405   own   401
api:incident-detail                 GET   ok    ok    ok    ok    403   403   403   hid   401
api:incident-detail                 POST  405   405   405   405   404   405   405   404   401
api:finding-list                    GET   ok    ok    ok    ok    ok    403   ok    own   401
api:finding-list                    POST  405   405   405   405   405   405   405   own   401
api:finding-detail                  GET   ok    ok    ok    ok    ok    403   ok    hid   401
api:finding-detail                  POST  405   405   405   405   405   405   405   404   401
admin:index                         GET   login login login login login login login login login
"""
# The admin is for the deployment's superusers (Django's is_staff), none of whom is a role
# of ACCESS.md; its own sign-in is the "login" above.
ADMIN_LOGIN = "/admin/login/"


AREAS = {"core": TABLE, **{m.__name__.rpartition(".")[2]: m.TABLE for m in areas.modules()}}


def area_rows(area: str) -> list[dict[str, str]]:
    """The rows of one area: the table above ("core") or an area's (tests/access/areas)."""
    out = []
    for line in AREAS[area].strip().splitlines():
        cells = line.split()
        assert len(cells) == len(COLUMNS), f"table row has {len(cells)} cells: {line}"
        out.append(dict(zip(COLUMNS, cells, strict=True)))
    return out


def rows() -> list[dict[str, str]]:
    """The table above, then each area's (tests/access/areas/<area>.py, its `TABLE`)."""
    return [row for area in AREAS for row in area_rows(area)]


@functools.cache
def url_parameters() -> dict[str, set[str]]:
    """Every named URL of the application with the names of its parameters (the admin's own
    pages are one row, admin:index)."""
    names: dict[str, set[str]] = {"admin:index": set()}

    def walk(patterns, namespace: str | None, above: set[str]) -> None:
        for p in patterns:
            params = above | set(p.pattern.regex.groupindex)
            if isinstance(p, URLResolver):
                ns = p.namespace or namespace
                if ns != "admin":
                    walk(p.url_patterns, ns, params)
            elif isinstance(p, URLPattern) and p.name:
                name = f"{namespace}:{p.name}" if namespace else p.name
                # the API's router adds a twin of each URL with a .json suffix: the plain one
                if name not in names or len(params) < len(names[name]):
                    names[name] = params

    walk(get_resolver().url_patterns, None, set())
    return names


# The URL parameters of a route, from one of agency A's establishments.
def _service(fse) -> int:
    return Service.objects.filter(device__establishment=fse).order_by("pk").first().pk


def _letter(fse) -> int:
    """A letter sent to `fse`, else one of its agency's (which `fse`'s URL must refuse);
    Letter.DoesNotExist where the agency has none (a pack with no enforcement action)."""
    letters = Letter.objects.filter(action__establishment__agency=fse.agency).order_by("pk")
    return (letters.filter(action__establishment=fse).first() or letters.earliest("pk")).pk


def _action(fse) -> str:
    """An action sent to `fse` (with a letter), else one of its agency's."""
    actions = EnforcementAction.objects.filter(
        establishment__agency=fse.agency, letters__isnull=False
    ).order_by("pk")
    return (actions.filter(establishment=fse).first() or actions.earliest("pk")).code


def _invoice(fse) -> str:
    """An invoice sent to `fse`, else one of its agency's (which `fse`'s URL must refuse)."""
    from fogkeeper.billing.models import Invoice

    invoices = Invoice.objects.filter(agency=fse.agency).order_by("pk")
    return (invoices.filter(establishment=fse).first() or invoices.earliest("pk")).code


KWARGS = {
    "code": lambda fse: fse.code,
    "invoice": _invoice,
    "pk": _service,
    "letter": _letter,
    "action": _action,
}


# URLs naming one record of agency A by more than an establishment's code: their parameters
# (staff reach every record of the agency; the outside roles none of these pages).
def _case(side) -> dict:
    case = EnforcementCase.objects.filter(establishment__agency=side.agency).earliest("pk")
    return {"code": case.establishment.code, "case": case.code}


def _agency_letter(side) -> dict:
    letters = Letter.objects.filter(action__establishment__agency=side.agency)
    return {"letter": letters.earliest("pk").pk}


def _photo(side) -> dict:
    photos = InspectionPhoto.objects.filter(inspection__establishment__agency=side.agency)
    return {"photo": photos.earliest("pk").pk}


RECORDS = {
    "web:case": _case,
    "web:letter": _agency_letter,
    "web:photo": _photo,
    "web:photo_thumbnail": _photo,
}
for _area in areas.modules():
    RECORDS.update(getattr(_area, "RECORDS", {}))


def add_photos(sides) -> None:
    """The demo has no inspection photo: one for an inspection of each agency, with its
    thumbnail (made when the photo's transaction commits)."""
    for side in sides.values():
        buf = io.BytesIO()
        Image.new("RGB", (4, 3)).save(buf, "PNG")
        with TestCase.captureOnCommitCallbacks(execute=True):
            inspection_photo_add(
                inspection=Inspection.objects.filter(establishment__agency=side.agency).earliest(
                    "pk"
                ),
                image=SimpleUploadedFile("photo.png", buf.getvalue(), content_type="image/png"),
            )


# What is posted, when not an empty form.
POSTED = {"web:agency_switch": lambda side: {"agency": side.agency.code}}
for _area in areas.modules():
    POSTED.update(getattr(_area, "POSTED", {}))

# Where agency B's role gets, on its own agency's page, other than what A's gets because its
# ordinance gives the act to another role: (name, method) -> role -> outcome.
B_ROLES: dict[tuple[str, str], dict[str, str]] = {}
for _area in areas.modules():
    B_ROLES.update(getattr(_area, "B_ROLES", {}))


API_MODELS = {
    "establishment": (FoodServiceEstablishment, ""),
    "device": (GreaseControlDevice, "establishment__"),
    "permit": (Permit, "establishment__"),
    "service": (Service, "device__establishment__"),
    "training": (Training, "establishment__"),
    "inspection": (Inspection, "establishment__"),
    "incident": (Incident, "establishment__"),
    "finding": (Finding, "establishment__"),
}


def _api_record(name: str, side, role: str) -> tuple[int, int | None]:
    """For api:<kind>-detail: a record of that kind `role` reaches (its company's own, for a
    hauler's services), and one it does not reach."""
    model, path = API_MODELS[name.removeprefix("api:").removesuffix("-detail")]
    records = model.objects.filter(**{f"{path}agency": side.agency}).order_by("pk")
    reached = {f"{path}code__in": side.reach[role]}
    mine = records.filter(**reached)
    if model is Service and role == "hauler":
        mine = mine.filter(hauler=side.users[role].memberships.get().hauler)
    listed = shown.rows(role, name.removeprefix("api:").removesuffix("-detail"))
    if listed is not None:  # an outside role's API lists only what its portal shows
        mine = mine.filter(listed)
    other = records.exclude(**reached).first()
    return (mine.first() or records.first()).pk, other.pk if other else None


def build(name: str, side, role: str) -> tuple[str, str | None]:
    """The URL of `name` with A's records `role` reaches, and with ones it does not (None when
    the URL has no record in it, or the role reaches every establishment)."""
    params = url_parameters()[name]
    if not params:
        return reverse(name), None
    if name in RECORDS:
        return reverse(name, kwargs=RECORDS[name](side)), None
    if name.startswith("api:"):
        mine, other = _api_record(name, side, role)
        return (
            reverse(name, kwargs={"pk": mine}),
            reverse(name, kwargs={"pk": other}) if other else None,
        )
    mine = reverse(name, kwargs={p: KWARGS[p](side.mine(role)) for p in params})
    other = side.not_mine(role)
    if other is None:
        return mine, None
    return mine, reverse(name, kwargs={p: KWARGS[p](other) for p in params})


def hidden(outcome: str) -> str:
    """What one gets for a record one may not reach where the table says `outcome` for one's
    own: nothing of it, 404 (a refusal that does not depend on the record stays as it is)."""
    return "404" if outcome in ("ok", "405") else outcome


def outcome(response, admin: bool) -> str:
    status = response.status_code
    if status in (301, 302):
        where = response.headers["Location"]
        if where.startswith(ADMIN_LOGIN if admin else "/accounts/login/"):
            return "login"
        if where.startswith("/portal/") and where != response.request["PATH_INFO"]:
            return "portal"  # a write shown again on its own page (post, redirect, get) is "ok"
        return "ok"
    if status in (200, 201, 400):
        return "ok"
    return str(status)


def _content(response) -> bytes:
    """The body, a streamed one (a download made as it is sent) read to its end."""
    if response.streaming:
        return b"".join(response.streaming_content)
    return response.content


def request(client: Client, row: dict[str, str], url: str, side):
    if row["method"] == "GET":
        return client.get(url)
    data = POSTED.get(row["name"], lambda side: {})(side)
    if row["name"].startswith("api:"):
        return client.post(url, data, content_type="application/json")
    return client.post(url, data)


def test_it_has_a_row_for_reading_and_one_for_writing_for_every_url_of_the_application():
    covered = {(r["name"], r["method"]) for r in rows()}
    wanted = {(name, m) for name in url_parameters() for m in ("GET", "POST")}
    assert wanted - covered - {("admin:index", "POST")} == set()


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """The matrix's world, built once per worker for every case of the module: each case
    runs in a savepoint of its transaction, so what one writes no other sees."""
    media = tmp_path_factory.mktemp("matrix-media")
    with databases.rolled_back(django_db_blocker), override_settings(MEDIA_ROOT=media):
        sides = build_world()
        add_photos(sides)
        for role in ROLES:  # the records each role's URLs name, picked before any case writes
            sides["A"].mine(role)
            sides["A"].not_mine(role)
        databases.check_constraints()
        yield sides


# Each case: one area's rows for one role of one agency, or for the anonymous visitor.
WHO = [*((role, "A") for role in ROLES), *((role, "B") for role in ROLES), ("anonymous", "")]


@pytest.mark.parametrize("who", WHO, ids=lambda w: "-".join(filter(None, w)))
@pytest.mark.parametrize("area", AREAS)
def test_it_gives_each_role_of_each_agency_exactly_what_the_table_says(world, area, who):
    role, key = who
    a = world["A"]
    marks = [a.mine("manager").name, a.agency.name]
    wrong = []

    def check(row, who: str, client: Client, url: str, expected: str) -> None:
        response = request(client, row, url, a)
        got = outcome(response, admin=row["name"].startswith("admin:"))
        if expected.startswith("own "):
            expected = expected.removeprefix("own ")
            if any(m.encode() in _content(response) for m in marks):
                wrong.append(f"{row['method']} {url} as {who}: shows agency A's records")
        if got != expected:
            wrong.append(f"{row['method']} {url} as {who}: {got}, expected {expected}")

    signed_in = SignedIn()
    for row in area_rows(area):
        if role == "anonymous":  # at the URL built for the last role, an outside one
            check(row, "anonymous", Client(), build(row["name"], a, ROLES[-1])[0], row[role])
            continue
        url, other = build(row["name"], a, role)
        client = signed_in(world[key].users[role])
        if key == "A":
            check(row, f"{role} of A", client, url, row[role])
            if other is not None and role in ("operator", "hauler", "owner"):
                expected = hidden(row[role])
                check(row, f"{role} of A, another's record", client, other, expected)
        else:
            expected = {"own": f"own {row[role]}", "hid": hidden(row[role])}.get(row["B"], row["B"])
            expected = B_ROLES.get((row["name"], row["method"]), {}).get(role, expected)
            check(row, f"{role} of B", client, url, expected)
        if row["method"] == "POST":
            signed_in.forget_the_signed_out()
    assert wrong == [], "\n".join(wrong)


class SignedIn:
    """One signed-in client per login, kept from row to row of a case; after a write, a
    client whose session no longer holds its login (signed out, or its password changed) is
    dropped, and the next row signs in afresh."""

    def __init__(self) -> None:
        self.clients: dict[int, tuple[User, Client]] = {}

    def __call__(self, user: User) -> Client:
        if user.pk not in self.clients:
            client = Client()
            client.force_login(user)
            self.clients[user.pk] = (user, client)
        return self.clients[user.pk][1]

    def forget_the_signed_out(self) -> None:
        for pk, (user, client) in list(self.clients.items()):
            session = client.session
            user.refresh_from_db()
            if (
                session.get(SESSION_KEY) != str(pk)
                or session.get(HASH_SESSION_KEY) != user.get_session_auth_hash()
            ):
                del self.clients[pk]
