"""Rule 3.2a for catalog cards: which card a moderator may accept as "treated as though it's legal in
Vintage", and why another may not.

"An unreleased card is treated as though it's legal in Vintage if it will become legal in Vintage upon
release": only a card not yet released when the round opened (all its printings dated later, or a card the
catalog had not yet learnt of then and now has as legal in Vintage) can be. A card already released and still
not legal in Vintage will never become legal by its release, and some never can: a digital-only card is never
legal in paper, a silver-bordered or acorn card (the Un-sets and their promotions) and the oversized or
challenge cards (schemes, planes, vanguards, heroes), tokens and emblems are never legal in a tournament. Each
refusal says which.

The catalog (cards.json: `paper`, `sets` with their release dates, `type_line`) carries no border or security
stamp: those come from the sets every printing of the card belongs to.
"""

from datetime import date, datetime

from django.utils import timezone
from django.utils.formats import date_format

from .catalog import history
from .models import Card, Legality, Printing, Round

# Sets whose cards are silver-bordered or acorn-stamped (or, like the playtest cards of Mystery Booster, say
# "not legal in tournaments" on their face): a card printed only in these is never tournament-legal.
NEVER_TOURNAMENT_LEGAL_SETS = frozenset(
    {
        "UGL", "UNH", "UST", "UND", "UNF", "SUNF", "PUGL", "PUNH", "PUST", "ULST", "HHO", "PCEL", "CMB1",
        "CMB2", "PTG", "H17", "J17", "PAL04", "HTR16", "HTR17", "HTR18", "HTR19", "HTR20", "PHTR", "PH17",
        "PH18", "PH19", "PH20", "PH21", "PH22", "PH23",
    }
)  # fmt: skip
# Digital-only sets the catalog marks as printed on paper (Jumpstart: Historic Horizons, the Alchemy sets…).
DIGITAL_ONLY_SETS = frozenset({"J21", "HBG", "AKR", "KLR", "ANA", "ANB", "PANA", "YMID", "YNEO", "YSNC"})
# Card types of the oversized and challenge-deck cards, tokens and emblems: never part of a constructed deck.
NOT_DECK_CARD_TYPES = ("Scheme", "Plane", "Phenomenon", "Vanguard", "Hero", "Dungeon", "Token", "Emblem")


def _day(moment: datetime | None) -> date:
    return timezone.localdate(moment) if moment is not None else timezone.localdate()


def acceptance_problem(card: Card, round_: Round | None) -> str | None:
    """Why `card` cannot be accepted for `round_` under rule 3.2a, or None when it can. Judged as the round
    judges its hands (rule 2.1a): against the catalog at its opening (or last re-sync), today for a draft."""
    moment = history.legality_moment(round_) if round_ is not None else None
    then = history.legality_at(card, "vintage", moment)
    if then in (Legality.LEGAL, Legality.RESTRICTED):
        return f"{card.name} is already legal in Vintage; there is nothing to accept."
    if then == Legality.BANNED:
        return (
            f"{card.name} is banned in Vintage: only a card not yet legal in Vintage can be accepted (3.2a)."
        )
    now = card.legality("vintage")
    if now in (Legality.LEGAL, Legality.RESTRICTED):
        return None  # the catalog lacked it, or had it as unreleased, when the round opened
    if now == Legality.BANNED:
        return f"{card.name} is banned in Vintage (rule 3.2): accepting a card never lifts a Vintage ban."
    printings = list(
        Printing.objects.filter(card=card).values_list("card_set__code", "card_set__release_date")
    )
    codes = {code for code, _ in printings}
    never = _never_legal(card, codes)
    if never:
        return never
    released = [day for _, day in printings if day is not None]
    if card.first_printed is not None:
        released.append(card.first_printed)
    if not released:
        return (
            f"{card.name} has no release date in the card catalog, so it cannot be shown to be unreleased: "
            "rule 3.2a accepts only a card not yet released."
        )
    first, opening = min(released), _day(moment)
    if first <= opening:
        when = "when this round opened" if moment is not None else "today"
        return (
            f"{card.name} was released on {date_format(first, 'j F Y')} and is not legal in Vintage: a "
            f"released card never becomes legal by its release. Rule 3.2a accepts only a card not yet "
            f"released {when}."
        )
    return None


def _never_legal(card: Card, codes: set[str]) -> str | None:
    """Why the card can never be legal in a paper tournament, whatever its release, or None."""
    if not card.paper or (codes and codes <= DIGITAL_ONLY_SETS):
        return (
            f"{card.name} exists only in digital Magic (Arena, Magic Online): it is never legal in paper "
            "Vintage, so rule 3.2a cannot accept it."
        )
    if codes and codes <= NEVER_TOURNAMENT_LEGAL_SETS:
        return (
            f"{card.name} is a silver-bordered or acorn card ({', '.join(sorted(codes))}): such cards are "
            "never tournament-legal, so rule 3.2a cannot accept it."
        )
    types = card.type_line.split("—")[0].split()  # the card types, not the subtypes after the dash
    kinds = [kind for kind in NOT_DECK_CARD_TYPES if kind in types]
    if kinds:
        return (
            f"{card.name} is a {kinds[0].lower()}, not a card of a deck: it is never tournament-legal, so "
            "rule 3.2a cannot accept it."
        )
    return None
