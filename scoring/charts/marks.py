"""What tells the series apart: colour classes (the palette is the site's style sheet,
static/css/phm.css), dash patterns and marker shapes; and the sizes and inks of the text."""

from django.utils.html import format_html

from .scale import _c

# phm.css gives each class its colour: the site's violet first, then hues told apart by the common
# colour-vision deficiencies (never by colour alone: see DASHES and MARKERS), each at least 4.5:1 on white.
SERIES_CLASSES = tuple(f"phm-series-{number}" for number in range(1, 9))
CURRENT = "currentColor"
DASHES = ("", "7 4", "2 3", "9 3 2 3", "4 2", "1 5", "12 4", "5 2 1 2")
MARKERS = ("circle", "square", "triangle", "diamond", "down", "cross", "circle-open", "square-open")
MARKER_WORDS = {
    "circle": "circles",
    "square": "squares",
    "triangle": "triangles",
    "diamond": "diamonds",
    "down": "downward triangles",
    "cross": "crosses",
    "circle-open": "open circles",
    "square-open": "open squares",
}

FONT = 14  # px in viewBox units; a 480-unit chart keeps about 10.5 px text on a 390 px phone
CHAR = 0.6 * FONT  # average character width, to size label columns
GRID = "#d9d6e8"
INK = "#212529"
MUTED = "#495057"
WRITE_VALUES_UP_TO = 3  # series: beyond this the numbers move to a visible table instead of the picture


def _series_class(number):
    return SERIES_CLASSES[number % len(SERIES_CLASSES)]


def _marker(shape, x, y, tooltip=""):
    """One point marker (r about 4.5) in the series' colour (currentColor), with an optional hover title."""
    colour = CURRENT
    title = format_html("<title>{}</title>", tooltip) if tooltip else ""
    r = 4.5
    fill, stroke = colour, "#ffffff"
    if shape.endswith("-open"):
        fill, stroke = "#ffffff", colour
        shape = shape[: -len("-open")]
    common = format_html('fill="{}" stroke="{}" stroke-width="1.5"', fill, stroke)
    if shape == "circle":
        body = format_html('<circle cx="{}" cy="{}" r="{}" {}>', _c(x), _c(y), r, common)
        return format_html("{}{}</circle>", body, title)
    if shape == "square":
        body = format_html(
            '<rect x="{}" y="{}" width="{}" height="{}" {}>', _c(x - r), _c(y - r), 2 * r, 2 * r, common
        )
        return format_html("{}{}</rect>", body, title)
    if shape == "cross":
        left, right, up, down = _c(x - r), _c(x + r), _c(y - r), _c(y + r)
        d = f"M{left} {up}L{right} {down}M{left} {down}L{right} {up}"
        return format_html(
            '<path d="{}" stroke="{}" stroke-width="2.5" fill="none">{}</path>', d, colour, title
        )
    if shape == "triangle":
        points = [(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)]
    elif shape == "down":
        points = [(x, y + r + 1), (x + r + 1, y - r), (x - r - 1, y - r)]
    else:  # diamond
        points = [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]
    text = " ".join(f"{_c(px)},{_c(py)}" for px, py in points)
    return format_html('<polygon points="{}" {}>{}</polygon>', text, common, title)
