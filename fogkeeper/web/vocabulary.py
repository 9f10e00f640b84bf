"""The one place that turns what the engine and the database call things into the words a
person reads: a rule, checklist item, obligation or action by the pack's title, a status,
a role, a unit, and the record a finding is about by its name (an employee by name, a
training by its date), so that no identifier reaches a page. The template filters of
templatetags/words.py and the forms' labels all come here."""

from __future__ import annotations

import re

from fogkeeper.formats import STATUS_WORDS, UNITS, unit_words
from fogkeeper.rules.packs import Pack
from fogkeeper.submittals.selectors import report_subject_words
from fogkeeper.training.models import Employee, Training

from .models import ROLES

ROLE_WORDS = dict(ROLES)
# The levels an action is taken or issued at, named by the pack's titles (Pack.level_title).
LEVELS = {"manager", "council", "court", "hearing_officer", "hearing_body", "appeal_body"}
# Keys the packs' texts use in passing, in words.
KEY_WORDS = {"as_of": "the day the report is made"}


def plain_words(value) -> str:
    """An identifier as lower-case words, for a phrase: 'hearing_concluded_on' -> 'hearing
    concluded on'."""
    return str(value or "").replace("_", " ").replace(".", " ").strip()


def identifier_words(value) -> str:
    """An identifier as words, for what no pack names: 'service_overdue' -> 'Service overdue'."""
    return plain_words(value).capitalize()


def action_words(pack: Pack | None, action_type: str) -> str:
    """An enforcement action's type by the pack's title; a step of the app's own (a hearing,
    an appeal) in words."""
    spec = pack.actions.get(action_type) if pack is not None else None
    return spec.title if spec is not None else identifier_words(action_type)


def rule_words(pack: Pack | None, rule: str) -> str:
    """A rule by the pack's title; one the pack does not name by its last part in words
    ('enforcement.penalty_accrual' -> 'Penalty accrual')."""
    if pack is not None and rule in pack.rules:
        return pack.rules[rule].title
    return identifier_words(str(rule).rsplit(".", 1)[-1])


def status_word(value) -> str:
    """A compliance status in plain words: 'non_compliant' -> 'Not in compliance'."""
    return STATUS_WORDS.get(str(value or ""), identifier_words(value))


def role_word(value) -> str:
    """A membership's role as the agency names it: 'clerk' -> 'Clerk or hearing officer'."""
    return ROLE_WORDS.get(str(value or ""), identifier_words(value))


def unit_word(value) -> str:
    """A unit a quantity is counted in: 'violation_days' -> 'violation days'."""
    unit = str(value or "")
    return unit_words(unit) if unit in UNITS else identifier_words(value).lower()


def pack_title(pack: Pack | None, key: str) -> str:
    """The pack's words for `key` (Pack.words_for); else the identifier in words."""
    if pack is not None and key:
        return pack.words_for(key)
    return identifier_words(key)


SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
DOTTED = re.compile(r"\b[a-z_]+\.[a-z_]+\b")
SPEC_FILE = re.compile(r"\b(?:RULES|CASEFILE|ACCESS|PRODUCT)\.md\b")
SPEC_ASIDE = re.compile(r"\s*\((?:RULES|CASEFILE|ACCESS|PRODUCT)\.md[^)]*\)")


def value_words(pack: Pack | None, value: str) -> str:
    """A value the pack keeps as a key, in its words: an establishment category or device
    kind by its title, a rule, item, obligation or action by the pack's, a unit in words,
    anything else the identifier in words ('new_or_changed' -> 'new or changed')."""
    if pack is not None and value in pack.categories:
        return pack.category_title(value)
    if pack is not None and value in pack.device_kinds:
        return pack.kind_title(value)
    if pack is not None and any(
        value in keys for keys in (pack.rules, pack.checklist, pack.obligations, pack.actions)
    ):
        return pack.words_for(value)
    if value in UNITS:
        return unit_words(value)
    return KEY_WORDS.get(value) or value.replace("_", " ")


def text_words(pack: Pack | None, text: str) -> str:
    """A text of the pack (a reference, a description, a value) with each identifier in it in
    the pack's words: a rule id by its title in quotes, a key by its words."""
    text = DOTTED.sub(lambda m: f"“{pack_title(pack, m.group())}”", str(text))
    return SNAKE.sub(lambda m: value_words(pack, m.group()), text)


def reference_words(pack: Pack | None, text: str) -> str:
    """A reference as the ordinance's sections alone: the project's own spec files a pack
    cites beside them (`13.30.030(K); RULES.md 11.11`) mean nothing to the city's staff."""
    text = SPEC_ASIDE.sub("", str(text or ""))
    parts = [p.strip() for p in text.split(";")]
    return text_words(pack, "; ".join(p for p in parts if p and not SPEC_FILE.search(p)))


def choice_words(pack: Pack | None, value) -> str:
    """A choice an action's field holds, in the pack's words: a level by its officer's or
    body's title ('manager' -> 'Utilities Manager'), any other key by its words."""
    value = str(value or "")
    if pack is not None and (value in pack.titles or value in LEVELS):
        return pack.level_title(value)
    return value_words(pack, value)


def subject_names(establishment) -> dict[str, str]:
    """The establishment's records a finding can be about, by the code the engine knows them
    by: its employees by name and its trainings by their date. Kept on the establishment
    object, so that a page of its findings asks once."""
    names = getattr(establishment, "_subject_names", None)
    if names is None:
        names = {establishment.code: establishment.name}
        for code, name in Employee.objects.filter(establishment=establishment).values_list(
            "code", "name"
        ):
            names[code] = name
        for code, day in Training.objects.filter(establishment=establishment).values_list(
            "code", "date"
        ):
            names[code] = f"the training of {day:%Y-%m-%d}"
        establishment._subject_names = names
    return names


def name_subjects(rows) -> list:
    """Give the establishments of a page of findings (or violations) their records' names in
    two queries, however many establishments the page holds; returns the rows."""
    rows = list(rows)
    by_id = {r.establishment_id: r.establishment for r in rows}
    for fse in by_id.values():
        fse._subject_names = {fse.code: fse.name}
    for fse_id, code, name in Employee.objects.filter(establishment_id__in=by_id).values_list(
        "establishment_id", "code", "name"
    ):
        by_id[fse_id]._subject_names[code] = name
    for fse_id, code, day in Training.objects.filter(establishment_id__in=by_id).values_list(
        "establishment_id", "code", "date"
    ):
        by_id[fse_id]._subject_names[code] = f"the training of {day:%Y-%m-%d}"
    for r in rows:  # one object for each establishment, so that each row finds the names
        r.establishment = by_id[r.establishment_id]
    return rows


def subject_words(subject, establishment) -> str:
    """What a finding or violation is about, as a person knows it: an employee by name, a
    training by its date; a device keeps its code, which is on its tag."""
    subject = str(subject or "")
    if establishment is None or not subject:
        return subject
    if (report := report_subject_words(subject)) is not None:
        return report
    return subject_names(establishment).get(subject, subject)


def violation_words(pack: Pack | None, violation, *, citation: bool = True) -> str:
    """A case's violation in a choice: 'V-1: BMP refresher training overdue (Kim Lopez),
    13.30.050(H)(3)(a)'."""
    about = subject_words(violation.subject, violation.case.establishment)
    words = f"{violation.code}: {pack_title(pack, violation.rule)} ({about})"
    return f"{words}, {violation.citation}" if citation and violation.citation else words


def finding_words(pack: Pack | None, finding, establishment) -> str:
    """An open finding of `establishment` in a choice: its rule's title, what it is about,
    since when and its citation."""
    about = subject_words(finding.subject, establishment)
    return f"{pack_title(pack, finding.rule)}: {about}, since {finding.since} ({finding.citation})"
