"""A JSON value is taken only as the type the API's schema gives it; an HTML form's text is read as before."""

import pytest
from django.http import QueryDict
from rest_framework import serializers

from phm.api_fields import MAX_ID, Choice, Flag, Id, Text, Whole


class Body(serializers.Serializer):
    text = Text(required=False)
    flag = Flag(required=False)
    whole = Whole(required=False)
    points = Choice(choices=[0, 1, 2, 4, 6], required=False)
    kind = Choice(choices=["json", "discord"], required=False)
    ids = serializers.ListField(child=Id(), required=False)


def errors(data):
    body = Body(data=data)
    body.is_valid()
    return set(body.errors)


@pytest.mark.parametrize(
    "data",
    [
        {"text": 0},
        {"text": True},
        {"flag": 0},
        {"flag": "true"},
        {"flag": None},
        {"whole": "5"},
        {"whole": True},
        {"whole": 5.5},
        {"points": "6"},
        {"points": True},
        {"kind": 1},
        {"ids": [0]},
        {"ids": [MAX_ID + 1]},
    ],
)
def test_a_json_value_of_another_type_is_refused_naming_its_field(data):
    assert errors(data) == set(data)


def test_json_values_of_the_schema_s_types_are_taken():
    body = Body(
        data={"text": "Recount", "flag": False, "whole": 6.0, "points": 4.0, "kind": "json", "ids": [1]}
    )
    assert body.is_valid(), body.errors
    assert body.validated_data == {
        "text": "Recount",
        "flag": False,
        "whole": 6,
        "points": 4,
        "kind": "json",
        "ids": [1],
    }


def test_an_html_form_s_text_is_read_as_before():
    body = Body(data=QueryDict("text=0&flag=true&whole=5&points=6&kind=json"))
    assert body.is_valid(), body.errors
    assert body.validated_data == {"text": "0", "flag": True, "whole": 5, "points": 6, "kind": "json"}
