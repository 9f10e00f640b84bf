"""The layers of fogkeeper, lowest first: a module imports only from its own layer or a lower
one, and no two modules import each other, directly or round a circle
(scripts/check-imports, run by tests/test_layers.py).

A package of a layer is named by its folder under fogkeeper/; a module at the top of the
package (jobs.py) by its name. Each package of the application is in exactly one layer.
"""

from __future__ import annotations

LAYERS: tuple[tuple[str, ...], ...] = (
    # what every part may use: the package itself, the background jobs' and the locks'
    # models, work queued by task name, uploads, planner statistics, the audit trail and the
    # request guards
    (
        "fogkeeper",
        "layers",
        "queue",
        "formats",
        "jobs",
        "locks",
        "uploads",
        "statistics",
        "audit",
        "security",
    ),
    # the engine: packs, case files, the checks
    ("rules", "cli"),
    # the records of the program
    ("registry", "maintenance", "training", "inspections", "incidents", "sewers"),
    # what the ordinance has staff do about them
    ("permits", "enforcement", "billing"),
    # case files from the records, the sweep, the demo and generated programs
    ("compliance",),
    # what the program reports, and the work done on many records at once
    ("reporting", "onboarding", "communications"),
    # the pages, the portal and the API
    ("web", "portal", "api"),
    # settings, URL roots, the task runner's app
    ("config", "celery"),
)

# Imports that break the layers or close a circle today, each to be removed (issue 29):
# (importer, imported) as dotted module names. The check fails on any import that breaks
# the layers and is not listed here, and on a listed one that no longer exists.
KNOWN: frozenset[tuple[str, str]] = frozenset(
    {
        ("fogkeeper.audit.admin", "fogkeeper.registry.admin"),
        ("fogkeeper.audit.selectors", "fogkeeper.registry.models"),
        ("fogkeeper.audit.templatetags.audit_trail", "fogkeeper.web.policy"),
        ("fogkeeper.billing.selectors", "fogkeeper.compliance.reports"),
        ("fogkeeper.compliance.demo_people", "fogkeeper.web.models"),
        ("fogkeeper.compliance.demo_spills", "fogkeeper.reporting.spills"),
        ("fogkeeper.enforcement.bulk", "fogkeeper.compliance.models"),
        ("fogkeeper.enforcement.letters", "fogkeeper.compliance.models"),
        ("fogkeeper.enforcement.letters", "fogkeeper.compliance.reports"),
        ("fogkeeper.enforcement.letters", "fogkeeper.web.policy"),
        ("fogkeeper.incidents.ciwqs", "fogkeeper.reporting.pack"),
        ("fogkeeper.incidents.ciwqs", "fogkeeper.reporting.spills"),
        ("fogkeeper.incidents.selectors", "fogkeeper.compliance.models"),
        ("fogkeeper.incidents.selectors", "fogkeeper.reporting.spills"),
        ("fogkeeper.incidents.services", "fogkeeper.compliance.resweep"),
        ("fogkeeper.incidents.services", "fogkeeper.reporting.spills"),
        ("fogkeeper.inspections.selectors", "fogkeeper.permits.models"),
        (
            "fogkeeper.permits.management.commands.apply_permit_modifications",
            "fogkeeper.compliance.resweep",
        ),
        ("fogkeeper.registry.selectors", "fogkeeper.permits.models"),
        ("fogkeeper.registry.services", "fogkeeper.permits.models"),
    }
)
