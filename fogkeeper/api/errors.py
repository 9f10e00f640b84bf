"""The API's refusals say what to send: DRF's own words ("This field is required.", 'Invalid
pk "6" - object does not exist.', '"x" is not a valid choice.') name neither the field nor
what it takes. `plain_errors` gives each field of a serializer words naming the key, what it
holds (its help text) and, for a choice, the values accepted."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from fogkeeper.formats import listed

from .agency import HEADER


def _what(name: str, field) -> str:
    helped = str(field.help_text or "").strip().rstrip(".")
    return f"{name} ({helped})" if helped else name


def _messages(name: str, field) -> dict[str, Any]:
    what = _what(name, field)
    said = {
        "required": f"Send {what}: it is required.",
        "null": f"Send {what}: it may not be null.",
        "blank": f"Send {what}: it may not be empty.",
        "max_length": f"Send {name} of at most {{max_length}} characters.",
    }
    if isinstance(field, serializers.DateField):
        said["invalid"] = f"Send {name} as a date, YYYY-MM-DD (for example 2026-03-02)."
        said["datetime"] = said["invalid"]
    elif isinstance(field, serializers.DecimalField):
        said.update(
            invalid=f'Send {what} as a number in a string, for example "3.50".',
            min_value=f"Send {name} of at least {{min_value}}.",
            max_value=f"Send {name} of at most {{max_value}}.",
            max_digits=f"Send {name} with at most {{max_digits}} digits in all.",
            max_decimal_places=f"Send {name} with at most {{max_decimal_places}} decimals.",
            max_whole_digits=f"Send {name} with at most {{max_whole_digits}} digits before the "
            "point.",
            max_string_length=f"Send {name} as a shorter number.",
        )
    elif isinstance(field, serializers.BooleanField):
        said["invalid"] = f"Send {name} as true or false."
    elif isinstance(field, serializers.ChoiceField):
        accepted = listed([f'"{c}"' for c in field.choices])
        said["invalid_choice"] = f'"{{input}}" is not a {name}: send one of {accepted}.'
    elif isinstance(field, serializers.PrimaryKeyRelatedField):
        said["incorrect_type"] = f"Send {what} as a whole number, not a {{data_type}}."
    elif isinstance(field, serializers.CharField):
        said["invalid"] = f"Send {what} as text."
    return said


def plain_errors(serializer: serializers.Serializer) -> None:
    """Put every field's refusals in words naming it and what it takes (its bound validators
    were made with DRF's words, so theirs are put too)."""
    for name, field in serializer.fields.items():
        said = _messages(name, field)
        defaults = _drf_words(type(field))
        for key, words in said.items():  # a field's own words, where it gives some, stay
            if field.error_messages.get(key, defaults.get(key)) == defaults.get(key):
                field.error_messages[key] = words
            else:
                said[key] = field.error_messages[key]
        validator: Any
        for validator in field.validators:
            limit = _VALIDATORS.get(type(validator).__name__)
            if limit in said:
                validator.message = said[limit].replace("{" + limit + "}", "%(limit_value)s")


def _drf_words(kind: type) -> dict:
    words: dict = {}
    for cls in reversed(kind.__mro__):
        words.update(getattr(cls, "default_error_messages", {}))
    return words


_VALIDATORS = {
    "MinValueValidator": "min_value",
    "MaxValueValidator": "max_value",
    "MaxLengthValidator": "max_length",
    "MinLengthValidator": "min_length",
}


def unknown_record(what: str, agency, *, named: bool, listed_at: str) -> str:
    """An id of no record the person reaches at the agency the call acts for: which agency
    that was and why, and where the ids that are accepted are listed."""
    why = "named in the header" if named else f"you sent no {HEADER} header"
    return (
        f"No {what} {{pk_value}} among yours at {agency.name} (the agency this call acts "
        f"for: {why}). Send the id of one of them, as {listed_at} lists them, and name the "
        f"agency in the {HEADER} header (its code, {agency.code}, or another of yours)."
    )
