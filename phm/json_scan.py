"""Scans of a JSON body for the input guard (phm.input_guard), each linear in the size of the body whatever it
holds: how deep it nests (before it is decoded), and whether a string of it may hold a refused character
(after). Every pass is done in C (`bytes.count`, `bytes.replace`, `bytes.translate`, a regular expression
that cannot backtrack) or by numpy over fixed-size chunks; none is a Python loop per byte.

The depth, on the UTF-8 bytes of the body:

1. Escapes. Inside a JSON string a backslash escapes the next character. In a run of backslashes they pair
   up from the run's start (`\\\\` is one escaped backslash) and an odd one out escapes the character after
   the run, so removing every pair of backslashes, then every backslash-quote, leaves exactly the quotes
   that open or close strings. (Outside strings a backslash is not JSON: the decoder refuses the body.)
2. Only quotes and brackets matter: everything else is deleted in one `translate`.
3. A quote toggles "inside a string", and brackets inside strings do not count. The depth is the running
   sum of +1 per opening and -1 per closing bracket outside strings: numpy computes the toggles and the
   running sum of a chunk at once, and the first chunk that goes past the limit ends the measure.

A body with no more opening brackets than the limit (every hand, report and form the API takes) is known
to be shallow after step 0, one `count` of each kind of bracket.
"""

import re

import numpy as np

from .text import FORBIDDEN_CHARACTERS, forbidden_character

# Deeper JSON than any endpoint takes (a hand is an object holding a list: depth 2).
MAX_JSON_DEPTH = 32

_QUOTE = ord('"')
_STRUCTURE = b'"[]{}'
_NOT_STRUCTURE = bytes(code for code in range(256) if code not in _STRUCTURE)
_STEP = np.zeros(256, dtype=np.int8)
_STEP[[ord("["), ord("{")]] = 1
_STEP[[ord("]"), ord("}")]] = -1
# Bytes of structure measured at once: bounds the memory of the measure (about 12 bytes per byte of it).
CHUNK = 1 << 16


def structure_of(raw):
    """The quotes that open or close strings and every bracket of the JSON text `raw` (steps 1 and 2)."""
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    return unescaped.translate(None, _NOT_STRUCTURE)


def json_too_deep(raw, limit=MAX_JSON_DEPTH):
    """Whether the JSON text `raw` (UTF-8 bytes) nests arrays and objects deeper than `limit`, found without
    decoding it (so without recursing): brackets inside strings do not count, nor those of a string left
    open at the end (the decoder refuses that text without nesting into it)."""
    raw = bytes(raw)
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return False
    return _deeper_than(np.frombuffer(structure_of(raw), dtype=np.uint8), limit)


def _deeper_than(codes, limit):
    depth, in_string = 0, False
    for start in range(0, len(codes), CHUNK):
        chunk = codes[start : start + CHUNK]
        inside = np.logical_xor.accumulate(chunk == _QUOTE)  # True from an opening quote to its closing one
        if in_string:
            np.logical_not(inside, out=inside)
        steps = _STEP[chunk]
        steps[inside] = 0
        levels = np.cumsum(steps, dtype=np.int64)
        if depth + int(levels.max()) > limit:
            return True
        depth += int(levels[-1])
        in_string = bool(inside[-1])
    return False


# Refused characters --------------------------------------------------------------------------------------

# The escapes that decode to a refused character (phm.text.FORBIDDEN_CHARACTERS): \b, \f, \u of a C0 control
# other than tab, line feed and carriage return, of DEL or a C1 control, and of a surrogate that is not half
# of a pair (a high one not followed by a low one, a low one not preceded by a high one). Searched once the
# escaped backslashes are blanked out, so that every backslash left starts an escape. Every alternative
# starts with a backslash and has a fixed width, look-arounds included: the search cannot backtrack.
_REFUSED_ESCAPE = re.compile(
    r"\\(?:[bf]|u(?:000[0-8bBcCeEfF]|001[0-9a-fA-F]|007[fF]|00[89][0-9a-fA-F]"
    r"|[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2}\\u)[dD][c-fC-F]))"
)


def may_hold_refused(text):
    """Whether the JSON text `text` (str, as decoded) may hold a string with a refused character: false
    means that none of its strings does, so its decoded data need not be walked. A refused character is
    in the text as it is (the decoder keeps DEL and C1 controls in strings; it refuses raw C0 controls,
    and ASCII has no C1 control) or as an escape."""
    if ("\x7f" in text) if text.isascii() else FORBIDDEN_CHARACTERS.search(text):
        return True
    return "\\" in text and _REFUSED_ESCAPE.search(text.replace("\\\\", "..")) is not None


_CONTAINERS = (dict, list)


def bad_value(data):
    """(field path, character) of the first string (key or value) in decoded JSON that holds a refused
    character, or None. Iterative and a level at a time: the strings of a whole level of the data are
    searched at once (one joined text), and only a level with a refused character is looked at string by
    string to name the field."""
    if isinstance(data, str):
        char = forbidden_character(data)
        return ("", char) if char else None
    level = [((), data)] if isinstance(data, _CONTAINERS) else []
    while level:
        keys = "".join(key for _path, value in level if type(value) is dict for key in value)
        strings = "".join(item for _path, value in level for _key, item in _items(value) if type(item) is str)
        if forbidden_character(keys) or forbidden_character(strings):
            return _first_refused(level)
        level = [
            ((*path, key), item)
            for path, value in level
            for key, item in _items(value)
            if item and type(item) in _CONTAINERS
        ]
    return None


def _items(value):
    return value.items() if type(value) is dict else enumerate(value)


def _first_refused(level):
    for path, value in level:
        for key, item in _items(value):
            for text in (key, item) if type(value) is dict else (item,):
                char = forbidden_character(text) if type(text) is str else None
                if char:
                    return field_path((*path, key)), char
    return None  # not reached: the level holds one


def field_path(keys):
    """`cards[3]`, `decisions.colour`: a field as error messages name it."""
    spelled = ""
    for key in keys:
        spelled += f"[{key}]" if type(key) is int else (f".{key}" if spelled else key)
    return spelled
