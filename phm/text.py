"""Hostile text: which characters no field may carry, how names are cleaned, how user text enters BBCode.

Used by the input guard (phm.input_guard: every form field, query parameter and API field), by the services
that store names, and by every forum export.
"""

import re
import unicodedata

# Refused in every field, form or API: the C0 control characters except tab, newline and carriage return
# (long texts keep their lines), DEL, the C1 controls, and lone surrogates (only a JSON `\ud800` escape can
# produce one; neither PostgreSQL nor UTF-8 can store it). PostgreSQL refuses NUL in any text ("A string
# literal cannot contain NUL"), and the others are terminal escapes, bells and garbage in every export.
FORBIDDEN_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")

_CONTROL_NAMES = {"\x00": "NUL", "\x07": "BEL", "\x08": "BS", "\x1b": "ESC", "\x7f": "DEL"}


def forbidden_character(text):
    """The first character of `text` that no field accepts, or None."""
    found = FORBIDDEN_CHARACTERS.search(text)
    return found.group() if found else None


def describe_character(char):
    """ "U+0000 NUL": how a refused character is named in an error message."""
    name = _CONTROL_NAMES.get(char) or unicodedata.name(char, "control character")
    return f"U+{ord(char):04X} {name}"


def invalid_characters_message(field, char):
    where = f"The field “{field}”" if field else "The request"
    return (
        f"{where} contains a control character ({describe_character(char)}), which is not allowed here. "
        "Remove it and try again."
    )


def clean_name(text):
    """A name as it is stored and shown: hand names, forum names, league and round titles.

    Drops the invisible characters that let a name pretend to be another or reorder the text around it:
    Unicode "format" characters (right-to-left and other bidi overrides and isolates, zero-width spaces and
    joiners, the byte-order mark, soft hyphens, tag characters) and any control character; then collapses
    every run of whitespace (line breaks included) to one space.
    """
    kept = "".join(
        char
        for char in str(text or "")
        if unicodedata.category(char) not in ("Cf", "Cc", "Cs") or char in "\t\n\r"
    )
    return " ".join(kept.split())


# BBCode. Forums (phpBB, MyBB, vBulletin, SMF…) recognise a tag only as an ASCII `[` followed by a tag
# name and closed by an ASCII `]`; none has an escape that all of them honour ([noparse] is not in phpBB,
# HTML entities are shown literally). So user text never carries an ASCII bracket into an export: `[` and
# `]` become the fullwidth brackets U+FF3B and U+FF3D. They read as brackets, survive copy and paste, and no
# BBCode parser takes them for tag delimiters, so `[/code]`, `[url=…]` or `[img]` typed into a name can
# neither open nor close a tag. The markup the exports generate around the text keeps the ASCII brackets.
_BBCODE_LOOK_ALIKES = str.maketrans({"[": "\uff3b", "]": "\uff3d"})


def bbcode_text(value):
    """User-provided text made inert for a BBCode export (see above)."""
    return str(value if value is not None else "").translate(_BBCODE_LOOK_ALIKES)


def display_width(text):
    """Columns `text` takes in a monospace block: wide (CJK, fullwidth) characters take two, combining marks
    none; keeps the [code] tables of the exports aligned."""
    width = 0
    for char in text:
        if unicodedata.combining(char):
            continue
        width += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return width


# A title in quotation marks. A name may carry its own quotes ("Burn", or Tom's “Burn”): the enclosing pair
# is dropped (the page adds its own), and quotes inside become single quotes, as quotes within quotes are
# written, so a name never shows doubled double quotes (“Tom’s “Burn””).
_ENCLOSING_QUOTES = {'"': '"', "“": "”", "„": "“", "'": "'", "‘": "’", "«": "»"}
_INNER_DOUBLE_QUOTE = re.compile(r'"([^"]*)"|“([^“”]*)”|„([^„“]*)“')


def strip_enclosing_quotes(text):
    """`"Burn"` → `Burn`: a name without the one pair of quotation marks that wraps all of it."""
    text = str(text or "").strip()
    if len(text) >= 2 and _ENCLOSING_QUOTES.get(text[0]) == text[-1]:
        return text[1:-1].strip()
    return text


def quoted(text):
    """ `Tom's "Burn"` → `“Tom's ‘Burn’”`: a name between curly double quotes, its own double quotes made
    single; "" for no name."""
    inner = strip_enclosing_quotes(text)
    if not inner:
        return ""
    inner = _INNER_DOUBLE_QUOTE.sub(_single_quoted, inner)
    return f"“{inner}”"


def _single_quoted(found):
    return f"‘{next(group for group in found.groups() if group is not None)}’"
