"""The archive import's preview: everything `write.import_post` would do, checked, nothing saved (the
package's docstring says what is checked), and the post's fingerprint that tells a round imported already."""

from __future__ import annotations

import datetime as dt
import hashlib

from django.contrib.auth.models import User
from django.utils import timezone

from rounds.catalog.resolve import get_index, known_card
from rounds.models import League, Round
from rounds.permissions import can_manage_league

from ..post import PostRound, parse_post
from ..post.problems import MAX_ENTRIES
from .entries import check_legality, read_entries
from .results import ROUND_FIELDS, EntryImport, PostImport
from .round_fields import read_round_fields
from .table import read_table


def preview_post(
    *,
    actor: User,
    league: League | int | str | None,
    post: str,
    table: str = "",
    corrections: dict[str, object] | None = None,
    players: dict[str, str | None] | None = None,
    counts_in_standings: bool | None = None,
    corrections_for: str | None = None,
    now: dt.datetime | None = None,
) -> PostImport:
    """Everything `import_post` would do, checked; nothing saved. `corrections` maps ROUND_FIELDS to the
    moderator's values; `players` maps a posted name to the username to use ("" or None: a new account);
    `counts_in_standings` None lets the post decide (it counts only when its code names this league).
    `corrections_for` is the `posted_digest` the corrections were made against: when the post's own round
    fields have changed since (another post was pasted), the corrections are dropped and the post read
    afresh."""
    now = now or timezone.now()
    result = PostImport(league=_league(league))
    if result.league is None:
        result.add("league_missing", "Choose the league the round belongs to.", "league")
    elif not can_manage_league(actor, result.league):
        result.add("league_forbidden", f"You do not moderate {result.league.name}.", "league")
    index = get_index()

    def is_card(name):
        return known_card(name, index=index) is not None

    parsed = parse_post(post or "", is_card=is_card, today=now.date())
    if len(parsed.entries) > MAX_ENTRIES:  # reported by the parser; the rest is not worth checking
        parsed.entries = parsed.entries[:MAX_ENTRIES]
    result.skipped = list(parsed.skipped)
    result.posted_digest = posted_digest(parsed.round)
    if corrections_for is not None and corrections_for != result.posted_digest and corrections:
        corrections, players, result.corrections_dropped = {}, {}, True
    for message in parsed.problems:
        result.add("post", message)
    read_round_fields(result, parsed.round, corrections or {}, counts_in_standings, index, now)
    read_entries(result, parsed.entries, index, players or {})
    check_legality(result)
    result.fingerprint = fingerprint(result.entries)
    _duplicates(result)
    count = len(result.entries)
    result.total_matches = count * (count - 1) // 2
    if (table or "").strip():
        read_table(result, table)
    if not result.entries and not parsed.problems:
        result.add(
            "no_entries",
            "No entries found: an entry starts with its number and player, like "
            '`01 Player :: "Hand name"`, and its cards follow on the next line.',
        )
    return result


def posted_digest(posted: PostRound) -> str:
    """A short digest of what the post itself says about the round (its entries apart)."""
    said = "|".join(str(getattr(posted, name, "")) for name in ROUND_FIELDS)
    return hashlib.sha256(said.encode()).hexdigest()[:16]


def _league(league):
    if isinstance(league, League):
        return league
    try:
        return League.objects.filter(pk=int(league)).first() if league not in (None, "") else None
    except (TypeError, ValueError):
        return None


def fingerprint(entries: list[EntryImport]) -> str:
    """A digest of the entries (number, player, cards), the same however the post around them is worded."""
    lines = sorted(
        "|".join((str(entry.number), entry.posted_player.casefold(), "/".join(entry.card_names).casefold()))
        for entry in entries
    )
    return hashlib.sha256("\n".join(lines).encode()).hexdigest() if lines else ""


def _duplicates(result):
    if result.fingerprint:
        result.duplicate_of = (
            Round.objects.filter(imported_fingerprint=result.fingerprint).select_related("league").first()
        )
    if result.duplicate_of is not None:
        existing = result.duplicate_of
        result.add(
            "duplicate",
            f"This round was imported already: {existing.code} \u201c{existing.title}\u201d in "
            f"{existing.league.name}.",
        )
        return
    league, number = result.league, result.fields.number
    if league is None or number is None:
        return
    taken = league.rounds.filter(number=number).first()
    if taken is None and league.number is None and result.fields.forum_code:
        # A league without a number holds the forum's rounds under their own codes: each code once.
        taken = league.rounds.filter(forum_code=result.fields.forum_code).first()
    if taken is not None:
        result.add(
            "code_taken",
            f"{league.name} already has round {taken.code} \u201c{taken.title}\u201d: correct the round "
            "code.",
            "round.code",
        )
