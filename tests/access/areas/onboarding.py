"""The onboarding pages (fogkeeper/web/onboarding/): every staff role reads the agency's
onboardings, follows one, downloads the blank files and the program's export; only the
manager ("onboarding") uploads a file, confirms a clean dry run and queues a stalled run
again; the outside roles never see them."""

from __future__ import annotations

from fogkeeper.onboarding.models import Onboarding

TABLE = """
web:onboardings                     GET   ok    ok    ok    ok    404   404   404   own   login
web:onboardings                     POST  ok    403   403   403   404   404   404   own   login
web:onboarding                      GET   ok    ok    ok    ok    404   404   404   404   login
web:onboarding                      POST  405   405   405   405   404   404   404   404   login
web:onboarding_confirm              GET   405   405   405   405   404   404   404   404   login
web:onboarding_confirm              POST  ok    403   403   403   404   404   404   404   login
web:onboarding_requeue              GET   405   405   405   405   404   404   404   404   login
web:onboarding_requeue              POST  ok    403   403   403   404   404   404   404   login
web:onboarding_export               GET   ok    ok    ok    ok    404   404   404   own   login
web:onboarding_export               POST  405   405   405   405   404   404   404   own   login
web:onboarding_blank                GET   ok    ok    ok    ok    404   404   404   own   login
web:onboarding_blank                POST  405   405   405   405   404   404   404   own   login
web:onboarding_settings             GET   405   405   405   405   404   404   404   own   login
web:onboarding_settings             POST  ok    403   403   403   404   404   404   own   login
"""


def _run(side) -> dict:
    """A finished dry run with a problem, of the side's agency (the demo has none)."""
    found, _ = Onboarding.objects.get_or_create(
        agency=side.agency,
        filename="program.xlsx",
        defaults={
            "file": "imports/onboarding/program.xlsx",
            "kind": "establishments",
            "status": Onboarding.COMPLETE,
            "problem_count": 1,
            "problems": [[2, "opened_on", "not a date: '2015-02-30'"]],
        },
    )
    return {"pk": found.pk}


def _blank(side) -> dict:
    return {"kind": "devices", "file_format": "xlsx"}


RECORDS = {
    "web:onboarding": _run,
    "web:onboarding_confirm": _run,
    "web:onboarding_requeue": _run,
    "web:onboarding_blank": _blank,
}
