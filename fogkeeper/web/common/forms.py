"""Form parts every area's pages share: date and date-time inputs, photos checked before
anything is decoded, the choice of an observation not made, and a service's ValidationError
put back on the fields it names; a text input with suggested values."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat

from fogkeeper.inspections.photos import photo_problem


class DateInput(forms.DateInput):
    input_type = "date"


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"


class PhotosInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class PhotosField(forms.ImageField):
    """Several photos, each checked to be an image no larger than a photo may be (its bytes,
    and its pixels as its header declares them, before anything is decoded); none is fine.
    An inspection's photos are capped together too, in number and in bytes, before any is
    opened: each photo within its limit, a request could still store hundreds of megabytes."""

    def __init__(self, **kwargs):
        attrs = {"accept": "image/*", "capture": "environment"}
        kwargs.setdefault("widget", PhotosInput(attrs=attrs))
        super().__init__(required=False, **kwargs)

    def to_python(self, data):
        if data:
            problem = photo_problem(data)
            if problem:
                raise ValidationError(problem, code="too_large")
        return super().to_python(data)

    def clean(self, data, initial=None):
        files = [d for d in data if d] if isinstance(data, list | tuple) else [data] if data else []
        _check_together(files)
        single = super().clean
        return [single(d, initial) for d in files]


def _check_together(files) -> None:
    most = settings.FOGKEEPER_INSPECTION_MAX_PHOTOS
    if len(files) > most:
        raise ValidationError(
            f"{len(files)} photos came with it; an inspection keeps at most {most}. Keep the "
            f"{most} that show most, and send it again.",
            code="too_many",
        )
    total, largest = sum(f.size or 0 for f in files), settings.FOGKEEPER_INSPECTION_MAX_PHOTO_BYTES
    if total > largest:
        raise ValidationError(
            f"The photos are {filesizeformat(total)} together; an inspection's photos may be at "
            f"most {filesizeformat(largest)}. Take them at a lower resolution, or keep fewer, "
            "and send it again.",
            code="too_large",
        )


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's field `name`, a choice field whose choices the form sets per request
    (django-stubs types `form.fields` as plain Fields)."""
    return cast(forms.ChoiceField, form.fields[name])


def model_choice_field(form: forms.BaseForm, name: str) -> forms.ModelChoiceField[Any]:
    """The form's field `name`, a model choice field whose queryset the form sets per request."""
    return cast("forms.ModelChoiceField[Any]", form.fields[name])


def put_errors(
    form: forms.BaseForm, error: ValidationError, fields: dict[str, str] | None = None
) -> None:
    """Put a service's ValidationError on the form's fields (`fields` maps a service's key to
    a form field where their names differ); what matches no field is a form error."""
    fields = fields or {}
    messages: dict[Any, Any] = (
        error.message_dict if hasattr(error, "error_dict") else {None: error.messages}
    )
    for key, texts in messages.items():
        name = fields.get(key, key)
        form.add_error(name if name in form.fields else None, texts)


YES_NO_UNKNOWN = [("", "Not observed"), ("true", "Yes"), ("false", "No")]


class Suggestions(forms.TextInput):
    """A text input with a <datalist> of suggested values: one picks one or types another."""

    template_name = "web/widgets/suggestions.html"

    def __init__(self, options: Iterable[tuple[str, str]] = (), attrs=None):
        super().__init__(attrs)
        self.options = list(options)

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        if self.options and context["widget"]["attrs"].get("id"):
            context["widget"]["attrs"]["list"] = f"{context['widget']['attrs']['id']}-options"
        context["widget"]["options"] = self.options
        return context
