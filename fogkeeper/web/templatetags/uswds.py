"""The U.S. Web Design System's classes for Django's form widgets, used by the form templates
in fogkeeper/web/common/templates/django/forms/ so that every form looks and reads the same."""

from django import template

register = template.Library()

BY_TEMPLATE = {
    "django/forms/widgets/select.html": "usa-select",
    "django/forms/widgets/textarea.html": "usa-textarea",
}
OPTION = "django/forms/widgets/select_option.html"
CHOICE_INPUTS = {"checkbox": "usa-checkbox__input", "radio": "usa-radio__input"}
# File inputs stay plain: USWDS's file-input script rebuilds them into a drop zone.
PLAIN_INPUTS = {"hidden", "file"}


def base_class(widget: dict) -> str:
    """The USWDS class of one rendered widget, '' for those it leaves alone. A radio or a
    checkbox is a USWDS one only where its label follows it (Django's wrapped options, a single
    checkbox field); one a page draws itself (`radio.tag`) keeps its own look."""
    if widget.get("template_name") in BY_TEMPLATE:
        return BY_TEMPLATE[widget["template_name"]]
    kind = widget.get("type")
    if kind is None or kind in PLAIN_INPUTS or widget.get("template_name") == OPTION:
        return ""
    if kind in CHOICE_INPUTS:
        single = widget.get("template_name") == "django/forms/widgets/checkbox.html"
        return CHOICE_INPUTS[kind] if widget.get("wrap_label") or single else ""
    return "usa-input"


@register.simple_tag
def usa_widget_class(widget: dict) -> str:
    """The class attribute of a widget: its USWDS class, the error state when Django marked it
    invalid (aria-invalid), then any class the form gave it."""
    attrs = widget.get("attrs", {})
    classes = [base_class(widget)]
    if classes[0] and classes[0] not in CHOICE_INPUTS.values() and attrs.get("aria-invalid"):
        classes.append("usa-input--error")
    classes.append(attrs.get("class", ""))
    return " ".join(c for c in classes if c)


@register.filter
def is_single_checkbox(field) -> bool:
    """Whether a bound field is one checkbox, drawn as USWDS draws it: the box, then its label."""
    return getattr(field.field.widget, "input_type", None) == "checkbox" and not getattr(
        field.field.widget, "allow_multiple_selected", False
    )


@register.simple_tag
def page_numbers(page, on_each_side: int = 2, on_ends: int = 1) -> list:
    """The page numbers a pager offers around the current page, Django's ellipsis ('…') where
    it skips some: a list of thousands of establishments keeps a short pager."""
    return list(
        page.paginator.get_elided_page_range(
            page.number, on_each_side=on_each_side, on_ends=on_ends
        )
    )
