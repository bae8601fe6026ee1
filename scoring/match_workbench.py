"""The match page as a workbench: both hands card by card with their text, who starts each of the two games
(rule 2.5), and every result choice phrased so that whoever reads it knows whose points come first.

A player of the match reads the choices from their own side ("You won both games (6-0)"); anyone else — a
player verifying (6.3a), the moderator — reads them with the hands' numbers and names ("01 Tom's “Blue” won
both games — 6-0 to 01"). The values sent stay in the match's a-b order, whoever reads them.
"""

from dataclasses import dataclass

from accounts.names import display_name
from phm.text import quoted
from rounds.catalog.texts import card_texts

from .outcomes import OUTCOMES

# Rule 2.5: each player is the starting player for one game in each match. The site's convention, stated on
# the match page: the lower entry number (hand a) starts game 1, the other hand starts game 2.
FIRST_GAME_STARTER = "a"
STARTING_PLAYER_CONVENTION = (
    "Each player starts one of the two games (rule 2.5). Here the hand with the lower entry number starts "
    "game 1 and the other hand starts game 2."
)

# The five results from one side's point of view: (their points, words when "you" are that side, words for
# a named hand). 2-2 is the same for both sides.
_OWN_WORDS = {
    6: "You won both games",
    4: "You won one, drew one",
    2: "Split: one win each, or two draws",
    1: "You drew one, lost one",
    0: "You lost both games",
}
_NAMED_WORDS = {
    6: "{hand} won both games",
    4: "{hand} won one game and drew the other",
}
SPLIT_WORDS = "Split: one win each, or two draws"


@dataclass
class Side:
    """One hand of the match as the page shows it."""

    key: str  # "a" or "b"
    hand: object
    version: object  # its current version (cards, decisions, a moderator's changes)
    points: int | None
    entries: list  # [(card name, CardText or None)]
    starts_game: int  # 1 or 2
    mine: bool


def hand_label(hand):
    """`01 Tom's “Blue Power”`: the hand's number, its player's forum name and the hand's name."""
    owner = f"{hand.number_label} {display_name(hand.player)}'s"
    return f"{owner} {quoted(hand.name)}" if hand.name else f"{owner} hand"


def sides(match, versions, viewer_id):
    """Both sides, each card with its text: one query for the cards of both hands."""
    hands = (("a", match.hand_a, match.points_a), ("b", match.hand_b, match.points_b))
    cards = {key: (versions[hand.pk].cards if hand.pk in versions else []) for key, hand, _ in hands}
    texts = card_texts([name for names in cards.values() for name in names])
    return [
        Side(
            key=key,
            hand=hand,
            version=versions.get(hand.pk),
            points=points,
            entries=[(name, texts.get(name)) for name in cards[key]],
            starts_game=1 if key == FIRST_GAME_STARTER else 2,
            mine=viewer_id is not None and hand.player_id == viewer_id,
        )
        for key, hand, points in hands
    ]


def _named(points, hand):
    """What a result means for the named side that scored `points` (4 or 6)."""
    return _NAMED_WORDS[points].format(hand=hand_label(hand))


def result_words(match, points_a, points_b):
    """A result in words with the hands named: "01 Tom's “Blue” won both games — 6-0 to 01"."""
    if points_a == points_b == 0:  # a match nobody determined, counted a loss for both at finalization (6.3b)
        return "No result: a loss for both — 0-0"
    if points_a == points_b:
        return f"{SPLIT_WORDS} — {points_a}-{points_b}"
    if points_a > points_b:
        winner, high, low = match.hand_a, points_a, points_b
    else:
        winner, high, low = match.hand_b, points_b, points_a
    return f"{_named(high, winner)} — {high}-{low} to {winner.number_label}"


def own_words(side, points_a, points_b):
    """A result in the words of the player on `side` ("a" or "b"), their points first: "You won one, drew
    one (4-1)"."""
    own, other = (points_a, points_b) if side == "a" else (points_b, points_a)
    return f"{_OWN_WORDS[own]} ({own}-{other})"


def result_choices(match, side):
    """The five results for a form: [{"value": "a-b points", "label"}]. For a player of the match (`side` "a"
    or "b") in their own words, their points first; for anyone else with both hands named."""
    choices = []
    for outcome in OUTCOMES:
        if side in ("a", "b"):
            own, other = outcome.points, outcome.opponent_points
            points_a, points_b = (own, other) if side == "a" else (other, own)
            label = own_words(side, points_a, points_b)
        else:
            points_a, points_b = outcome.points, outcome.opponent_points
            label = result_words(match, points_a, points_b)
        choices.append({"value": f"{points_a}-{points_b}", "label": label, "games": outcome.games})
    return choices
