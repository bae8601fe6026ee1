"""Reporting results (rule 6.3), verifying them (6.3a), challenging them (6.3c), and the moderator's
decisions.

Every change locks the round row shared (finalization locks it exclusively, so nothing slips past it), then
the round's tally row and the match row, re-derives the match's status from everything known about it, marks
the tally stale and is audited.
"""

from dataclasses import dataclass, field

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from accounts.templatetags.people import display_name_of
from audit.services import log_action
from rounds.locks import lock_round_shared
from rounds.models import Round, RoundState
from rounds.permissions import can_manage_league, own_interest_refusal
from submissions import selectors as hand_selectors
from submissions.models import Hand, HandStatus

from .. import notifications
from ..forum_rows import RowFormatError, parse_row
from ..models import Challenge, Match, MatchReport, MatchStatus, RoundTally
from ..outcomes import OPPONENT_POINTS, POINTS_VALUES, is_legal_pair
from ..status import derive
from .bonus_player import bonus_player
from .errors import ScoringConflict, ScoringForbidden, ScoringInputError, ScoringNotFound
from .table import table_of
from .tally import note_results_changed

MAX_TEXT = 2000


# Reading with permission checks
# --------------------------------------------------------------------------------


def scoring_round(round_id):
    """The round, unless it is unknown or a draft (ScoringNotFound)."""
    round_ = Round.objects.select_related("league").filter(pk=round_id).first()
    if round_ is None or round_.state == RoundState.DRAFT:
        raise ScoringNotFound("No such round.")
    return round_


def visible_match(match_id, now=None):
    """The match, with its round and hands, once its round is revealed; ScoringNotFound otherwise."""
    match = (
        Match.objects.select_related(
            "round__league", "hand_a__player__profile", "hand_b__player__profile", "decided_by__profile"
        )
        .filter(pk=match_id)
        .first()
    )
    if match is None or not hand_selectors.is_revealed(match.round, now or timezone.now()):
        raise ScoringNotFound("No such match.")
    return match


def revealed_round_table(round_, now=None):
    """The round's scoring bookkeeping; ScoringNotFound before the reveal (nothing of it is public yet)."""
    tally = table_of(round_, now)
    if tally is None:
        raise ScoringNotFound("The results of this round are not open yet: its hands are not revealed.")
    return tally


def _require_moderator(actor, round_):
    if not can_manage_league(actor, round_.league):
        raise ScoringForbidden("Only a moderator of this league can do that.")


def plays_in(actor: AbstractBaseUser | AnonymousUser | None, round_id: int) -> bool:
    """Whether `actor` has a hand in the round (whatever became of it): the round's results are theirs too."""
    return Hand.objects.filter(round_id=round_id, player_id=getattr(actor, "pk", None)).exists()


ROUND_INTEREST = "you play in this round, so its results are yours to win too"


def own_match_refusal(actor: AbstractBaseUser | AnonymousUser, match: Match) -> str:
    """Why `actor` may not decide `match` (set its result, resolve its challenges), or "" when they may: they
    play in its round — their own match, or another one whose result moves their rank — and someone else can
    manage the league (rounds.permissions). For the services and the match page."""
    if actor.pk in _players_of(match):
        return own_interest_refusal(actor, match.round.league, what="decide a match you played")
    if plays_in(actor, match.round_id):
        return own_interest_refusal(
            actor, match.round.league, what="decide a match of this round", why=ROUND_INTEREST
        )
    return ""


def bonus_refusal(
    actor: AbstractBaseUser | AnonymousUser, round_: Round, player: AbstractBaseUser | None = None
) -> str:
    """Why `actor` may not award `player` (anyone, without one) bonus points in the round, or "": they play
    in it (the bonus is their own, or moves a rival) and someone else can manage the league."""
    if player is not None and player.pk == actor.pk:
        return own_interest_refusal(actor, round_.league, what="award bonus points to yourself")
    if plays_in(actor, round_.pk):
        return own_interest_refusal(
            actor,
            round_.league,
            what="award bonus points in a round you play in",
            why="the league's standings are yours to win too",
        )
    return ""


def _players_of(match):
    return {match.hand_a.player_id, match.hand_b.player_id}


def _final_message(round_):
    return f"Round {round_.code} is final: its results can no longer change (a moderator can reopen it)."


# Shared steps of every change -------------------------------------------------------------------------------


def _clean_result(points_a, points_b):
    try:
        points_a, points_b = int(points_a), int(points_b)
    except (TypeError, ValueError):
        raise ScoringInputError({"points_a": ["Give both sides' points as numbers, e.g. 4 and 1."]}) from None
    if not is_legal_pair(points_a, points_b):
        allowed = ", ".join(f"{p}-{OPPONENT_POINTS[p]}" for p in POINTS_VALUES)
        raise ScoringInputError(
            {"points_a": [f"{points_a}-{points_b} is not a possible match result; it is one of {allowed}."]}
        )
    return points_a, points_b


def _clean_text(text, field_name, *, required=False, what="a comment"):
    text = str(text or "").strip()
    if required and not text:
        raise ScoringInputError({field_name: [f"Give {what}."]})
    if len(text) > MAX_TEXT:
        raise ScoringInputError({field_name: [f"Keep it under {MAX_TEXT} characters."]})
    return text


def _lock_for_change(match_id, now=None):
    """Lock the match's round (shared), the round's tally row and the match, in that order; refuse if the
    round
    is final or the match out of the table. Every change bumps the tally's revision, so taking its row before
    any
    match makes concurrent changes in one round queue up instead of deadlocking over match rows."""
    match = visible_match(match_id, now)
    round_ = lock_round_shared(match.round_id)
    if round_.state == RoundState.FINAL:
        raise ScoringConflict(_final_message(match.round))
    RoundTally.objects.select_for_update().filter(round_id=match.round_id).first()
    locked = Match.objects.select_for_update().get(pk=match.pk)
    for name in ("round", "hand_a", "hand_b"):
        setattr(locked, name, getattr(match, name))
    if HandStatus.DISQUALIFIED in (match.hand_a.status, match.hand_b.status):
        raise ScoringConflict("One of these hands was disqualified: the match is out of the table.")
    return locked


def refresh_match(match, *, final=False):
    """Re-derive the match's status and standing result from its current reports, decision and challenges."""
    sides = {
        side: (points_a, points_b)
        for side, points_a, points_b in MatchReport.objects.filter(
            match=match, is_current=True, side__in=["a", "b"]
        ).values_list("side", "points_a", "points_b")
    }
    standing = derive(
        side_a=sides.get("a"),
        side_b=sides.get("b"),
        decision=(match.decided_points_a, match.decided_points_b) if match.has_decision else None,
        challenged=Challenge.objects.filter(match=match, state=Challenge.State.OPEN).exists(),
        final=final,
        needs_result=match.needs_new_result,
    )
    before = (match.status, match.points_a, match.points_b, match.needs_new_result)
    match.status, match.points_a, match.points_b = standing.status, standing.points_a, standing.points_b
    # A new report or decision is the new result the match needed (4.2a): the flag goes with it.
    match.needs_new_result = standing.status == MatchStatus.NEEDS_RESULT
    if (match.status, match.points_a, match.points_b, match.needs_new_result) != before:
        match.save(update_fields=["status", "points_a", "points_b", "needs_new_result", "updated_at"])
    return before[0]


def _snapshot(match):
    return {"status": match.status, "points_a": match.points_a, "points_b": match.points_b}


def _after_change(match, action, actor, before, *, note="", extra=None):
    previous_status = before["status"]
    note_results_changed(match.round_id)
    log_action(
        match, action, actor=actor, before=before, after={**_snapshot(match), **(extra or {})}, note=note
    )
    if match.status == "disputed" and previous_status != "disputed":
        notifications.dispute_opened(match.pk)


# Reports ----------------------------------------------------------------------------------------------------


def side_of(user, match):
    if match.hand_a.player_id == user.pk:
        return MatchReport.Side.A
    if match.hand_b.player_id == user.pk:
        return MatchReport.Side.B
    return MatchReport.Side.OTHER


def report_match(*, reporter, match_id, points_a, points_b, comment="", now=None):
    """The reporter's result of a match: binding for its two players (6.3), a verification for anyone else
    (6.3a). A change is a new version; sending the same result and comment again stores nothing."""
    points_a, points_b = _clean_result(points_a, points_b)
    comment = _clean_text(comment, "comment")
    with transaction.atomic():
        match = _lock_for_change(match_id, now)
        report = _store_report(match, reporter, points_a, points_b, comment)
    return report


def _store_report(match, reporter, points_a, points_b, comment, *, entered_by=None):
    """`entered_by`: the moderator who typed in the reporter's report (their posted row); the audit entry is
    theirs, naming both."""
    current = MatchReport.objects.filter(match=match, reporter=reporter, is_current=True).first()
    if current is not None and (current.points_a, current.points_b, current.comment) == (
        points_a,
        points_b,
        comment,
    ):
        return current
    before = _snapshot(match)
    if current is not None:
        MatchReport.objects.filter(pk=current.pk).update(is_current=False)
    side = side_of(reporter, match)
    report = MatchReport.objects.create(
        match=match,
        reporter=reporter,
        side=side,
        points_a=points_a,
        points_b=points_b,
        comment=comment,
        version=(current.version + 1) if current else _next_version(match, reporter),
    )
    refresh_match(match)
    action = "match.verified" if side == MatchReport.Side.OTHER else "match.reported"
    extra = {"report": f"{points_a}-{points_b}", "side": side}
    if entered_by is not None:
        extra |= {"reporter": reporter.get_username(), "entered_by": entered_by.get_username()}
    _after_change(match, action, entered_by or reporter, before, note=comment, extra=extra)
    return report


def _next_version(match, reporter):
    """The version of a first current report: 1, or after the reporter's superseded reports (4.2a)."""
    last = (
        MatchReport.objects.filter(match=match, reporter=reporter)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    return (last or 0) + 1


@dataclass
class RowReport:
    reports: list = field(default_factory=list)  # the reports stored or confirmed, one per reported cell
    skipped: list = field(default_factory=list)  # plain sentences: cells left out and why


def report_row(*, player, round_id, row, now=None):
    """A player's whole row in the forum format (`3 | 6 0 X 2 4 | PT | Points`): one report per filled cell,
    from the player's point of view; blank and `?` cells are not reported. The row's note, if any, becomes
    each report's comment (without one, a report keeps its comment). All or nothing."""
    round_ = scoring_round(round_id)
    revealed_round_table(round_, now)
    hands = numbered_hands(round_)
    own = next((hand for hand in hands.values() if hand.player_id == player.pk), None)
    if own is None:
        raise ScoringForbidden("You have no hand in this round, so you have no row to report.")
    try:
        parsed = parse_row(str(row or ""), columns=max(hands))
    except RowFormatError as error:
        raise ScoringInputError({"row": [str(error)]}) from None
    if parsed.number != own.number:
        raise ScoringInputError(
            {"row": [f"This is row {parsed.number}, but your hand is number {own.number:02d}."]}
        )
    note = _clean_text(parsed.note, "row")
    if not row_cells(parsed):
        raise ScoringInputError({"row": ["The row has no result in it: fill at least one cell."]})
    with transaction.atomic():
        return report_cells(own, hands, row_cells(parsed), note=note, now=now)


def numbered_hands(round_):
    """{number: hand} of the round's numbered hands (the table's rows), with their players."""
    return {
        hand.number: hand
        for hand in Hand.objects.filter(round=round_, number__isnull=False).select_related("player__profile")
    }


def row_cells(row):
    """{column: score} of a parsed row's known cells."""
    return {column: value for column, value in enumerate(row.cells, start=1) if isinstance(value, int)}


def report_cells(own, hands, cells, *, note="", entered_by=None, now=None):
    """The reports of hand `own`'s player for its `cells` ({opponent number: own score}) among `hands`
    ({number: hand}), one per match in match order (the lock order); a disqualified opponent's column is
    skipped. `note` is each report's comment (empty: a report keeps its current comment). Call inside a
    transaction."""
    player = own.player
    matches = _matches_of(own, [hands[column] for column in cells])
    outcome = RowReport()
    for column in sorted(cells, key=lambda column: matches[column].pk if column in matches else 0):
        opponent = hands[column]
        if opponent.status == HandStatus.DISQUALIFIED or column not in matches:
            outcome.skipped.append(f"Hand {column:02d} is disqualified: its column is not reported.")
            continue
        mine, theirs = cells[column], OPPONENT_POINTS[cells[column]]
        points_a, points_b = (mine, theirs) if own.number < column else (theirs, mine)
        match = _lock_for_change(matches[column].pk, now)
        current = MatchReport.objects.filter(match=match, reporter=player, is_current=True).first()
        comment = note or (current.comment if current else "")
        outcome.reports.append(
            _store_report(match, player, points_a, points_b, comment, entered_by=entered_by)
        )
    return outcome


def _matches_of(hand, opponents):
    """{opponent number: match} for the hand's matches against `opponents` (one query)."""
    by_hand = {opponent.pk: opponent.number for opponent in opponents}
    found = Match.objects.filter(round_id=hand.round_id).filter(
        hand_a=hand, hand_b__in=list(by_hand)
    ) | Match.objects.filter(round_id=hand.round_id, hand_b=hand, hand_a__in=list(by_hand))
    return {
        by_hand[match.hand_b_id if match.hand_a_id == hand.pk else match.hand_a_id]: match for match in found
    }


# The moderator's result -------------------------------------------------------------------------------------


def set_result(*, actor, match_id, points_a, points_b, note="", now=None):
    """The moderator decides a match (docs/api.md: PUT /api/matches/{id}/result/); it outranks the reports."""
    match = visible_match(match_id, now)
    _require_moderator(actor, match.round)
    refusal = own_match_refusal(actor, match)
    if refusal:
        raise ScoringForbidden(refusal)
    points_a, points_b = _clean_result(points_a, points_b)
    note = _clean_text(note, "note")
    with transaction.atomic():
        match = _lock_for_change(match_id, now)
        before = _snapshot(match)
        _decide(match, actor, points_a, points_b, note)
        refresh_match(match)
        _after_change(match, "match.result_set", actor, before, note=note)
        notifications.result_set(match.pk)
    return match


def _decide(match, actor, points_a, points_b, note):
    match.decided_points_a, match.decided_points_b = points_a, points_b
    match.decided_by, match.decided_note, match.decided_at = actor, note, timezone.now()
    match.save(
        update_fields=["decided_points_a", "decided_points_b", "decided_by", "decided_note", "decided_at"]
    )


# Challenges -------------------------------------------------------------------------------------------------


def challenge_match(*, challenger, match_id, reason, now=None):
    """Rule 6.3c: anyone may challenge a match's result, with a reason, until the round is final."""
    reason = _clean_text(reason, "reason", required=True, what="the reason for the challenge")
    with transaction.atomic():
        match = _lock_for_change(match_id, now)
        if match.points_a is None and match.status != "disputed":
            raise ScoringConflict("Nothing to challenge yet: no result has been reported for this match.")
        if Challenge.objects.filter(match=match, challenger=challenger, state=Challenge.State.OPEN).exists():
            raise ScoringConflict(
                "You already have an open challenge on this match; the moderator will answer it."
            )
        before = _snapshot(match)
        challenge = Challenge.objects.create(match=match, challenger=challenger, reason=reason)
        refresh_match(match)
        _after_change(
            match, "match.challenged", challenger, before, note=reason, extra={"challenge": challenge.pk}
        )
        notifications.challenge_opened(challenge.pk)
    return challenge


DECISIONS = ("upheld", "rejected")


def resolve_challenge(*, actor, challenge_id, decision, points_a=None, points_b=None, note="", now=None):
    """The moderator upholds a challenge with a new result, or rejects it with a note; everyone involved is
    told."""
    challenge = Challenge.objects.select_related("match").filter(pk=challenge_id).first()
    if challenge is None:
        raise ScoringNotFound("No such challenge.")
    match = visible_match(challenge.match_id, now)
    _require_moderator(actor, match.round)
    refusal = own_match_refusal(actor, match)
    if refusal:
        raise ScoringForbidden(refusal)
    if decision not in DECISIONS:
        raise ScoringInputError({"decision": ['Choose "upheld" or "rejected".']})
    if decision == "upheld":
        if points_a is None or points_b is None:
            raise ScoringInputError(
                {"points_a": ["Upholding a challenge sets a new result: give points_a and points_b."]}
            )
        points_a, points_b = _clean_result(points_a, points_b)
    note = _clean_text(note, "note", required=decision == "rejected", what="a note saying why")
    with transaction.atomic():
        match = _lock_for_change(challenge.match_id, now)
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
        if challenge.state != Challenge.State.OPEN:
            raise ScoringConflict(f"This challenge was already {challenge.get_state_display().lower()}.")
        before = _snapshot(match)
        challenge.state = decision
        challenge.note, challenge.resolved_by, challenge.resolved_at = note, actor, timezone.now()
        challenge.save(update_fields=["state", "note", "resolved_by", "resolved_at"])
        if decision == "upheld":
            _decide(match, actor, points_a, points_b, note)
        refresh_match(match)
        _after_change(
            match, f"challenge.{decision}", actor, before, note=note, extra={"challenge": challenge.pk}
        )
        notifications.challenge_resolved(challenge_id)
    return challenge


# Bonus points
# -------------------------------------------------------------------------------------------------


MAX_BONUS = 10_000


def award_bonus(*, actor, round_id, player_username, points, reason, now=None):
    """Rules 6.2 / 7.7: bonus League points for a player in a round, with the reason; audited.

    Rule 7.7a: a player earns bonus points when *their hand* meets the round's requirements, and 6.2 speaks of
    earning only: a bonus is a positive number of League points, for a player with a hand in the round (not
    disqualified). The rules know no penalty points; a mistaken award is corrected by withdrawing it.
    `player_username`: the login name, or the name the tables show (bonus_player)."""
    from ..models import BonusAward

    round_ = scoring_round(round_id)
    _require_moderator(actor, round_)
    try:
        points = int(points)
    except (TypeError, ValueError):
        raise ScoringInputError({"points": ["Give the bonus as a whole number of League points."]}) from None
    if points <= 0:
        raise ScoringInputError(
            {
                "points": [
                    f"A bonus is a positive number of League points, not {points}: players earn bonus "
                    "points (rules 6.2, 7.7a); the rules know no penalty points."
                ]
            }
        )
    if points > MAX_BONUS:
        raise ScoringInputError({"points": [f"A bonus is at most {MAX_BONUS:,} League points."]})
    reason = _clean_text(reason, "reason", required=True, what="the reason for the bonus")
    if not hand_selectors.is_revealed(round_, now or timezone.now()):
        # Before the reveal, whether someone has a hand is secret (the name's suggestions would tell); and the
        # hand cannot be judged yet.
        raise ScoringConflict(
            f"Round {round_.code} is still open for hands: bonus points are awarded after its deadline."
        )
    player = bonus_player(round_, player_username)
    if not Hand.objects.filter(round=round_, player=player).exclude(status=HandStatus.DISQUALIFIED).exists():
        raise ScoringInputError(
            {
                "player": [
                    f"{display_name_of(player)} has no hand in round {round_.code} (or it was disqualified): "
                    "bonus points go to a player whose hand meets the round's requirements (rule 7.7a)."
                ]
            }
        )
    refusal = bonus_refusal(actor, round_, player)
    if refusal:
        raise ScoringForbidden(refusal)
    with transaction.atomic():
        award = BonusAward.objects.create(
            round=round_, player=player, points=points, reason=reason, awarded_by=actor
        )
        log_action(
            round_,
            "round.bonus_awarded",
            actor=actor,
            after={"player": player.username, "points": points},
            note=reason,
        )
    return award


def bonus_withdrawal_refusal(actor: AbstractBaseUser | AnonymousUser | None, round_: Round) -> str:
    """Why `actor` may not withdraw bonus points in the round (anyone's: the standings are theirs to win too),
    or "": they play in it and someone else can manage the league (rounds.permissions)."""
    if not plays_in(actor, round_.pk):
        return ""
    return own_interest_refusal(
        actor,
        round_.league,
        what="withdraw bonus points in a round you play in",
        why="the league's standings are yours to win too",
    )


def withdraw_bonus(*, actor, award_id, reason, round_id=None, now=None):
    """Withdraw a mistaken bonus award (the way to correct one, since a bonus cannot be negative): the award
    stays on record with who withdrew it, when and why, and counts nowhere any more; audited on the round.

    Same rules as awarding: a moderator of the league, at any time after the reveal (final rounds included,
    as bonus is kept apart from the frozen table). `round_id`: the round the caller reached the award through
    (the API's URL); an award of another round is not found."""
    from ..models import BonusAward

    award = BonusAward.objects.select_related("round__league").filter(pk=award_id).first()
    if award is None or (round_id is not None and award.round_id != int(round_id)):
        raise ScoringNotFound("No such bonus award in this round.")
    round_ = award.round
    _require_moderator(actor, round_)
    refusal = bonus_withdrawal_refusal(actor, round_)
    if refusal:
        raise ScoringForbidden(refusal)
    reason = _clean_text(reason, "reason", required=True, what="the reason for withdrawing the bonus")
    with transaction.atomic():
        lock_round_shared(round_.pk)
        award = BonusAward.objects.select_for_update().select_related("player").get(pk=award.pk)
        if award.withdrawn:
            raise ScoringConflict(f"This bonus was already withdrawn: {award.withdrawal_reason}")
        award.withdrawn_at = now or timezone.now()
        award.withdrawn_by = actor
        award.withdrawal_reason = reason
        award.save(update_fields=["withdrawn_at", "withdrawn_by", "withdrawal_reason"])
        log_action(
            round_,
            "round.bonus_withdrawn",
            actor=actor,
            before={"player": award.player.username, "points": award.points, "reason": award.reason},
            after={"award": award.pk, "withdrawn": True},
            note=reason,
        )
    return award
