"""What both halves of "My PHM" share (`home.player_home` for a player, `home.moderator_home` for a
moderator): the rounds whose results are being reported, a player's side of a match, the length of the
lists, and the players named as the pages name them."""

from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Q

from rounds.models import RoundState
from scoring.models import Challenge, Match
from submissions.selectors import player_display_name

ITEMS_LISTED = 25  # disputes, challenges, hands to review: at most this many listed, then "and n more"


def revealed_not_final(now: datetime, prefix: str = "") -> Q:
    """Rounds past their deadline and not final: results are being reported."""
    return Q(**{f"{prefix}state": RoundState.REVEALED}) | Q(
        **{f"{prefix}state": RoundState.OPEN, f"{prefix}deadline__lte": now}
    )


def theirs(user: User, prefix: str = "") -> Q:
    """Matches in which `user` plays one of the two hands."""
    return Q(**{f"{prefix}hand_a__player": user}) | Q(**{f"{prefix}hand_b__player": user})


def name_players(disputes: list[Match], challenges: list[Challenge]) -> tuple[list[Match], list[Challenge]]:
    """Players as the pages name them (their forum name): `a_name`, `b_name` on each match, `challenger_name`
    on each challenge."""
    for match in [*disputes, *(challenge.match for challenge in challenges)]:
        match.a_name = player_display_name(match.hand_a.player)  # type: ignore[attr-defined]
        match.b_name = player_display_name(match.hand_b.player)  # type: ignore[attr-defined]
    for challenge in challenges:
        challenge.challenger_name = player_display_name(challenge.challenger)  # type: ignore[attr-defined]
    return disputes, challenges
