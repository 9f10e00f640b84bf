"""Plain words for what the pages show: money as $1,234.00, a compliance status, and the
pack's titles of rules, checklist items, obligations, enforcement actions and roles, so
that no identifier of the engine reaches a page."""

from __future__ import annotations

from urllib.parse import urlencode

from django import template
from django.urls import reverse

from fogkeeper.formats import STATUS_WORDS, money
from fogkeeper.rules.packs import Pack

from ..common.dates import as_of_choice, explicit_as_of
from ..models import ROLES

register = template.Library()

ROLE_WORDS = dict(ROLES)


def identifier_words(value) -> str:
    """An identifier as words, for what no pack names: 'service_overdue' -> 'Service overdue'."""
    return str(value or "").replace("_", " ").replace(".", " ").strip().capitalize()


register.filter(money)


@register.filter
def status_word(value) -> str:
    """A compliance status in plain words: 'non_compliant' -> 'Not in compliance'."""
    return STATUS_WORDS.get(str(value or ""), identifier_words(value))


@register.filter
def role_word(value) -> str:
    return ROLE_WORDS.get(str(value or ""), identifier_words(value))


def pack_title(pack: Pack | None, key: str) -> str:
    """The pack's words for `key` (Pack.words_for); else the identifier in words."""
    if pack is not None and key:
        return pack.words_for(key)
    return identifier_words(key)


@register.filter
def titled(value, agency) -> str:
    """`{{ item.obligation|titled:agency }}`: the agency's pack's words for an identifier."""
    return pack_title(agency.get_pack() if agency is not None else None, str(value or ""))


@register.simple_tag(takes_context=True)
def url_as_of(context, name: str, *args, **query) -> str:
    """`{% url_as_of 'web:establishments' rule=v.rule %}`: the URL of `name` with `query`,
    keeping the day the page is shown as of, so that a link within the page shows the
    same day."""
    params = {k: v for k, v in query.items() if v not in (None, "")}
    if day := explicit_as_of(context["request"]):
        params["as_of"] = day
    url = reverse(name, args=args)
    return f"{url}?{urlencode(params)}" if params else url


@register.inclusion_tag("web/_as_of.html", takes_context=True)
def as_of_control(context, day) -> dict:
    """The page's "as of" control: a date (`day`, the one shown), a button, a link back to
    today, and what was wrong with the day asked for, if anything."""
    request = context["request"]
    _, problem = as_of_choice(request)
    keep = [(k, v) for k, v in request.GET.items() if k not in ("as_of", "page", "week_page")]
    return {
        "day": day,
        "problem": problem,
        "keep": keep,
        "path": request.path,
        "today_query": urlencode(keep),
        "elsewhere": bool(request.GET.get("as_of")),
    }
