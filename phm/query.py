"""Query parameters of the API read strictly: a value the schema does not allow is a 400 naming it."""

from rest_framework.exceptions import ValidationError

TRUE, FALSE = ("true", "1"), ("false", "0")


def flag_parameter(request, name: str) -> bool:
    """A boolean query parameter: `true`/`1` or `false`/`0` (any case); absent is false. Anything else, or the
    parameter given twice with different values, is a 400 — a filter a client misspelled is never ignored."""
    values = {value.strip().lower() for value in request.query_params.getlist(name)}
    meanings = {value in TRUE for value in values}
    if not values <= {*TRUE, *FALSE} or len(meanings) > 1:
        raise ValidationError({name: ["Send true or false."]})
    return meanings == {True}


def whole_number_parameter(request, name: str, *, default: int, lowest: int, highest: int) -> int:
    """A whole-number query parameter from `lowest` to `highest`, in ASCII digits only (Python's int() would
    also take ` 5`, `+5`, `5_0` and other scripts' digits); absent or empty is `default`."""
    raw = request.query_params.get(name, "")
    if raw == "":
        return default
    digits = raw.isascii() and raw.isdigit() and len(raw) <= len(str(highest))
    if not (digits and lowest <= int(raw) <= highest):
        raise ValidationError({name: [f"A whole number from {lowest} to {highest}."]})
    return int(raw)
