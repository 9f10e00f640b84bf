"""The template filters of the pages' words: money as $1,234.00, and the vocabulary's
(fogkeeper/web/vocabulary.py) status, role, unit, pack titles and the names of the records a
finding is about, so that no identifier of the engine reaches a page."""

from __future__ import annotations

from urllib.parse import urlencode

from django import template
from django.urls import reverse

from fogkeeper.formats import money

from ..common.dates import as_of_choice, explicit_as_of
from ..vocabulary import (  # noqa: F401 (the one vocabulary, imported from here by views)
    ROLE_WORDS,
    identifier_words,
    pack_title,
    role_word,
    status_word,
    subject_words,
    unit_word,
)

register = template.Library()

register.filter(money)
register.filter(status_word)
register.filter(role_word)
register.filter(unit_word)


@register.filter
def subject_of(value, establishment) -> str:
    """`{{ f.subject|subject_of:f.establishment }}`: what a finding is about, by name."""
    return subject_words(value, establishment)


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
