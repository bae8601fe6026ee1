"""Read helpers for leagues and rounds."""

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Q, QuerySet

from audit.models import AuditEntry
from audit.selectors import audit_trail

from .catalog.names import normalize_name
from .catalog.resolve import get_index, resolve_name
from .models import BanCategory, Card, League, Round, RoundState

RECENT_ROUNDS_SHOWN = 10
MAX_ROUND_QUERY = 100
_ROUND_CODE = re.compile(r"(?P<league>\d{1,6})\s*:\s*(?P<round>\d{1,4})")


def open_rounds(now: datetime) -> list[Round]:
    """Rounds accepting hands at `now`, soonest deadline first."""
    return list(
        Round.objects.select_related("league")
        .filter(state=RoundState.OPEN, deadline__gt=now)
        .order_by("deadline")
    )


def recent_rounds(now: datetime, limit: int = RECENT_ROUNDS_SHOWN) -> list[Round]:
    """Rounds past their deadline (revealed or final), most recent deadline first."""
    past_deadline = Round.objects.select_related("league").filter(
        state__in=[RoundState.OPEN, RoundState.REVEALED, RoundState.FINAL], deadline__lte=now
    )
    return list(past_deadline.order_by("-deadline")[:limit])


def public_rounds(now: datetime, query: str = "") -> dict[RoundState, list[Round]]:
    """Every round a visitor may see (not drafts), grouped by the state they see at `now`; only those a
    search `query` finds (`rounds_matching`) when one is given."""
    rounds = list(
        rounds_matching(Round.objects.exclude(state=RoundState.DRAFT), query)
        .select_related("league")
        .annotate(entry_count=Count("hands"))
        .order_by("deadline", "pk")
    )
    groups: dict[RoundState, list[Round]] = {
        RoundState.OPEN: [],
        RoundState.REVEALED: [],
        RoundState.FINAL: [],
    }
    for round_ in rounds:
        groups[round_.state_at(now)].append(round_)
    groups[RoundState.REVEALED].reverse()
    groups[RoundState.FINAL].reverse()
    return groups


def rounds_matching(rounds: QuerySet[Round], query: str) -> QuerySet[Round]:
    """The rounds whose code ("45:01", or the code the forum gave an imported round, kept as it was) is
    `query`, or whose title holds it."""
    query = " ".join(query.split())[:MAX_ROUND_QUERY]
    if not query:
        return rounds
    found = Q(title__icontains=query) | Q(forum_code__iexact=query)
    code = _ROUND_CODE.fullmatch(query)
    if code is not None:
        league, number = int(code["league"]), int(code["round"])
        found |= Q(league__number=league, number=number) | Q(forum_code=f"{league}:{number:02d}")
    return rounds.filter(found)


@dataclass(frozen=True)
class CardInRounds:
    """The public rounds whose own rules name a card: as an extra ban, or lifting it from a standing list."""

    banned_in: list
    lifted_in: list


def _names_card(names, card, index):
    key = normalize_name(card.name)
    for name in names:
        if normalize_name(name) == key:
            return True
        resolution = resolve_name(name, index=index)
        if resolution.resolved and resolution.card.id == card.id:
            return True
    return False


def rounds_naming_card(card: Card) -> CardInRounds:
    """Public rounds (not drafts) that ban `card` beyond the standing lists or lift it from them, latest
    deadline first. One query: the rounds with any extra ban or lift, read in Python, since a moderator may
    have typed any spelling the resolver accepts (a face name, another case)."""
    rounds = list(
        Round.objects.select_related("league")
        .exclude(state=RoundState.DRAFT)
        .filter(~Q(extra_banned=[]) | ~Q(unbanned=[]))
        .only(
            "pk",
            "number",
            "title",
            "deadline",
            "state",
            "extra_banned",
            "unbanned",
            "league__name",
            "league__number",
        )
        .order_by("-deadline", "-pk")
    )
    index = get_index()
    return CardInRounds(
        banned_in=[round_ for round_ in rounds if _names_card(round_.extra_banned or (), card, index)],
        lifted_in=[round_ for round_ in rounds if _names_card(round_.unbanned or (), card, index)],
    )


def visible_round(
    round_id: int,
    user: AbstractBaseUser | AnonymousUser,
    *,
    can_manage: Callable[[AbstractBaseUser | AnonymousUser, League], bool],
) -> Round | None:
    """The round, or None when it does not exist or is a draft the viewer may not manage."""
    round_ = Round.objects.select_related("league").filter(pk=round_id).first()
    if round_ is None:
        return None
    if round_.state == RoundState.DRAFT and not can_manage(user, round_.league):
        return None
    return round_


class LiftedName(str):
    """A banned list's name that the round lifts: a str that knows it."""

    lifted = True


def banned_groups(
    entries: Iterable[Mapping[str, Any]],
) -> list[tuple[str, str, list[tuple[str, list[str]]]]]:
    """Effective banned entries grouped for display: [(list label, key, [(category, [names])])]. A name the
    round lifts (its `unbanned`) is a LiftedName, which the page shows struck."""
    labels = {
        "phm": "PHM Banned List",
        "land-rule": "Land Rule Banned List",
        "round": "Additional bans for this round",
    }
    groups: dict[str, dict[str, list[str]]] = {}
    by_category: dict[str, list[str]] | None
    for entry in entries:
        by_category = groups.setdefault(entry["list"], {})
        category = entry.get("category") or ""
        label = BanCategory(category).label if category in BanCategory.values else category
        name = LiftedName(entry["name"]) if entry.get("lifted") else entry["name"]
        by_category.setdefault(label, []).append(name)
    category_order = [label for _, label in BanCategory.choices]

    def in_rules_order(item):  # Acceleration, Disruption, Lands, Win Conditions, as the rules text lists them
        return category_order.index(item[0]) if item[0] in category_order else len(category_order)

    return [
        (labels.get(key, key), key, sorted(by_category.items(), key=in_rules_order))
        for key in ["phm", "land-rule", "round"]
        if (by_category := groups.get(key))
    ]


def entry_count(round_: Round) -> int:
    """How many players have a hand in the round: the only thing public about hands before the deadline."""
    return round_.hands.count()


# What anyone may read of a round's history: its deadline, the cards accepted for it, and who finalized or
# reopened it (marked when a moderator who plays in it did: allowed only where nobody else could).
PUBLIC_ROUND_ACTIONS = (
    "round.opened",
    "round.deadline_extended",
    "round.closed_early",
    "round.card_accepted",
    "round.card_withdrawn",
    "round.finalized",
    "round.reopened",
)


def public_history(round_: Round, revealed_players: Iterable[int]) -> list[AuditEntry]:
    """The round's public audit entries, oldest first; one query. `revealed_players`: the ids of the round's
    players once its hands are revealed, else empty — before, saying that a moderator plays would tell who
    entered. Each entry says whether a moderator who plays in the round made it."""
    entries = list(audit_trail(round_).filter(action__in=PUBLIC_ROUND_ACTIONS).order_by("created_at", "id"))
    players = set(revealed_players)
    for entry in entries:
        entry.by_player = entry.actor_id in players  # type: ignore[attr-defined]
    return entries


def is_following(user: AbstractBaseUser | AnonymousUser, league: League) -> bool:
    return user.is_authenticated and league.followers.filter(pk=user.pk).exists()
