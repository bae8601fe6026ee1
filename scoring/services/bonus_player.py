"""Who a bonus is for: the name a moderator typed, as the tables show it (the forum name) or the login name,
any case. Called only after the round's deadline, since its suggestions name the round's players."""

from django.contrib.auth.models import User
from rapidfuzz import fuzz, process

from accounts.matching import accounts_named
from accounts.names import display_name
from rounds.models import Round
from submissions.models import Hand

from .errors import ScoringInputError
from .table import VALID_HAND

SUGGESTIONS = 3
SUGGESTION_CUTOFF = 60  # rapidfuzz WRatio, out of 100: below it a name is not worth offering
LISTED = 10  # players named when nothing is close


def round_players(round_: Round) -> list[User]:
    """The players whose hand in the round may earn a bonus (not disqualified), with profiles (one query)."""
    hands = Hand.objects.filter(VALID_HAND, round=round_).select_related("player__profile")
    return [hand.player for hand in hands.order_by("number", "pk")]


def bonus_player(round_: Round, typed: str | None) -> User:
    """The user `typed` names; ScoringInputError with suggestions when nobody, or several people, have it.

    Among several people whose login or forum name it is: the one with a hand in this round, else the one
    whose login name it is exactly (the API's `player` is a username, a contract: a username that worked
    still does)."""
    typed = str(typed or "").strip()
    if not typed:
        raise ScoringInputError(
            {"player": ["Name the player: the name shown in the tables, or their login name."]}
        )
    named = accounts_named(typed)
    if len(named) == 1:
        return named[0]
    players = round_players(round_)
    if named:
        in_round = [user for user in named if user in players]
        if len(in_round) == 1:
            return in_round[0]
        exact_login = [user for user in named if user.get_username() == typed]
        if exact_login:
            return exact_login[0]
        choices = " or ".join(f"{display_name(user)} (login {user.get_username()})" for user in named)
        raise ScoringInputError(
            {"player": [f"“{typed}” names more than one person: {choices}. Type the login name."]}
        )
    raise ScoringInputError({"player": [_unknown(round_, typed, players)]})


def _unknown(round_, typed, players):
    names = {}
    for player in players:
        names.setdefault(display_name(player), player)
        names.setdefault(player.get_username(), player)
    hits = process.extract(
        typed, list(names), scorer=fuzz.WRatio, limit=SUGGESTIONS * 2, score_cutoff=SUGGESTION_CUTOFF
    )
    suggested = []
    for name, _, _ in hits:
        shown = display_name(names[name])
        if shown not in suggested and len(suggested) < SUGGESTIONS:
            suggested.append(shown)
    sentence = f"No player of round {round_.code} is called “{typed}”."
    if suggested:
        return f"{sentence} Did you mean {', '.join(suggested)}?"
    if players:
        shown = [display_name(player) for player in players[:LISTED]]
        more = f" and {len(players) - LISTED} more" if len(players) > LISTED else ""
        return f"{sentence} Its players: {', '.join(shown)}{more}."
    return sentence
