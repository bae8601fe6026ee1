"""The archive import's write: the post's round saved when its preview has no problem, in one transaction
(the round, new accounts, the hands through `submissions.imported_hands`, the match table, the results the
forum's table knows, the audit entry, and finalization when a table was given)."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.services import register_player
from audit.services import log_action
from rounds.models import DeadlinePrecision, League, Round, RoundState
from rounds.services.lifecycle import next_round_number
from scoring.models import Match
from scoring.services.errors import ScoringConflict
from scoring.services.finalization import finalize_as_recorded
from scoring.services.table import build_match_table
from submissions.imported_hands import ImportedHand, write_imported_hands
from submissions.models import Hand

from ..shared import MAX_FORUM_NAME
from .preview import preview_post
from .results import ArchiveDuplicate, PostImport, PostImportRefused

IMPORT_NOTE = "Imported from the forum"


def import_post(
    *,
    actor: User,
    league: League | int | str | None,
    post: str,
    table: str = "",
    corrections: dict[str, object] | None = None,
    players: dict[str, str | None] | None = None,
    counts_in_standings: bool | None = None,
    now: dt.datetime | None = None,
) -> PostImport:
    """Import the post's round when its preview has no problem, in one transaction: the round (revealed, or
    final with a table: unknown matches 0-0, rule 6.3b), new accounts, one hand per entry with its comment and
    accepted problems, and the match table. PostImportRefused (with the preview) when anything blocks;
    ArchiveDuplicate when the round was imported already."""
    now = now or timezone.now()
    result = preview_post(
        actor=actor,
        league=league,
        post=post,
        table=table,
        now=now,
        corrections=corrections,
        players=players,
        counts_in_standings=counts_in_standings,
    )
    if result.duplicate_of is not None:
        raise ArchiveDuplicate(result.duplicate_of)
    if not result.ready:
        raise PostImportRefused(result)
    assert result.league is not None  # a preview without its league is not ready
    try:
        with transaction.atomic():
            League.objects.select_for_update().get(pk=result.league.pk)  # imports into a league go one by one
            existing = Round.objects.filter(imported_fingerprint=result.fingerprint).first()
            if existing is not None:
                raise ArchiveDuplicate(existing)
            round_ = _create_round(actor, result)
            hands = _create_hands(actor, round_, result)
            build_match_table(round_.pk, now=now)
            if result.table_given:
                notes = {entry.number: entry.row_note for entry in result.entries if entry.row_note}
                set_results(actor, round_, hands, result.pair_results, now, notes)
            _log_import(actor, round_, result)
            if result.table_given:
                finalize_as_recorded(actor=actor, round_id=round_.pk, now=now)
    except IntegrityError as error:  # the round number was taken between the preview and the import
        raise ScoringConflict(
            f"{result.league.name} got a round {result.fields.code} meanwhile: preview again."
        ) from error
    round_.refresh_from_db()
    result.round = round_
    return result


def _create_round(actor, result):
    fields = result.fields
    return Round.objects.create(
        league=result.league,
        number=fields.number or next_round_number(result.league),
        title=fields.title,
        hand_size=fields.hand_size,
        land_rule=fields.land_rule,
        extra_banned=list(fields.extra_banned),
        format_rule=fields.format_rule,
        commentary=fields.commentary,
        forum_code=fields.forum_code,
        deadline=fields.deadline,
        deadline_precision=fields.deadline_precision,
        # Hands are judged as of the deadline; an unknown one by today's catalog (the stand-in is no moment).
        legal_as_of=fields.deadline if fields.deadline_precision != DeadlinePrecision.UNKNOWN else None,
        counts_in_standings=fields.counts_in_standings,
        imported_fingerprint=result.fingerprint,
        state=RoundState.REVEALED,
        created_by=actor,
    )


def _create_hands(actor, round_, result):
    """{entry number: hand}, with the accounts chosen or created and one version per hand."""
    hands = []
    for entry in result.entries:
        player = entry.player.user
        if player is None:
            player = register_player(
                username=entry.player.new_username,
                password=None,
                forum_username=entry.posted_player[:MAX_FORUM_NAME],
            )
            entry.player.user = player
        hands.append(
            ImportedHand(
                number=entry.number,
                player=player,
                name=entry.hand_name,
                cards=[card.name for card in entry.cards],
                comment=entry.comment,
                accepted_problems=list(entry.accepted),
            )
        )
    return write_imported_hands(actor=actor, round_=round_, hands=hands)


def _log_import(actor, round_, result):
    fields = result.fields
    log_action(
        round_,
        "round.imported",
        actor=actor,
        after={
            "title": round_.title,
            "code": round_.code,
            "forum_code": round_.forum_code,
            "hand_size": round_.hand_size,
            "land_rule": round_.land_rule,
            "extra_banned": list(round_.extra_banned),
            "deadline": round_.deadline,
            "deadline_precision": round_.deadline_precision,
            "counts_in_standings": round_.counts_in_standings,
            "corrected": sorted(fields.corrected),
            "hands": len(result.entries),
            "hands_accepted_with_problems": result.accepted_count,
            "players_created": [entry.player.new_username for entry in result.new_players],
            "players_chosen": {
                entry.posted_player: entry.player.username
                for entry in result.entries
                if entry.player.kind == "chosen"
            },
            "table": result.table_given,
            "results_imported": result.known_matches if result.table_given else 0,
            "skipped_parts": len(result.skipped),
        },
        note=IMPORT_NOTE,
    )


def set_results(
    actor: User,
    round_: Round,
    hands: dict[int, Hand],
    pairs: dict[tuple[int, int], tuple[int, int]],
    now: dt.datetime,
    notes: dict[int, str] | None = None,
) -> None:
    """The moderator's decision on every match the table knows, in one bulk update (the audit entry of the
    import records how many); finalization then derives each match's status and points from it. `notes`
    ({row number: the note written in that row}) are kept on the row's matches."""
    number_of = {hand.pk: number for number, hand in hands.items()}
    notes = notes or {}
    decided = []
    for match in Match.objects.filter(round=round_):
        numbers = (number_of[match.hand_a_id], number_of[match.hand_b_id])
        result = pairs.get(numbers)
        if result is None:
            continue
        written = [f"row {number}: {notes[number]}" for number in numbers if notes.get(number)]
        note = f"{IMPORT_NOTE} ({'; '.join(written)})" if written else IMPORT_NOTE
        match.decided_points_a, match.decided_points_b = result
        match.decided_by, match.decided_note, match.decided_at = actor, note, now
        decided.append(match)
    Match.objects.bulk_update(
        decided,
        ["decided_points_a", "decided_points_b", "decided_by", "decided_note", "decided_at"],
        batch_size=2000,
    )
