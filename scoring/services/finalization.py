"""Finalizing a round (the table frozen and published) and reopening it — both explicit and audited.

Finalization locks the round row exclusively, so no report, decision or challenge can commit half-way through
it:
they all lock the same row shared first.
"""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import timezone

from accounts.names import display_name
from audit.services import log_action
from rounds.locks import lock_round
from rounds.models import Round, RoundState
from rounds.permissions import own_interest_refusal
from submissions import selectors as hand_selectors

from .. import signals
from ..models import Challenge, HandTally, Match, MatchReport, MatchStatus, RoundTally
from ..status import as_final, derive
from .access import _require_moderator, plays_in, scoring_round
from .changes import _clean_text
from .errors import ScoringConflict, ScoringForbidden
from .league import settle_computed_winners
from .table import MATCH_IN_TABLE, build_match_table, in_table
from .tally import note_results_changed, write_tally


@dataclass
class OpenItems:
    disputed: list  # matches whose two players reported different results
    challenged: list  # open challenges
    needs_result: list | None = None  # matches whose hand was replaced after results existed (4.2a)

    def __bool__(self):
        return bool(self.disputed or self.challenged or self.needs_result)

    def described(self):
        """Plain sentences, one per item, for the 409 and the moderator's page."""
        lines = [
            f"Match {match.hand_a.number:02d} v {match.hand_b.number:02d} is disputed."
            for match in self.disputed
        ]
        lines += [
            f"Match {c.match.hand_a.number:02d} v {c.match.hand_b.number:02d} is challenged by "
            f"{display_name(c.challenger)}: {c.reason}"
            for c in self.challenged
        ]
        lines += [
            f"Match {match.hand_a.number:02d} v {match.hand_b.number:02d} needs a new result "
            "(a hand was replaced after results were reported, rule 4.2a)."
            for match in self.needs_result or []
        ]
        return lines


def open_items(round_id: int) -> OpenItems:
    """Disputes, open challenges and matches needing a new result (4.2a) of the round (three queries)."""
    disputed = list(
        Match.objects.filter(MATCH_IN_TABLE, round_id=round_id, status=MatchStatus.DISPUTED)
        .select_related("hand_a", "hand_b")
        .order_by("hand_a__number", "hand_b__number")
    )
    challenged = list(
        Challenge.objects.filter(match__round_id=round_id, state=Challenge.State.OPEN)
        .filter(in_table("match__"))
        .select_related("match__hand_a", "match__hand_b", "challenger__profile")
        .order_by("created_at")
    )
    needs_result = list(
        Match.objects.filter(MATCH_IN_TABLE, round_id=round_id, status=MatchStatus.NEEDS_RESULT)
        .select_related("hand_a", "hand_b")
        .order_by("hand_a__number", "hand_b__number")
    )
    return OpenItems(disputed, challenged, needs_result)


# Finalizing or reopening a round one plays in settles or unsettles one's own results (rounds.permissions).
_ROUND_POWERS = {
    "finalize": (
        "finalize round {code}",
        "you play in it, and finalizing settles the results of your own matches too (rule 6.3b)",
    ),
    "reopen": (
        "reopen round {code}",
        "you play in it, and reopening lets the results of your own matches change again",
    ),
}


def round_power_refusal(actor: AbstractBaseUser | AnonymousUser | None, round_: Round, power: str) -> str:
    """Why `actor` may not "finalize" or "reopen" (`power`) the round: they play in it and someone else can
    manage the league (the sentence names who); "" when they may."""
    if not plays_in(actor, round_.pk):
        return ""
    what, why = _ROUND_POWERS[power]
    return own_interest_refusal(actor, round_.league, what=what.format(code=round_.code), why=why)


def finalize_round(*, actor: User, round_id: int, force: bool = False, now: datetime | None = None) -> Round:
    """Rule 6.3b and 6.3c: the round becomes final. Refused (ScoringConflict listing them) while disputes or
    challenges are open, unless forced; a one-sided report stands; undetermined matches become 0-0; open
    challenges are closed; the tally is stored in the same transaction and frozen.

    A moderator who plays in the round leaves it to someone else who can manage the league (ScoringForbidden
    naming who); where nobody else can, they may, and the pages say so (rounds.permissions)."""
    round_ = scoring_round(round_id)
    _require_moderator(actor, round_)
    refusal = round_power_refusal(actor, round_, "finalize")
    if refusal:
        raise ScoringForbidden(refusal)
    return _finalize(actor, round_, force=force, now=now)


def finalize_as_recorded(*, actor: User, round_id: int, now: datetime | None = None) -> Round:
    """Finalize an imported round with the forum's table (scoring.post_import): the table is the forum's
    record, not a decision of the importing moderator, so whether they played there does not matter (as for
    the imported results themselves, archive.set_results)."""
    round_ = scoring_round(round_id)
    _require_moderator(actor, round_)
    return _finalize(actor, round_, force=True, now=now)


def _finalize(actor, round_, *, force, now):
    round_id = round_.pk
    now = now or timezone.now()
    if not hand_selectors.is_revealed(round_, now):
        raise ScoringConflict(
            f"Round {round_.code} is still open for hands: it can be finalized after its deadline."
        )
    build_match_table(round_id, now=now)
    with transaction.atomic():
        round_ = lock_round(round_id)
        if round_.state == RoundState.FINAL:
            raise ScoringConflict(f"Round {round_.code} is already final.")
        items = open_items(round_id)
        if items and not force:
            raise ScoringConflict(
                f"Round {round_.code} has open disputes or challenges (or matches needing a new result); "
                "resolve them or finalize with force.",
                items=items.described(),
            )
        closed = Challenge.objects.filter(match__round_id=round_id, state=Challenge.State.OPEN).update(
            state=Challenge.State.CLOSED,
            note="The round was finalized while this challenge was open.",
            resolved_by=actor,
            resolved_at=now,
        )
        before = round_.state
        round_.state = RoundState.FINAL
        round_.save(update_fields=["state", "updated_at"])
        zeroed = rederive_matches(round_id, final=True)
        tally = RoundTally.objects.select_for_update().get(round_id=round_id)
        tally.revision += 1
        write_tally(round_id)
        tally.tallied_revision, tally.tallied_at = tally.revision, now
        tally.finalized_at, tally.finalized_by = now, actor
        # What each player is told now, kept so that a finalization after a reopening can say what changed.
        earlier, tally.final_figures = tally.final_figures, final_figures(round_id)
        tally.save()
        log_action(
            round_,
            "round.finalized",
            actor=actor,
            before={"state": before},
            after={
                "state": RoundState.FINAL,
                "zeroed_6_3b": zeroed,
                "forced": bool(items),
                "challenges_closed": closed,
            },
            note="; ".join(items.described()) if items else "",
        )
        signals.round_finalized.send(sender=RoundTally, round_id=round_id, earlier=earlier)
        # The league's winners, as soon as its standings give them (5.3, 5.3a): last planned round or
        # deciding tie-break round.
        again = " again" if earlier is not None else ""
        settle_computed_winners(
            round_.league_id, actor=actor, now=now, cause=f"round {round_.code} is final{again}"
        )
    return round_


def final_figures(round_id: int) -> dict[str, list[int]]:
    """Each player's [rank, points, League points] in the round's stored table, by login name (the JSON kept
    on the tally: what "results final" told them; a league's export carries it to another site). One
    query."""
    return {
        username: [rank, points, league_points]
        for username, rank, points, league_points in HandTally.objects.filter(round_id=round_id).values_list(
            "hand__player__username", "rank", "points", "league_points"
        )
    }


def reopen_round(*, actor: User, round_id: int, reason: str, now: datetime | None = None) -> Round:
    """Take a final round back to `revealed`: results can change again. Explicit, with a reason, audited; the
    round's players are told (with the reason), and a later finalization tells them it replaces this one."""
    round_ = scoring_round(round_id)
    _require_moderator(actor, round_)
    refusal = round_power_refusal(actor, round_, "reopen")
    if refusal:
        raise ScoringForbidden(refusal)
    reason = _clean_text(reason, "reason", required=True, what="the reason for reopening the round")
    with transaction.atomic():
        round_ = lock_round(round_id)
        if round_.state != RoundState.FINAL:
            raise ScoringConflict(f"Round {round_.code} is not final, so there is nothing to reopen.")
        round_.state = RoundState.REVEALED
        round_.save(update_fields=["state", "updated_at"])
        rederive_matches(round_id, final=False)
        RoundTally.objects.filter(round_id=round_id).update(finalized_at=None, finalized_by=None)
        note_results_changed(round_id)
        log_action(
            round_,
            "round.reopened",
            actor=actor,
            before={"state": RoundState.FINAL},
            after={"state": RoundState.REVEALED},
            note=reason,
        )
        signals.round_reopened.send(sender=RoundTally, round_id=round_id, reason=reason)
        # Computed winners wait for the round to be final again (and the players are told they are withdrawn).
        settle_computed_winners(
            round_.league_id, actor=actor, now=now, cause=f"round {round_.code} was reopened"
        )
    return round_


def rederive_matches(round_id: int, *, final: bool) -> int:
    """Every match's status and result from its reports, decision and challenges (three queries and one bulk
    update). Returns how many matches were undetermined (0-0 under rule 6.3b when `final`)."""
    matches = list(Match.objects.filter(round_id=round_id))
    sides = {}
    for match_id, side, points_a, points_b in MatchReport.objects.filter(
        match__round_id=round_id, is_current=True, side__in=["a", "b"]
    ).values_list("match_id", "side", "points_a", "points_b"):
        sides[(match_id, side)] = (points_a, points_b)
    challenged = set(
        Challenge.objects.filter(match__round_id=round_id, state=Challenge.State.OPEN).values_list(
            "match_id", flat=True
        )
    )
    changed, undetermined = [], 0
    for match in matches:
        standing = derive(
            side_a=sides.get((match.pk, "a")),
            side_b=sides.get((match.pk, "b")),
            decision=(match.decided_points_a, match.decided_points_b) if match.has_decision else None,
            challenged=match.pk in challenged,
            needs_result=match.needs_new_result,
        )
        undetermined += standing.points_a is None
        if final:
            standing = as_final(standing)
        if (match.status, match.points_a, match.points_b) != (
            standing.status,
            standing.points_a,
            standing.points_b,
        ):
            match.status, match.points_a, match.points_b = (
                standing.status,
                standing.points_a,
                standing.points_b,
            )
            changed.append(match)
    Match.objects.bulk_update(changed, ["status", "points_a", "points_b"], batch_size=2000)
    return undetermined
