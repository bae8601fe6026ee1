"""What a card says, for pages that show it beside its name: mana cost, type line and Oracle text, by face.

The catalog keeps a multi-face card's faces joined in one row (`oracle_name` "A // B", `type_line` "T // U",
`mana_cost` "{1}{R} // {W}", `oracle_text` with a `//` line between the faces), so one query over `Card` gives
every face of every card a page shows: `card_texts` resolves the names in memory (`resolve.known_card`, no
query) and reads the rows in one query. A name the catalog does not know (a moderator-accepted card, 3.2a) has
no entry.
"""

from dataclasses import dataclass

from django.urls import reverse

from .resolve import get_index, known_card

FACE_SEPARATOR = " // "
TEXT_FACE_SEPARATOR = "\n//\n"
# Text longer than this is shown folded on compact lists (the round page's hands), whole on the match page.
COMPACT_TEXT_LENGTH = 160


@dataclass(frozen=True, slots=True)
class FaceText:
    name: str
    mana_cost: str
    type_line: str
    text: str


@dataclass(frozen=True, slots=True)
class CardText:
    name: str  # as players write it
    slug: str
    mana_cost: str
    type_line: str
    faces: tuple  # FaceText, front face first; one for a single-faced card
    has_text: bool  # False for cards printed after the full data's cut-off (no Oracle text in the snapshot)
    no_rules_text: bool = False  # a complete record without rules text (a vanilla creature): nothing missing

    @property
    def url(self):
        return reverse("rounds:card-detail", kwargs={"slug": self.slug})

    @property
    def multi_face(self):
        return len(self.faces) > 1

    @property
    def text(self):
        """Every face's text, faces apart by a `//` line (what a compact list shows)."""
        return TEXT_FACE_SEPARATOR.join(face.text for face in self.faces if face.text)

    @property
    def is_long(self):
        return len(self.text) > COMPACT_TEXT_LENGTH


def _parts(value, separator, count):
    parts = value.split(separator) if value else []
    if len(parts) != count:  # a source that gave one value for the whole card: it belongs to the front face
        parts = [value or "", *[""] * (count - 1)] if count > 1 else [value or ""]
    return [part.strip() for part in parts]


def card_text(card):
    """The CardText of a `Card` row (needs name, oracle_name, slug, mana_cost, type_line, oracle_text,
    data_quality)."""
    face_names = card.oracle_name.split(FACE_SEPARATOR) if FACE_SEPARATOR in card.oracle_name else [card.name]
    count = len(face_names)
    faces = tuple(
        FaceText(name, mana_cost, type_line, text)
        for name, mana_cost, type_line, text in zip(
            face_names,
            _parts(card.mana_cost, FACE_SEPARATOR, count),
            _parts(card.type_line, FACE_SEPARATOR, count),
            _parts(card.oracle_text, TEXT_FACE_SEPARATOR, count),
            strict=True,
        )
    )
    return CardText(
        name=card.name,
        slug=card.slug,
        mana_cost=card.mana_cost,
        type_line=card.type_line,
        faces=faces,
        has_text=bool(card.oracle_text),
        no_rules_text=not card.oracle_text and card.data_quality in TEXT_QUALITIES,
    )


TEXT_FIELDS = ("id", "name", "oracle_name", "slug", "mana_cost", "type_line", "oracle_text", "data_quality")
# Records whose Oracle text is complete: an empty text there means the card has none (Savannah Lions).
TEXT_QUALITIES = ("full", "partial+text")


def card_texts(names):
    """{name: CardText} for every name the catalog knows, as the names were given; one query (none when the
    catalog knows none of them)."""
    from rounds.models import Card

    index = get_index()
    ids_by_name = {}
    for name in names:
        if name not in ids_by_name:
            card = known_card(name, index=index)
            ids_by_name[name] = card.id if card is not None else None
    wanted = {card_id for card_id in ids_by_name.values() if card_id is not None}
    if not wanted:
        return {}
    rows = Card.objects.only(*TEXT_FIELDS).in_bulk(wanted)
    texts = {card_id: card_text(row) for card_id, row in rows.items()}
    return {name: texts[card_id] for name, card_id in ids_by_name.items() if card_id in texts}
