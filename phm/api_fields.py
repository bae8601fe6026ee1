"""Serializer fields that take a JSON value only as the type the schema gives it.

DRF's fields coerce: CharField turns a number into its text (`{"reason": 0}` becomes `"0"`), BooleanField
takes `0`, `"yes"` and `"on"`, IntegerField takes `"5"` and `true`, ChoiceField `"6"` for 6 and `true`
for 1. A request the schema calls wrong would be taken; `Text`, `Flag`, `Whole` and `Choice` refuse it with
400 like any bad field. A body sent as an HTML form
holds only text, so there the text forms are still read as DRF reads them.

`Id` is a row's id: a whole number the database can hold (a larger one would end in an overflow, not a
400)."""

from django.db import models
from django.http import QueryDict
from rest_framework import serializers


def _from_form(field) -> bool:
    """Whether the body being read came as an HTML form (every value text) rather than as JSON."""
    return isinstance(getattr(field.root, "initial_data", None), QueryDict)


class Text(serializers.CharField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class Flag(serializers.BooleanField):
    def to_internal_value(self, data):
        if not isinstance(data, bool) and not _from_form(self):
            self.fail("invalid", input=data)
        return super().to_internal_value(data)


class Whole(serializers.IntegerField):
    """A JSON number without a fraction (`6` or `6.0`, as JSON Schema's integer), never text or a boolean."""

    def to_internal_value(self, data):
        if not _number(data) and not _from_form(self):
            self.fail("invalid")
        return super().to_internal_value(data)


# The largest id a 64-bit primary key (DEFAULT_AUTO_FIELD = BigAutoField) holds.
MAX_ID = 2**63 - 1


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class Choice(serializers.ChoiceField):
    """One of the choices as JSON has it: a number for a number (`6` or `6.0`), a text for a text."""

    def to_internal_value(self, data):
        if not _from_form(self):
            if _number(data) and float(data).is_integer():
                data = int(data)
            same = any(type(data) is type(choice) and data == choice for choice in self.choices)
            if not same and not (data == "" and self.allow_blank):
                self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class Id(Whole):
    def __init__(self, **kwargs):
        super().__init__(min_value=1, max_value=MAX_ID, **kwargs)


class StrictModelSerializer(serializers.ModelSerializer):
    """A ModelSerializer whose text, boolean and integer model fields are read by the fields above."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.CharField: Text,
        models.TextField: Text,
        models.BooleanField: Flag,
        models.IntegerField: Whole,
        models.SmallIntegerField: Whole,
        models.BigIntegerField: Whole,
        models.PositiveIntegerField: Whole,
        models.PositiveSmallIntegerField: Whole,
        models.PositiveBigIntegerField: Whole,
    }
