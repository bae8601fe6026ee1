"""Numbers as the charts write them, and the round scales of their axes."""

import math
from numbers import Real


def _number(value):
    """A value as a chart writes it: 450, 12.5, 3.3 (one decimal at most)."""
    if value is None:
        return ""
    rounded = round(float(value), 1)
    return str(int(rounded)) if rounded.is_integer() else f"{rounded:.1f}"


def _is_value(value):
    return isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)


def nice_scale(maximum, ticks=5):
    """(top, step): an axis from 0 to a round `top` at least `maximum`, in `ticks` (or one more) round steps;
    whole steps for whole maxima (2.5 only from 25 up)."""
    if maximum is None or maximum <= 0:
        return ticks, 1
    magnitude = 10 ** math.floor(math.log10(maximum / ticks))
    for factor in (1, 2, 2.5, 5, 10):
        step = factor * magnitude
        if factor == 2.5 and magnitude < 10:
            continue
        if math.ceil(maximum / step - 1e-9) <= ticks + 1:
            break
    if maximum >= 1:
        step = max(step, 1)
    top = math.ceil(maximum / step - 1e-9) * step
    if float(top).is_integer():
        top, step = int(top), (int(step) if float(step).is_integer() else step)
    return top, step


def _ticks(top, step):
    count = round(top / step)
    return [step * index for index in range(count + 1)]


def _truncate(text, limit):
    text = str(text)
    return text if len(text) <= limit else text[: max(limit - 1, 1)] + "\u2026"


def _c(value):
    """A coordinate, short."""
    return f"{value:.1f}".rstrip("0").rstrip(".")
