"""The layers of fogkeeper, lowest first: a module imports only from its own layer or a lower
one, and no two modules import each other, directly or round a circle
(scripts/check-imports, run by tests/test_layers.py).

A package of a layer is named by its folder under fogkeeper/; a module at the top of the
package (jobs.py) by its name. Each package of the application is in exactly one layer.
"""

from __future__ import annotations

LAYERS: tuple[tuple[str, ...], ...] = (
    # what every part may use: the package itself, the background jobs' and the locks'
    # models, work queued by task name, uploads, planner statistics, the audit trail, the
    # request guards and the signals by which a lower layer asks a higher one
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
        "signals",
    ),
    # the engine: packs, case files, the checks
    ("rules", "cli"),
    # the records of the program
    ("registry", "maintenance", "training", "inspections", "incidents", "sewers"),
    # what the ordinance has staff do about them
    ("permits", "enforcement", "billing"),
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
