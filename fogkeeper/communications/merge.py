"""Merge fields: the values of each establishment's record that a communication's subject and
body name in braces, `{establishment_name}`. The set is fixed (FIELDS); anything else in
braces is refused, naming it, before anything is sent. The text is filled in by a
`string.Formatter` over a dict of plain strings: no attribute, index, conversion or format
of a value is allowed, so a communication can read nothing but these values."""

from __future__ import annotations

import re
import string
from collections import defaultdict
from datetime import date
from typing import Any

from django.db.models import Q

from fogkeeper.compliance.models import Finding
from fogkeeper.enforcement.letter_filters import longdate
from fogkeeper.formats import STATUS_WORDS
from fogkeeper.permits.models import Permit
from fogkeeper.registry.models import Agency, FoodServiceEstablishment, OperatorTenure

# name -> what it holds, as the form shows it
FIELDS: dict[str, str] = {
    "establishment_name": "the establishment's name",
    "establishment_code": "the agency's code of the establishment",
    "establishment_address": "its street address, city and ZIP code",
    "operator_name": "its operator (the permittee) on the communication's date",
    "agency_name": "the agency's name",
    "permit_number": "the number of its permit in force, or “none”",
    "status": "its compliance status at the last sweep, in words",
    "next_due_date": "the first date its schedule falls due (such as March 3, 2026), or “none”",
    "next_due_what": "what falls due then, in the ordinance's words, or “nothing”",
    "open_findings": "its open findings by title, separated by semicolons, or “none”",
    "open_findings_count": "how many open findings it has",
    "date": "the communication's date (such as March 3, 2026)",
}
EXAMPLE = "{establishment_name}"
# A compliance status in words, as the pages say it (web/templatetags/words.py, a layer above:
# tests/communications/test_merge.py keeps the two alike).
_JINJA_LIKE = re.compile(r"\{\{\s*([A-Za-z_][\w.]*)\s*\}\}")


class _Merge(string.Formatter):
    """Fills `{name}` from a dict of strings, and nothing else."""

    def get_field(self, field_name, args, kwargs):
        return kwargs[field_name], field_name

    def convert_field(self, value, conversion):
        if conversion is not None:
            raise ValueError(f"{{…!{conversion}}}")
        return value

    def format_field(self, value, format_spec):
        if format_spec:
            raise ValueError(f"{{…:{format_spec}}}")
        return str(value)


def problems(text: str, what: str) -> list[str]:
    """What is wrong with the merge fields of `text` (the `what`: "subject", "body"), each in
    words naming the field; none when every field in braces is one of FIELDS."""
    found = []
    for inner in _JINJA_LIKE.findall(text):
        found.append(
            f"The {what} has {{{{ {inner} }}}}: merge fields take single braces, such as "
            f"{EXAMPLE} (write {{{{ and }}}} only for a brace itself)."
        )
    if found:
        return found
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError:
        return [
            f"The {what} has a {{ or }} that opens or closes no merge field: write {{{{ or "
            f"}}}} for a brace itself, and merge fields such as {EXAMPLE}."
        ]
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        shown = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")
        shown += "}"
        if name not in FIELDS:
            found.append(
                f"The {what} names the merge field {shown}, which does not exist. "
                f"The merge fields are: {', '.join(FIELDS)}."
            )
        elif spec or conversion:
            found.append(f"The {what} has {shown}: write the merge field alone, {{{name}}}.")
    return found


def fill(text: str, values: dict[str, str]) -> str:
    """`text` with each merge field replaced by its value (`text` checked by problems())."""
    return _Merge().vformat(text, (), values)


def sample_values(agency: Agency) -> dict[str, str]:
    """Values of the right shape for checking a text before any establishment is read."""
    return {name: name for name in FIELDS} | {"agency_name": agency.name}


# -- the values of each establishment ---------------------------------------------------------


def _address(fse: FoodServiceEstablishment) -> str:
    return ", ".join(p for p in (fse.address, fse.city_line()) if p)


def _operators(ids: list[int], on: date) -> dict[int, Any]:
    tenures = OperatorTenure.objects.filter(
        Q(until__isnull=True) | Q(until__gte=on), establishment_id__in=ids, since__lte=on
    ).select_related("operator")
    return {t.establishment_id: t.operator for t in tenures.order_by("since", "pk")}


def _permits(ids: list[int]) -> dict[int, str]:
    permits = Permit.objects.filter(establishment_id__in=ids, status="active")
    rows = permits.order_by("issued_on", "pk").values_list("establishment_id", "number")
    return dict(rows)  # the latest issued last, so it is the one kept


def _findings(ids: list[int], pack) -> dict[int, list[str]]:
    out: dict[int, list[str]] = defaultdict(list)
    rows = Finding.objects.filter(establishment_id__in=ids, open=True).order_by("since", "rule")
    for est_id, rule in rows.values_list("establishment_id", "rule"):
        words = pack.words_for(rule)
        if words not in out[est_id]:
            out[est_id].append(words)
    return out


def _next_due(fse, pack) -> tuple[str, str]:
    status = getattr(fse, "compliance", None)
    if status is None or status.next_due is None:
        return "none", "nothing"
    due = status.next_due.isoformat()
    items = [i for i in status.schedule or [] if i.get("due") == due]
    what = "; ".join(dict.fromkeys(pack.words_for(i.get("obligation", "")) for i in items))
    return longdate(status.next_due), what or "nothing"


def values_for(agency: Agency, ids: list[int], on: date) -> dict[int, dict[str, Any]]:
    """Each establishment of `ids` with its merge values (FIELDS, as strings) and, apart, the
    email address of its operator on `on` (`_email`), in five queries whatever their number."""
    pack = agency.get_pack()
    fses = FoodServiceEstablishment.objects.filter(agency=agency, pk__in=ids).select_related(
        "compliance"
    )
    operators, permits, findings = _operators(ids, on), _permits(ids), _findings(ids, pack)
    out = {}
    for fse in fses:
        operator = operators.get(fse.pk)
        status = getattr(fse, "compliance", None)
        status_words = STATUS_WORDS.get(status.status, status.status) if status else ""
        next_date, next_what = _next_due(fse, pack)
        titles = findings.get(fse.pk, [])
        out[fse.pk] = {
            "establishment_name": fse.name,
            "establishment_code": fse.code,
            "establishment_address": _address(fse),
            "operator_name": operator.name if operator else "",
            "agency_name": agency.name,
            "permit_number": permits.get(fse.pk, "none"),
            "status": status_words or "not evaluated yet",
            "next_due_date": next_date,
            "next_due_what": next_what,
            "open_findings": "; ".join(titles) or "none",
            "open_findings_count": str(len(titles)),
            "date": longdate(on),
            "_email": (operator.email if operator else "") or "",
            "_fse": fse,
        }
    return out
