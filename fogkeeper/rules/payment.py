"""How an agency's invoices are paid, from its pack.yaml `billing`: the days a bill gives to
pay where the ordinance sets no payment deadline of its own, and the payment instructions a
bill and the operator's portal print (payee, address, phone, an online link). The engine never
reads it; `packs check` refuses a wrong value."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ..safeload import Refused, load_yaml

if TYPE_CHECKING:
    from .packmodel import Pack

DEFAULT_TERM_DAYS = 30  # a month to pay: the usual municipal bill
MAX_TERM_DAYS = 366  # a year, leap or not: a longer term is a typing slip
TEXT_KEYS = ("payee", "address", "phone", "online")


@dataclass(frozen=True, slots=True)
class PaymentTerms:
    term_days: int = DEFAULT_TERM_DAYS
    payee: str = ""  # empty: the agency's name
    address: str = ""  # empty: the agency's letterhead
    phone: str = ""
    online: str = ""  # an https:// link where the bill may be paid, if the agency has one


def payment_problems(data: Any) -> list[tuple[str, str]]:
    """What is wrong with a `billing` value, as (key under billing, message); empty if right."""
    if not isinstance(data, dict):
        return [("", "expected {payment_term_days, payee, address, phone, online}")]
    known = ("payment_term_days", *TEXT_KEYS)
    problems = [(k, f"unknown key (expected {', '.join(known)})") for k in data if k not in known]
    days = data.get("payment_term_days")
    if days is not None and (
        isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= MAX_TERM_DAYS
    ):
        problems.append(("payment_term_days", f"expected whole days from 1 to {MAX_TERM_DAYS}"))
    for key in TEXT_KEYS:
        if data.get(key) is not None and not isinstance(data[key], str):
            problems.append((key, "expected text"))
    online = data.get("online")
    if isinstance(online, str) and online and not online.startswith("https://"):
        problems.append(("online", "expected a link starting https://"))
    return problems


def payment_terms(pack: Pack) -> PaymentTerms:
    """The pack's payment terms; the defaults where its pack.yaml gives none (or one that
    `packs check` refuses)."""
    return _terms(str(pack.source))


@lru_cache(maxsize=32)
def _terms(source: str) -> PaymentTerms:
    try:
        meta = load_yaml((Path(source) / "pack.yaml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, Refused, yaml.YAMLError):
        return PaymentTerms()
    data = meta.get("billing") if isinstance(meta, dict) else None
    if data is None or payment_problems(data):
        return PaymentTerms()
    texts = {k: str(data.get(k) or "").strip() for k in TEXT_KEYS}
    return PaymentTerms(term_days=data.get("payment_term_days", DEFAULT_TERM_DAYS), **texts)
