from django import template
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def words(value) -> str:
    """An identifier as words: 'non_compliant' -> 'non compliant'."""
    return str(value or "").replace("_", " ").replace(".", " ")


@register.simple_tag
def options(choices, selected) -> str:
    """<option>s of a select, `selected` chosen: `choices` are values or (value, label) pairs.
    Done in Python: a city has thousands of sewer segments, one template loop each is slow."""
    pairs = [c if isinstance(c, list | tuple) else (c, c) for c in choices]
    return format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((v, mark_safe(" selected") if v == selected else "", label) for v, label in pairs),
    )
