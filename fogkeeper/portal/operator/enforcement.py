"""What the operator is told of the enforcement against one of its establishments: each action
sent to it (one with a letter) in the pack's words, with its correct-by date, the fine the
engine finds accruing, hearings, decisions, appeal deadlines and the operator's answers; its
invoices and what it owes; and what it should do next, what is already overdue first.

Every date and amount comes from the engine (`establishment_report`) and from billing; none
is computed here. Staff-only records (inspections' internals, the audit, who on the staff
took an action) are not read."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.db.models import Prefetch
from django.utils import timezone

from fogkeeper.billing.selectors import (
    RenewalBlock,
    account_balance,
    business_licence_renewal_blocked,
    delinquent_invoices,
)
from fogkeeper.compliance.selectors import DayWord, day_word
from fogkeeper.enforcement.models import APPEAL, HEARING, EnforcementAction, Letter, NoticeAnswer
from fogkeeper.enforcement.selectors import establishment_answers_by_action
from fogkeeper.registry.models import FoodServiceEstablishment
from fogkeeper.rules.errors import CaseFileError
from fogkeeper.rules.packs import Pack
from fogkeeper.rules.report import Accrual, Deadline
from fogkeeper.web.vocabulary import action_words, choice_words, identifier_words

from .selectors import invoice_rows, item_fines, overdue_rows, subject_names

# How a field of an action is said to the operator; any other is its name in words.
FIELD_WORDS = {
    "delivered_on": "Delivered",
    "mailed_on": "Mailed",
    "served_on": "Served",
    "issued_on": "Issued",
    "issued_by": "Issued by",
    "noticed_on": "Dated",
    "final_on": "Final on",
    "correct_by": "Correct by",
    "corrected_on": "Corrected on",
    "hearing_on": "Hearing",
    "continued_to": "Hearing continued to",
    "hearing_concluded_on": "Hearing concluded",
    "amount": "Penalty",
    "class": "Class of penalty",
    "paid_on": "Paid on",
    "appealed_on": "Appealed on",
    "appeal_decided_on": "Appeal decided on",
    "corrective_action": "What to correct",
}
# The fields said apart from the list of facts (correction, hearing, texts).
SAID_APART = {
    "correct_by",
    "corrected_on",
    "hearing_on",
    "continued_to",
    "hearing_concluded_on",
    "hearing_place",
    "hearing_time",
    "milestones",
}


@dataclass
class SentAction:
    action: EnforcementAction
    title: str
    about: str
    letters: list[Letter]
    facts: list[tuple[str, str]]
    texts: list[tuple[str, str]]
    correct_by: date | None = None
    corrected_on: date | None = None
    overdue: bool = False
    fine: Accrual | None = None
    hearing: dict[str, Any] | None = None
    deadlines: list[dict[str, Any]] = field(default_factory=list)
    appeals: list[dict[str, Any]] = field(default_factory=list)
    answers: list[NoticeAnswer] = field(default_factory=list)


@dataclass
class EnforcementPage:
    establishment: FoodServiceEstablishment
    as_of: date
    actions: list[SentAction] = field(default_factory=list)
    overdue: list[dict[str, Any]] = field(default_factory=list)
    next_steps: list[dict[str, Any]] = field(default_factory=list)
    invoices: list[dict[str, Any]] = field(default_factory=list)
    balance: Decimal = Decimal(0)
    delinquent: list = field(default_factory=list)
    licence_block: RenewalBlock = field(default_factory=lambda: RenewalBlock(False))
    problem: bool = False


def enforcement_page(
    *, establishment: FoodServiceEstablishment, as_of: date, letters: bool, invoices: bool
) -> EnforcementPage:
    """The page of `establishment` on `as_of`: its actions when the operator may read its
    letters, its invoices and balance when it may read its invoices (policy.READS)."""
    fse = establishment
    page = EnforcementPage(establishment=fse, as_of=as_of)
    if letters:
        word, page.problem = _engine(fse, as_of)
        if word is not None:
            page.actions = sent_actions(fse, word.deadlines, word.accruals, as_of)
            page.overdue = _overdue(fse, word, as_of)
    if invoices:
        page.invoices = invoice_rows(fse, as_of)
        page.balance = account_balance(fse, as_of)
        page.delinquent = delinquent_invoices(fse, as_of)
        page.licence_block = business_licence_renewal_blocked(fse, as_of)
    page.next_steps = next_steps(fse.agency.get_pack(), page)
    return page


def _engine(fse, as_of: date) -> tuple[DayWord | None, bool]:
    """The engine's word on `as_of`; none, and a problem, if the records of the establishment
    do not make a valid case file (the agency has to correct them)."""
    try:
        return day_word(fse, as_of), False
    except CaseFileError:
        return None, True


def _overdue(fse, word: DayWord, as_of: date) -> list[dict[str, Any]]:
    """The operator's obligations overdue on `as_of`, each with the fine accrued on it, as
    the reminders name them (portal.reminders)."""
    fines = item_fines(fse, [a.to_dict() for a in word.accruals])
    return overdue_rows(fse.agency.get_pack(), word.schedule, subject_names(fse), fines, as_of)


def sent_actions(
    fse, deadlines: list[Deadline], accruals: list[Accrual], as_of: date
) -> list[SentAction]:
    """The actions sent to `fse` (those with a letter), newest first, each with what the
    engine says of it, the operator's appeals of it and its answers."""
    pack = fse.agency.get_pack()
    actions = list(
        EnforcementAction.objects.filter(establishment=fse, letters__isnull=False)
        .distinct()
        .select_related("refers_to")
        .prefetch_related("facts", Prefetch("letters", queryset=Letter.objects.defer("pdf")))
        .order_by("-taken_on", "-pk")
    )
    appeals = list(
        EnforcementAction.objects.filter(establishment=fse, type=APPEAL).order_by("taken_on", "pk")
    )
    answers = establishment_answers_by_action(fse)
    fines = {a.action: a for a in accruals}
    return [
        _sent(pack, a, deadlines, fines.get(a.code), appeals, answers.get(a.pk, []), as_of)
        for a in actions
    ]


def _sent(pack, action, deadlines, fine, appeals, answers, as_of: date) -> SentAction:
    """One action as the operator reads it: its effective fields in words (the texts of its
    letter apart), its correction, fine, hearing, deadlines, appeals and answers."""
    spec = pack.actions.get(action.type)
    fields = action.effective_fields(list(action.facts.all()))
    kinds = {n: f.kind for n, f in spec.fields.items()} if spec else {}
    apart = SAID_APART | ({spec.date_field} if spec else set())
    about = action.refers_to
    correct_by = _date(fields.get("correct_by"))
    corrected_on = _date(fields.get("corrected_on"))
    return SentAction(
        action=action,
        title=action_title(pack, action),
        about=f"{action_title(pack, about)} {about.code}" if about else "",
        letters=list(action.letters.all()),
        facts=[
            (FIELD_WORDS.get(n, identifier_words(n)), _shown(pack, v, kinds.get(n, "")))
            for n, v in fields.items()
            if n not in apart and kinds.get(n) != "text" and v not in (None, "", [])
        ],
        texts=[
            (FIELD_WORDS.get(n, identifier_words(n)), v)
            for n, v in fields.items()
            if kinds.get(n) == "text" and v
        ],
        correct_by=correct_by,
        corrected_on=corrected_on,
        overdue=correct_by is not None and corrected_on is None and correct_by < as_of,
        fine=fine,
        hearing=_hearing(pack, action, fields),
        deadlines=[
            deadline_row(pack, spec, d, as_of) for d in deadlines if d.action == action.code
        ],
        appeals=[
            {
                "level": a.level,
                "to": pack.level_title(a.level),
                "filed_on": _date(a.fields.get("filed_on")),
            }
            for a in appeals
            if a.refers_to_id == action.pk
        ],
        answers=answers,
    )


def action_title(pack: Pack, action: EnforcementAction) -> str:
    """The pack's title of the action; an app-level step in words ("Notice of hearing")."""
    if action.type == HEARING:
        return "Notice of hearing"
    return action_words(pack, action.type)


def _hearing(pack, action, fields) -> dict[str, Any] | None:
    """When and where a hearing is held: the hearing's own fields, or those on its notice."""
    on = _date(fields.get("continued_to") or fields.get("hearing_on"))
    if on is None:
        return None
    notice = action.refers_to if action.type == HEARING else action
    concluded = notice.effective_fields().get("hearing_concluded_on") if notice else None
    return {
        "on": on,
        "time": fields.get("hearing_time", ""),
        "place": fields.get("place") or fields.get("hearing_place", ""),
        "before": pack.level_title(action.level) if action.level else "",
        "concluded_on": _date(concluded),
    }


def deadline_row(pack: Pack, spec, deadline: Deadline, as_of: date) -> dict[str, Any]:
    """A deadline the engine gives an action, said to the operator: an appeal route as "You
    may appeal to the City Council by …", the others in plain words."""
    to = spec.appeal_routes().get(deadline.name) if spec else None
    day = _date(deadline.date)
    return {
        "text": _deadline_text(pack, deadline, to),
        "date": _when(deadline.date),
        "day": day,
        "passed": day is not None and day < as_of,
        "appeal_to": to,
        "citation": deadline.citation,
    }


def _deadline_text(pack: Pack, deadline: Deadline, to: str | None) -> str:
    if to == "court":
        return "You may petition the court for review by"
    if to is not None:
        return f"You may appeal to the {pack.level_title(to)} by"
    words = {
        ("hearing", "earliest"): "The hearing is not held before",
        ("hearing", "deadline"): "The hearing is to be held by",
        ("decision", "deadline"): "The written decision is due by",
        ("final", "event"): "The order becomes final on",
        ("payment", "deadline"): "Pay the penalty by",
        ("lien_eligible", "event"): "If unpaid, the penalty may become a lien on the property on",
    }
    return words.get((deadline.name, deadline.kind), f"{identifier_words(deadline.name)}:")


def next_steps(pack: Pack, page: EnforcementPage) -> list[dict[str, Any]]:
    """What the operator should do: first what is already overdue, longest overdue first;
    then, soonest first, correct what a notice asks, attend a hearing, appeal while it may,
    pay what it owes."""
    overdue = [_overdue_step(pack, row) for row in page.overdue]
    steps = []
    for sent in page.actions:
        steps += _action_steps(sent, page.as_of)
    for row in page.invoices:
        if row["balance"] > 0:
            due = row["due_on"]
            steps.append(
                {
                    "day": due or page.as_of,
                    "text": (
                        f"Pay ${row['balance']:,.2f} still owed on invoice {row['invoice'].code}"
                        + (f" by {due.isoformat()}" if due and due >= page.as_of else "")
                        + (" (past due)" if due and due < page.as_of else "")
                        + "."
                    ),
                    "citation": "",
                }
            )
    unique = {(s["day"], s["text"]): s for s in steps}
    return overdue + sorted(unique.values(), key=lambda s: s["day"])


def _overdue_step(pack: Pack, row: dict[str, Any]) -> dict[str, Any]:
    """An overdue obligation: what, due when, how many days overdue, the fine to date."""
    days = row["days"]
    text = (
        f"{row['text']}: due by {row['due'].isoformat()}, "
        f"{days} day{'' if days == 1 else 's'} overdue."
    )
    fine = row["fine"]
    if fine:
        text += (
            f" A fine of ${fine['amount']:,.2f} has accrued on it to date "
            f"(${fine['rate']:,.2f} a day from {fine['start'].isoformat()} through "
            f"{fine['through'].isoformat()}, {fine['citation']})."
        )
    section = pack.titles.get("code", "§")
    return {
        "day": row["due"],
        "text": text,
        "citation": f"{section} {row['citation']}" if row["citation"] else "",
        "overdue": True,
    }


def _action_steps(sent: SentAction, as_of: date) -> list[dict[str, Any]]:
    code = sent.action.code
    steps = []
    if sent.correct_by is not None and sent.corrected_on is None:
        late = sent.correct_by < as_of
        text = f"Correct the violation of {sent.title} {code}" + (
            f": it was due by {sent.correct_by.isoformat()}"
            if late
            else f" by {sent.correct_by.isoformat()}"
        )
        if sent.fine is not None:
            text += f"; a fine of ${sent.fine.rate:,.2f} a day accrues until it is corrected"
        steps.append({"day": sent.correct_by, "text": text + ".", "citation": sent.action.cites})
    hearing = sent.hearing
    if hearing and hearing["on"] >= as_of and hearing["concluded_on"] is None:
        at = f" at {hearing['time']}" if hearing["time"] else ""
        where = f", {hearing['place']}" if hearing["place"] else ""
        steps.append(
            {
                "day": hearing["on"],
                "text": f"Attend the hearing on {hearing['on'].isoformat()}{at}{where}.",
                "citation": sent.action.cites,
            }
        )
    appealed = {a["level"] for a in sent.appeals}
    for d in sent.deadlines:
        if d["appeal_to"] and not d["passed"] and d["appeal_to"] not in appealed:
            steps.append(
                {
                    "day": d["day"],
                    "text": f"{d['text']} {d['date']} if you disagree with {sent.title} {code}.",
                    "citation": d["citation"],
                }
            )
    return steps


def _date(value: Any) -> date | None:
    if value in (None, ""):
        return None
    if isinstance(value, datetime):
        return timezone.localtime(value).date() if timezone.is_aware(value) else value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def _when(value: date | datetime) -> str:
    """A date as YYYY-MM-DD; a date-time adds its hour in the agency's time zone."""
    if isinstance(value, datetime):
        local = timezone.localtime(value) if timezone.is_aware(value) else value
        return local.strftime("%Y-%m-%d %H:%M")
    return value.isoformat()


def _shown(pack: Pack, value: Any, kind: str) -> str:
    if kind == "money":
        return f"${Decimal(str(value)):,.2f}"
    if kind in ("date", "planned_date"):
        return str(value)[:10]
    if kind == "datetime":
        return _when(datetime.fromisoformat(str(value)))
    if kind.startswith("choice"):
        return choice_words(pack, value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return identifier_words(str(value)) if kind == "penalty_class" else str(value)
