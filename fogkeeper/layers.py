"""The layers of fogkeeper, lowest first: a module imports only from its own layer or a lower
one, and no two modules import each other, directly or round a circle
(scripts/check-imports, run by tests/test_layers.py).

A package of a layer is named by its folder under fogkeeper/; a module at the top of the
package (jobs.py) by its name. Each package of the application is in exactly one layer.

An import cannot go up a layer, but two ways up remain, each listed below and checked
against the source by scripts/check_imports.py: a function provided at start-up and called by
name (UPCALLS, fogkeeper/upcalls.py), and a task queued by its name (TASKS, fogkeeper/queue).
No function of a higher layer is passed down as an argument (the `progress` callbacks are
passed by a package's own commands and runs); the re-evaluation after a write, once done by
the pages for the services below them, is asked for by the services themselves
(fogkeeper/reevaluation.py).
"""

from __future__ import annotations

LAYERS: tuple[tuple[str, ...], ...] = (
    # what every part may use: the package itself, the background jobs' and the locks'
    # models, work queued by task name, uploads, planner statistics, the audit trail, the
    # request guards, what a lower layer asks of a higher one by name and the re-evaluation
    # a write asks for on commit
    (
        "fogkeeper",
        "layers",
        "queue",
        "formats",
        "safeload",
        "jobs",
        "locks",
        "uploads",
        "statistics",
        "audit",
        "security",
        "upcalls",
        "reevaluation",
    ),
    # the engine: packs, case files, the checks
    ("rules", "cli"),
    # the records of the program
    ("registry", "maintenance", "training", "inspections", "incidents", "sewers"),
    # what the ordinance has staff do about them
    ("permits", "enforcement", "billing", "filings", "submittals"),
    # case files from the records, the sweep and generated programs
    ("compliance",),
    # the demo programs, built through the services and the case files below them
    ("demo",),
    # what the program reports, and the work done on many records at once
    ("reporting", "onboarding", "communications"),
    # the pages, the portal and the API
    ("web", "portal", "api"),
    # settings, URL roots, the task runner's app
    ("config", "celery"),
)

# name -> (the package that provides it in its AppConfig.ready, the packages that call it)
UPCALLS: dict[str, tuple[str, tuple[str, ...]]] = {
    "reevaluate": ("compliance", ("reevaluation",)),
    "findings_of": ("compliance", ("enforcement",)),
    "report_of": ("compliance", ("billing",)),
    "demo_people": ("web", ("demo",)),
}

# task name -> (the package that defines it, the packages that queue it by name)
TASKS: dict[str, tuple[str, tuple[str, ...]]] = {
    "fogkeeper.compliance.reevaluate": ("compliance", ("queue",)),
    "fogkeeper.sweep.batch": ("compliance", ("compliance",)),
    "fogkeeper.sweep.finish": ("compliance", ("compliance",)),
    "fogkeeper.sweep.start": ("compliance", ()),
    "fogkeeper.sweep.resume": ("compliance", ("compliance",)),
    "fogkeeper.sweep.nightly": ("compliance", ("compliance",)),
    "fogkeeper.schedule.tick": ("compliance", ("config",)),
    "fogkeeper.enforcement.bulk_notice": ("compliance", ("web",)),
    "fogkeeper.reminders.agency": ("portal", ("compliance",)),
    "fogkeeper.communications.send": ("communications", ("communications",)),
    "fogkeeper.billing.annual_fees": ("billing", ()),
    "fogkeeper.billing.annual_fee_run": ("billing", ("billing",)),
    "fogkeeper.inspections.thumbnail": ("inspections", ("inspections",)),
    "fogkeeper.inspections.receipt": ("inspections", ("inspections",)),
    "fogkeeper.incidents.import": ("incidents", ("incidents",)),
    "fogkeeper.onboarding.run": ("onboarding", ("onboarding",)),
}
