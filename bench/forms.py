"""Form benchmark: the server time of the GET of every staff form page of a city-sized program,
on the database in DATABASE_URL (PostgreSQL under `make bench`, through scripts/with-postgres).

    python -m bench.forms [--establishments 25000] [--years 10] [--repeat 5]

Migrates and generates the synthetic program (not timed; reused when the database already
holds it), then requests each staff page that shows a form (a `<form method="post">`) with the
Django test client as a superuser of the bench agency, in this process (FOGKEEPER_DEBUG=false):
the time is the server's own, from the request to the whole response, without a network or a
browser. Each page is requested once to warm it, then --repeat times; its median is kept.
Prints the slowest five with their milliseconds, queries and sizes, next to the target (the
issue 39 bound of 300 ms), and the count of form pages timed. Pages naming a record the
program has none of are listed as not timed. Nothing is asserted: the figures are printed.
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import statistics
import time
from datetime import date

from bench.program import AGENCY, prepare_program

TARGET_MS = 300.0
USERNAME = "bench"
FORM = re.compile(rb"<form[^>]*method=\"post\"[^>]*>", re.IGNORECASE)
# The post forms of every page (the agency switch and the sign-out) are not its form.
EVERY_PAGE = (b"/agency/switch/", b"/accounts/logout/")
# Pages that are not a person's form: actions posted from another page, sign-in and such.
SKIPPED = {"web:login", "web:logout", "web:agency_switch"}


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogkeeper.config.settings")
    os.environ.setdefault("FOGKEEPER_DEBUG", "false")
    import django

    django.setup()


def _routes() -> dict[str, set[str]]:
    """Every named staff URL ("web:") with the names of its parameters."""
    from django.urls import URLResolver, get_resolver

    names: dict[str, set[str]] = {}

    def walk(patterns, namespace, above):
        for p in patterns:
            params = above | set(p.pattern.regex.groupindex)
            if isinstance(p, URLResolver):
                if (p.namespace or namespace) != "admin":
                    walk(p.url_patterns, p.namespace or namespace, params)
            elif p.name and namespace == "web":
                names.setdefault(f"web:{p.name}", params)

    walk(get_resolver().url_patterns, None, set())
    return names


def _establishment(agency):
    """An establishment with a device, a contract, an employee and a training where the
    program has one: most form pages hang on one."""
    fses = agency.establishments.filter(closed_on__isnull=True)
    for related in ("devices", "contracts", "employees", "trainings"):
        narrowed = fses.filter(**{f"{related}__isnull": False})
        if narrowed.exists():
            fses = narrowed
    return fses.order_by("code").first()


def _first(queryset):
    row = queryset.order_by("pk").first()
    return None if row is None else row.pk


def _parameters(agency, fse) -> dict[str, object]:
    """A value for each URL parameter of a staff page, from the bench agency's records."""
    from fogkeeper.billing.models import Invoice
    from fogkeeper.registry.models import (
        Lateral,
        Operator,
        Parcel,
        PropertyOwner,
        ServiceContract,
        SewerSegment,
    )
    from fogkeeper.training.models import Employee, Training

    hauler = agency.haulers.order_by("pk").first()
    invoice = Invoice.objects.filter(establishment=fse).order_by("pk").first()
    return {
        "code": fse.code,
        "device": _first(fse.devices.all()),
        "contract": _first(ServiceContract.objects.filter(establishment=fse)),
        "employee": _first(Employee.objects.filter(establishment=fse)),
        "training": _first(Training.objects.filter(establishment=fse)),
        "lateral": _first(Lateral.objects.filter(establishment=fse)),
        "invoice": invoice.code if invoice else None,
        "hauler": hauler.code if hauler else None,
        "operator": _first(Operator.objects.filter(agency=agency)),
        "owner": _first(PropertyOwner.objects.filter(agency=agency)),
        "parcel": _first(Parcel.objects.filter(agency=agency)),
        "segment": _first(SewerSegment.objects.filter(agency=agency)),
    }


def _pk_records(agency, fse) -> dict[str, object]:
    """The record of each staff page named by a bare `pk`, where it shows a form."""
    from fogkeeper.incidents.models import Incident
    from fogkeeper.permits.models import Permit

    permit = _first(Permit.objects.filter(establishment__agency=agency))
    incident = _first(Incident.objects.filter(establishment__agency=agency))
    return {
        "web:incident_edit": incident,
        "web:incident_match": incident,
        "web:permit_modify": permit,
        "web:permit_renew": permit,
        "web:permit_revoke": permit,
        "web:permit_suspend": permit,
        "web:permit_renewal_deny": permit,
    }


def _urls(agency) -> tuple[dict[str, str], list[str]]:
    """The URL of each staff page this program can name, and the pages it cannot."""
    from django.urls import reverse

    fse = _establishment(agency)
    values = _parameters(agency, fse)
    pks = _pk_records(agency, fse)
    urls, missing = {}, []
    for name, params in sorted(_routes().items()):
        if name in SKIPPED:
            continue
        kwargs = {p: pks.get(name) if p == "pk" else values.get(p) for p in params}
        if any(v is None for v in kwargs.values()):
            if params <= set(values) | {"pk"} and (params != {"pk"} or name in pks):
                missing.append(name)
            continue
        urls[name] = reverse(name, kwargs=kwargs)
    return urls, missing


def _has_form(body: bytes) -> bool:
    return any(not any(a in f for a in EVERY_PAGE) for f in FORM.findall(body))


def _time(client, url: str, repeat: int) -> tuple[float, int, int] | None:
    """The median milliseconds of `repeat` GETs of `url` after one to warm it, the queries
    and size of one; None when it is not a page with a form."""
    from django.db import connection

    queries = []
    with connection.execute_wrapper(
        lambda execute, sql, *a: queries.append(sql) or execute(sql, *a)
    ):
        response = client.get(url)
    if response.status_code != 200 or response.streaming or not _has_form(response.content):
        return None
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), len(queries), len(response.content)


def _client():
    from django.contrib.auth import get_user_model
    from django.test import Client

    User = get_user_model()
    user = User.objects.filter(username=USERNAME).first() or User.objects.create_superuser(
        USERNAME, "bench@example.invalid", None
    )
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    client.post("/agency/switch/", {"agency": AGENCY, "next": "/"})
    return client


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.forms", description=__doc__)
    parser.add_argument("--establishments", type=int, default=25_000)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5, help="timed GETs of each page")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pack", default="san-clemente")
    parser.add_argument("--slowest", type=int, default=5)
    args = parser.parse_args(argv)

    _setup()
    logging.getLogger("django.request").setLevel(logging.ERROR)  # the 405s of action URLs
    agency = prepare_program("Form benchmark", args, date.today())
    client = _client()
    urls, missing = _urls(agency)
    timed = []
    for name, url in urls.items():
        figures = _time(client, url, args.repeat)
        if figures is not None:
            timed.append((figures[0], name, url, *figures[1:]))
    timed.sort(reverse=True)
    over = sum(1 for row in timed if row[0] > TARGET_MS)
    print(
        f"\n{len(timed)} staff form pages, GET as a superuser, median of {args.repeat} "
        f"(server time in this process, the test client); target {TARGET_MS:.0f} ms: "
        + ("all within" if not over else f"{over} OVER")
    )
    print(f"  {'ms':>7} {'queries':>7} {'KB':>7}   page")
    for ms, name, url, queries, size in timed[: args.slowest]:
        print(f"  {ms:>7.0f} {queries:>7} {size / 1024:>7.0f}   {name} {url}")
    if over > args.slowest:
        rest = [f"{name} {ms:.0f} ms" for ms, name, *_ in timed[args.slowest : over]]
        print(f"  also over the target: {', '.join(rest)}")
    if missing:
        print(f"  not timed (no such record in the program): {', '.join(missing)}")


if __name__ == "__main__":
    main()
