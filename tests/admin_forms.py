"""Posting an admin change page back as the browser would."""

from django.db.models.fields.files import FieldFile


def change_form_data(response) -> dict:
    """What the admin change page would post back unchanged, inlines included."""
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]

    def posted(value) -> bool:  # an empty file field is not posted back
        return value is not None and not (isinstance(value, FieldFile) and not value)

    return {f.html_name: f.value() for form in forms for f in form if posted(f.value())}
