from django import template

register = template.Library()


@register.filter
def words(value) -> str:
    """An identifier as words: 'non_compliant' -> 'non compliant'."""
    return str(value or "").replace("_", " ").replace(".", " ")
