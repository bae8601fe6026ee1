"""Card names the way players type them: normalisation keys and the display name of a card.

Pure functions, no database: the resolver, the loader and the hand-list parser all share them.
"""

import re
import unicodedata

# Quote-like characters players (and forum software) produce instead of a plain apostrophe.
_APOSTROPHES = str.maketrans(
    {
        "\u2018": "'",  # left single quotation mark
        "\u2019": "'",  # right single quotation mark (the usual "curly" apostrophe)
        "\u201b": "'",
        "\u2032": "'",  # prime
        "\u00b4": "'",  # acute accent used as an apostrophe
        "`": "'",
        "\u02bc": "'",  # modifier letter apostrophe
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\ua789": ":",  # modifier letter colon, used in a few Un-card names
        "\u00c6": "Ae",  # Æ does not decompose under NFKD, so fold it by hand (Æther → Aether)
        "\u00e6": "ae",
        "\u0152": "Oe",
        "\u0153": "oe",
        "\u00df": "ss",
    }
)
# Punctuation players routinely leave out (`thalia guardian of thraben`) — dropped from both sides of a lookup.
_DROPPED_PUNCTUATION = re.compile(r"[,.:;!?\"()\u00ae]")
# Hyphens and dashes separate words (`Lim-Dûl`, `Will-o'-the-Wisp`): a space, so `Lim Dul` matches too.
_WORD_SEPARATORS = re.compile(r"[-\u2010-\u2015_]")
# Any run of slashes with optional spacing is the split-card separator (`Wear//Tear`, `Wear / Tear` → `wear // tear`).
_SLASHES = re.compile(r"\s*/+\s*")
_SPACES = re.compile(r"\s+")


def fold_accents(text):
    """`Lim-Dûl's Vault` → `Lim-Dul's Vault`, `Æther Vial` → `Aether Vial`; curly quotes become `'`."""
    text = text.translate(_APOSTROPHES)
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def normalize_name(text):
    """The lookup key of a typed name: accents folded, case folded, quotes unified, spacing and `//` tidied.

    Apostrophes are kept: a player who adds one the card does not have (`Emrakul the Aeon's Torn`) made a typo,
    whereas one who leaves it out (`Mishras Workshop`) is matched through `name_variants` of the catalog side.
    """
    text = fold_accents(text).casefold()
    text = _DROPPED_PUNCTUATION.sub("", text)
    text = _WORD_SEPARATORS.sub(" ", text)
    text = _SLASHES.sub(" // ", text)
    return _SPACES.sub(" ", text).strip()


def name_variants(name):
    """Keys under which a catalog name is found: its normal key, and the same without apostrophes."""
    key = normalize_name(name)
    without_apostrophes = _SPACES.sub(" ", key.replace("'", "")).strip()
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
    """The name as players write and export it: `A // B` for split and aftermath cards, else the front face."""
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
