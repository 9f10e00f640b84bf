"""Reads of the operator's and the owner's portals: one establishment as its outside reader may
see it. What goes in is decided by policy.may_read (ACCESS.md's "may read"), section by
section; a section the role may not read is not even queried."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.paginator import Page
from django.db.models import Prefetch

from fogkeeper.billing.models import ZERO, Invoice
from fogkeeper.billing.selectors import invoice_due_on
from fogkeeper.compliance.models import ComplianceStatus, Finding
from fogkeeper.enforcement.models import EnforcementAction, Letter
from fogkeeper.inspections.models import ChecklistAnswer, Inspection, Measurement
from fogkeeper.maintenance.models import Service, YellowGreasePickup
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, GreaseControlDevice
from fogkeeper.rules.calendar import Duration
from fogkeeper.rules.checks import obligations
from fogkeeper.training.models import Attendance, Employee, Training
from fogkeeper.web.common import policy
from fogkeeper.web.common.paging import section
from fogkeeper.web.templatetags.words import pack_title
from fogkeeper.web.vocabulary import action_words

# The sections of an establishment's portal page, as policy.READS names them.
SECTIONS = (
    "permit",
    "status",
    "findings",
    "schedule",
    "devices",
    "services",
    "trainings",
    "inspection_results",
    "letters",
    "invoices",
)

SEVERITIES = {"violation": "Violation", "task": "For the agency", "notice": "Notice"}


def readable_sections(user, agency: Agency) -> set[str]:
    return {s for s in SECTIONS if policy.may_read(user, agency, s)}


def obligation_text(pack, obligation: str, subject: str, names: dict[str, str]) -> str:
    """An obligation of the schedule as its check module says it (Rule.says)."""
    declared = obligations().get(obligation)
    text = declared.says if declared else obligation.replace("_", " ").replace(".", ": ")
    permit = pack.titles.get("permit", "permit")
    return text.format(subject=names.get(subject, subject), permit=permit)


def schedule_rows(
    pack, schedule: list[dict[str, Any]], names: dict[str, str], as_of: date | None = None
) -> list[dict]:
    """The stored schedule in the operator's words: what, when (and whether that was before
    `as_of`), the pack's title of the rule broken if it is missed, and its citation."""
    rows = []
    declared = obligations()
    for item in schedule or []:
        obligation = item.get("obligation", "")
        rule = declared[obligation].id if obligation in declared else ""
        rows.append(
            {
                "due": (due := date.fromisoformat(item["due"])),
                "overdue": as_of is not None and due < as_of,
                "obligation": obligation,
                "subject": item.get("subject", ""),
                "text": obligation_text(pack, obligation, item.get("subject", ""), names),
                "if_missed": pack_title(pack, rule) if rule else "",
                "citation": item.get("citation", ""),
            }
        )
    return sorted(rows, key=lambda r: (r["due"], r["text"]))


def operators_own(obligation: str) -> bool:
    """Whether the operator itself must meet the obligation (the annual inspection is the
    agency's to do): an overdue one is named in reminders and first in "What to do next"."""
    declared = obligations().get(obligation)
    return declared is not None and not declared.agency_does


def overdue_rows(
    pack, schedule: list[dict[str, Any]], names: dict[str, str], fines: dict, as_of: date
) -> list[dict]:
    """The operator's obligations of the schedule already overdue on `as_of`, longest overdue
    first, each as schedule_rows says it with how many days overdue and the fine accrued on
    it to date (`fines`, item_fines), if any."""
    rows = [
        {**row, "days": (as_of - row["due"]).days, "fine": fines.get(_item_rule(row))}
        for row in schedule_rows(pack, schedule, names, as_of)
        if row["overdue"] and operators_own(row["obligation"])
    ]
    return sorted(rows, key=lambda r: (r["due"], r["text"]))


def _item_rule(row: dict) -> tuple[str, str]:
    return obligations()[row["obligation"]].id, row["subject"]


def item_fines(establishment, accruals: list[dict[str, Any]]) -> dict[tuple[str, str], dict]:
    """The engine's daily fines (`accruals`, as Accrual.to_dict gives them) by the violation
    they are for, (rule, subject): an action's own violation, else its case's. A fine of an
    action whose case names no violation is for no one item and is left out."""
    codes = {a["action"] for a in accruals}
    if not codes:
        return {}
    actions = EnforcementAction.objects.filter(establishment=establishment, code__in=codes)
    violations: dict[str, set[tuple[str, str]]] = {}
    for action in actions.select_related("violation").prefetch_related("case__violations"):
        own = [action.violation] if action.violation else list(action.case.violations.all())
        violations[action.code] = {(v.rule, v.subject) for v in own}
    fines: dict[tuple[str, str], dict] = {}
    for accrual in accruals:
        for key in violations.get(accrual["action"], ()):
            _add_fine(fines.setdefault(key, {}), accrual)
    return fines


def _add_fine(fine: dict, accrual: dict) -> None:
    start, through = date.fromisoformat(accrual["from"]), date.fromisoformat(accrual["through"])
    fine["amount"] = fine.get("amount", Decimal(0)) + Decimal(str(accrual["amount"]))
    fine["rate"] = Decimal(str(accrual["rate"]))
    fine["start"] = min(fine.get("start", start), start)
    fine["through"] = max(fine.get("through", through), through)
    fine["citation"] = accrual["citation"]


def subject_names(establishment: FoodServiceEstablishment) -> dict[str, str]:
    """The employees' codes (subjects of training findings and obligations) -> their names."""
    return dict(Employee.objects.filter(establishment=establishment).values_list("code", "name"))


@dataclass
class Overview:
    establishment: FoodServiceEstablishment
    sections: set[str]
    compliance: ComplianceStatus | None = None
    permit: Permit | None = None
    permits: list[Permit] = field(default_factory=list)
    findings: list[dict[str, Any]] = field(default_factory=list)
    schedule: list[dict[str, Any]] = field(default_factory=list)
    devices: list[dict[str, Any]] = field(default_factory=list)
    # the long lists: a page each (`?<name>_page=`), the most recent first (issue 15, item 7)
    services: Page | list[Service] = field(default_factory=list)
    pickups: Page | list[YellowGreasePickup] = field(default_factory=list)
    trainings: Page | list[Training] = field(default_factory=list)
    inspections: Page | list[dict[str, Any]] = field(default_factory=list)
    letters: Page | list[Letter] = field(default_factory=list)
    invoices: Page | list[dict[str, Any]] = field(default_factory=list)


PAGED = ("services", "pickups", "trainings", "inspections", "letters", "invoices")


def overview(
    *,
    establishment: FoodServiceEstablishment,
    sections: set[str],
    as_of: date,
    pages: dict | None = None,
) -> Overview:
    """What the establishment's portal page shows of the `sections` the person may read; each
    long list one page of it (`pages`: the page number asked for each, by name)."""
    fse = establishment
    pages = pages or {}
    pack = fse.agency.get_pack()
    out = Overview(establishment=fse, sections=sections)
    names = subject_names(fse) if {"findings", "schedule"} & sections else {}
    if {"status", "schedule"} & sections:
        out.compliance = ComplianceStatus.objects.filter(establishment=fse).first()
    if "permit" in sections:
        out.permits = list(Permit.objects.filter(establishment=fse).order_by("-issued_on", "-id"))
        out.permit = next((p for p in out.permits if p.status == "active"), None)
    if "findings" in sections:
        out.findings = [
            {
                "finding": f,
                "title": pack_title(pack, f.rule),
                "subject": names.get(f.subject, f.subject),
                "severity": SEVERITIES.get(f.severity, f.severity),
            }
            for f in Finding.objects.filter(establishment=fse, open=True).order_by("since", "rule")
        ]
    if "schedule" in sections and out.compliance is not None:
        out.schedule = schedule_rows(pack, out.compliance.schedule, names, out.compliance.as_of)
    if "devices" in sections:
        out.devices = _devices(fse, pack, as_of, out.permits if "permit" in sections else None)
    if "services" in sections:
        out.services = section(
            Service.objects.filter(device__establishment=fse)
            .select_related("device")
            .order_by("-date", "-pk"),
            pages.get("services"),
        )
        out.pickups = section(
            YellowGreasePickup.objects.filter(establishment=fse)
            .select_related("hauler")
            .order_by("-date", "-pk"),
            pages.get("pickups"),
        )
    if "trainings" in sections:
        attendance = Attendance.objects.select_related("employee").order_by("employee__name")
        out.trainings = section(
            Training.objects.filter(establishment=fse)
            .prefetch_related(Prefetch("attendance", queryset=attendance))
            .order_by("-date", "-pk"),
            pages.get("trainings"),
        )
    if "inspection_results" in sections:
        out.inspections = _inspections(fse, pack, pages.get("inspections"))
    if "letters" in sections:
        out.letters = section(
            Letter.objects.filter(action__establishment=fse)
            .select_related("action")
            .prefetch_related("action__answers")
            .defer("pdf")
            .order_by("-created_at", "-pk"),
            pages.get("letters"),
        )
        for letter in out.letters:
            letter.title = action_words(pack, letter.action.type)
    if "invoices" in sections:
        out.invoices = section(invoices_noticed(fse, as_of), pages.get("invoices"))
        out.invoices.object_list = [invoice_row(i, as_of) for i in out.invoices.object_list]
    return out


def _devices(fse, pack, as_of: date, permits: list[Permit] | None) -> list[dict[str, Any]]:
    """Each device with its service frequency as the engine takes it: the device's own, else
    that of the permit issued last (the case file's, whatever its status), else the pack's
    default for its kind (RULES.md 5). `permits`: the establishment's, newest first, where the
    page read them already."""
    if permits is None:
        permits = list(Permit.objects.filter(establishment=fse).order_by("-issued_on", "-id"))
    permit = next((p for p in permits if p.issued_on <= as_of), None)
    by_permit = permit.service_frequency_days if permit else None
    return [
        {
            "device": d,
            "frequency": None if d.removed_on else _frequency(pack, d, by_permit, as_of),
        }
        for d in GreaseControlDevice.objects.select_related("establishment__agency")
        .filter(establishment=fse)
        .order_by("removed_on", "code")
    ]


def _frequency(pack, device, by_permit: int | None, as_of: date) -> str | None:
    """The device's frequency as text ("90 days", "3 months")."""
    days = device.service_frequency_days or by_permit
    if days:
        return str(Duration(days, "days"))
    default = pack.default_frequency(device.kind, as_of)
    return str(default) if default is not None else None


def _inspections(fse, pack, number=None) -> Page:
    """A page of the inspections, each with its date and outcome: the items found not
    compliant (the pack's questions) and the depths measured. Inspectors' notes stay with
    the agency."""
    answers = ChecklistAnswer.objects.select_related("device").order_by("item", "pk")
    measurements = Measurement.objects.select_related("device").order_by("device__code")
    rows = []
    page = section(
        Inspection.objects.filter(establishment=fse)
        .prefetch_related(
            Prefetch("answers", queryset=answers),
            Prefetch("measurements", queryset=measurements),
        )
        .order_by("-date", "-pk"),
        number,
    )
    for insp in page.object_list:
        checked = list(insp.answers.all())
        failed = [
            {
                "question": pack_title(pack, a.item),
                "citation": pack.checklist[a.item].citation if a.item in pack.checklist else "",
                "device": a.device.code if a.device else "",
            }
            for a in checked
            if not a.compliant
        ]
        rows.append(
            {
                "inspection": insp,
                "checked": len(checked),
                "failed": failed,
                "measurements": list(insp.measurements.all()),
            }
        )
    page.object_list = rows
    return page


def invoices_noticed(fse, as_of: date):
    """The invoices noticed by `as_of`, newest first, with their lines and payments."""
    return (
        Invoice.objects.filter(establishment=fse, noticed_on__lte=as_of)
        .select_related("agency")
        .prefetch_related("lines", "payments")
        .order_by("-noticed_on", "-pk")
    )


def invoice_rows(fse, as_of: date) -> list[dict[str, Any]]:
    """The invoices noticed by `as_of`, newest first: each with its lines, the payments made
    by then, its total, what was paid, its balance and its due date."""
    return [invoice_row(invoice, as_of) for invoice in invoices_noticed(fse, as_of)]


def invoice_row(invoice, as_of: date) -> dict[str, Any]:
    """An invoice with its lines, the payments made by `as_of`, its total, what was paid,
    its balance and its due date."""
    lines = list(invoice.lines.all())
    payments = [p for p in invoice.payments.all() if p.paid_on <= as_of]
    total = sum((line.amount for line in lines), ZERO)
    paid = sum((p.amount for p in payments), ZERO)
    return {
        "invoice": invoice,
        "lines": lines,
        "payments": payments,
        "total": total,
        "paid": paid,
        "balance": max(total - paid, Decimal(0)),
        "due_on": invoice_due_on(invoice),
    }


def employee_roster(*, establishment: FoodServiceEstablishment, as_of: date) -> dict[str, list]:
    """The establishment's employees on `as_of` ("current"), and those who left in the year
    before ("former"), by name."""
    from .forms import RECENT_LEAVERS

    everyone = Employee.objects.filter(establishment=establishment).order_by("name", "code")
    current = [e for e in everyone if e.left_on is None or e.left_on > as_of]
    former = [
        e
        for e in everyone
        if e.left_on is not None and as_of - RECENT_LEAVERS <= e.left_on <= as_of
    ]
    return {"current": current, "former": former}
