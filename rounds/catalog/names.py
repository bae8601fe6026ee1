"""Card names the way players type them: normalisation keys and the display name of a card.

Pure functions, no database: the resolver, the loader and the hand-list parser all share them.
"""

import re
import unicodedata

# One translation table does most of the work in C (resolution must cost microseconds):
# - quote-like characters players and forum software produce become a plain apostrophe (or `"`),
# - Æ/æ (which NFKD does not decompose) become Ae/ae, so `Æther Vial` finds `Aether Vial`,
# - punctuation players routinely leave out (`thalia guardian of thraben`) is dropped on both sides,
# - hyphens and dashes separate words (`Lim-Dûl`, `Will-o'-the-Wisp`), so `Lim Dul` matches too.
_QUOTES = {
    "\u2018": "'", "\u2019": "'", "\u201b": "'", "\u2032": "'", "\u00b4": "'", "`": "'", "\u02bc": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\ua789": ":",
    "\u00c6": "Ae", "\u00e6": "ae", "\u0152": "Oe", "\u0153": "oe", "\u00df": "ss",
}  # fmt: skip
_FOLD_TABLE = str.maketrans(_QUOTES)
_KEY_TABLE = str.maketrans(
    {
        **_QUOTES,
        **dict.fromkeys(',.:;!?"()\u00ae\u201c\u201d\u201e\ua789'),
        **dict.fromkeys("-_\u2010\u2011\u2012\u2013\u2014\u2015", " "),
    }
)
# Any run of slashes with optional spacing is the split-card separator (`Wear//Tear` → `wear // tear`),
# applied once spacing is collapsed to single spaces: `\s*/+\s*` on the raw text retries every run of spaces
# that no slash follows from each of its positions, quadratic in the run's length.
_SLASHES = re.compile(r" ?/+ ?")


def _strip_combining(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold_accents(text):
    """`Lim-Dûl's Vault` → `Lim-Dul's Vault`, `Æther Vial` → `Aether Vial`; curly quotes become `'`."""
    text = text.translate(_FOLD_TABLE)
    return text if text.isascii() else _strip_combining(text)


def normalize_name(text):
    """The lookup key of a typed name: accents folded, case folded, quotes unified, spacing and `//` tidied.

    Apostrophes are kept: one the card does not have (`Emrakul the Aeon's Torn`) is a typo, whereas one
    left out (`Mishras Workshop`) is matched through `name_variants` of the catalog side.
    """
    text = text.translate(_KEY_TABLE)
    if not text.isascii():
        text = _strip_combining(text).translate(_KEY_TABLE)
    text = " ".join(text.casefold().split())
    if "/" in text:
        text = " ".join(_SLASHES.sub(" // ", text).split())
    return text


def name_variants(name):
    """Keys under which a catalog name is found: its normal key, and the same without apostrophes."""
    key = normalize_name(name)
    without_apostrophes = " ".join(key.replace("'", "").split())
    if without_apostrophes == key:
        return (key,)
    return (key, without_apostrophes)


SPLIT_LAYOUTS = frozenset({"split", "aftermath"})
FRONT_FACE_LAYOUTS = frozenset(
    {"transform", "modal_dfc", "adventure", "flip", "meld", "battle", "reversible_card", "prototype"}
)
_SPLIT_FACE_TYPES = frozenset({"Instant", "Sorcery"})


def _looks_split(type_line):
    """Guess the layout of a multi-face card the sources gave no layout for (newer sets known by name only).

    Split cards are instants/sorceries on both halves, or Rooms; adventures, omens and double-faced cards are
    written by their front face.
    """
    faces = [part.strip() for part in (type_line or "").split("//")]
    if any("Adventure" in face or "Omen" in face for face in faces):
        return False
    main_types = {face.split("\u2014")[0].strip() for face in faces}
    if main_types <= _SPLIT_FACE_TYPES:
        return True
    return all("Room" in face for face in faces)


def display_name(oracle_name, faces, layout, type_line=""):
    """The name as players write and export it: `A // B` for split and aftermath cards, else the front
    face."""
    if len(faces) < 2:
        return oracle_name
    if layout in SPLIT_LAYOUTS:
        return " // ".join(faces)
    if layout in FRONT_FACE_LAYOUTS:
        return faces[0]
    if not layout and _looks_split(type_line):
        return " // ".join(faces)
    return faces[0]


_SLUG_UNSAFE = re.compile(r"[^a-z0-9]+")


def slug_base(name):
    """URL slug of a display name: `Wear // Tear` → `wear-tear`, `Jötun Grunt` → `jotun-grunt`."""
    ascii_name = fold_accents(name).casefold().replace("'", "")
    return _SLUG_UNSAFE.sub("-", ascii_name).strip("-")[:200] or "card"
