"""What people are told about results: hands revealed ("score your row now"), a dispute, a challenge, the
moderator's decision, results final, the league's winners. Each is written to the outbox (site and e-mail, as
each person chose) inside the transaction that makes the change; workers send the e-mails after the commit.
Only the players concerned are told; nothing here runs before a round's reveal."""

from django.dispatch import receiver
from django.urls import reverse

from outbox import services as outbox
from outbox.services import Notice
from rounds.models import League, Round
from submissions import signals as hand_signals
from submissions.models import Hand, HandStatus
from submissions.selectors import player_display_name

from . import signals
from .models import Challenge, Match, MatchReport
from .selectors import results_table
from .standings import league_standings

STANDINGS_SHOWN = 10


def _match(match_id):
    return Match.objects.select_related(
        "round__league", "hand_a__player__profile", "hand_b__player__profile"
    ).get(pk=match_id)


def _match_label(match):
    return f"{match.round.code} match {match.hand_a.number:02d} v {match.hand_b.number:02d}"


def _tell_about_match(match, users, *, kind, what, template, **context):
    path = reverse("scoring:match", args=[match.pk])
    outbox.notify(
        users,
        kind=kind,
        round_=match.round,
        build=lambda user: Notice(
            text=f"{_match_label(match)}: {what}",
            path=path,
            subject=f"[PHM] {_match_label(match)}: {what}",
            template=template,
            context={"match": match, "round": match.round, **context},
            action_label="Open the match",
        ),
    )


def _players(match):
    return [match.hand_a.player, match.hand_b.player]


def dispute_opened(match_id):
    match = _match(match_id)
    _tell_about_match(
        match,
        _players(match),
        kind="match.dispute",
        what="results differ",
        template="scoring/email/dispute.txt",
        reports=_current_reports(match),
    )


def challenge_opened(challenge_id):
    challenge = Challenge.objects.select_related("challenger__profile").get(pk=challenge_id)
    match = _match(challenge.match_id)
    _tell_about_match(
        match,
        _players(match),
        kind="match.challenge",
        what=f"result challenged by {player_display_name(challenge.challenger)}",
        template="scoring/email/challenge_opened.txt",
        challenge=challenge,
    )


def challenge_resolved(challenge_id):
    challenge = Challenge.objects.select_related("challenger__profile").get(pk=challenge_id)
    match = _match(challenge.match_id)
    _tell_about_match(
        match,
        [*_players(match), challenge.challenger],
        kind="match.decision",
        what=f"challenge {challenge.get_state_display().lower()}",
        template="scoring/email/challenge_resolved.txt",
        challenge=challenge,
        reports=_current_reports(match),
    )


def result_set(match_id):
    """The moderator set a match's result (a disputed one, usually): both players, with both reports."""
    match = _match(match_id)
    _tell_about_match(
        match,
        _players(match),
        kind="match.decision",
        what=f"the moderator set the result {match.decided_points_a}-{match.decided_points_b}",
        template="scoring/email/result_set.txt",
        reports=_current_reports(match),
    )


def results_superseded(hand, match_ids, *, disqualified):
    """Rule 4.2a: a hand was replaced (its matches need a new result) or disqualified (its matches no longer
    count) after results were reported; its player and every opponent in those matches are told, once each."""
    matches = list(
        Match.objects.filter(pk__in=match_ids)
        .select_related("round__league", "hand_a__player__profile", "hand_b__player__profile")
        .order_by("hand_a__number", "hand_b__number")
    )
    if not matches:
        return
    round_ = matches[0].round
    number = hand.number_label
    mine = {}
    for match in matches:
        for player in _players(match):
            mine.setdefault(player.pk, (player, []))[1].append(match)
    path = reverse("scoring:results", args=[round_.pk])
    if disqualified:
        what = f"hand {number} was disqualified after results were reported"
        verb = "no longer count"
    else:
        what = f"hand {number} was replaced by a similar hand after results were reported"
        verb = "need a new result"

    def build(user):
        own = mine[user.pk][1]
        labels = ", ".join(f"{m.hand_a.number_label} v {m.hand_b.number_label}" for m in own)
        count = f"{len(own)} match{'es' if len(own) != 1 else ''}"
        return Notice(
            text=f"{round_.code}: {what} (rule 4.2a): {count} of yours {verb} ({labels}).",
            path=f"{path}?rows=mine" if not disqualified else path,
            subject=f"[PHM] {round_.code}: {count} of yours {verb}",
            template="scoring/email/needs_result.txt",
            context={
                "round": round_,
                "what": what,
                "verb": verb,
                "matches": own,
                "disqualified": disqualified,
            },
            action_label="See the results" if disqualified else "Report again",
        )

    outbox.notify(
        [player for player, _ in mine.values()], kind="match.needs_result", round_=round_, build=build
    )


def _current_reports(match):
    """The two players' current reports, as (player name, "a-b") — what each side said."""
    reports = MatchReport.objects.filter(match=match, is_current=True, side__in=["a", "b"]).order_by("side")
    names = {"a": player_display_name(match.hand_a.player), "b": player_display_name(match.hand_b.player)}
    return [(names[report.side], f"{report.points_a}-{report.points_b}") for report in reports]


# Round events (domain signals sent inside their transactions) ----------------------------------------------


def notice_round(round_id: int) -> Round:
    """The round a notice is about, with its league."""
    return Round.objects.select_related("league").get(pk=round_id)


def table_hands(round_id: int) -> list[Hand]:
    """The round's hands in its table (not disqualified), in number order, their players' profiles loaded."""
    return list(
        Hand.objects.filter(round_id=round_id)
        .exclude(status=HandStatus.DISQUALIFIED)
        .select_related("player__profile")
        .order_by("number", "pk")
    )


@receiver(hand_signals.hands_revealed, dispatch_uid="scoring.notify_hands_revealed")
def hands_revealed(sender, round_id, **kwargs):
    round_ = notice_round(round_id)
    hands = table_hands(round_id)
    results = reverse("scoring:results", args=[round_id])
    hand_of = {hand.player_id: hand for hand in hands}
    outbox.notify(
        [hand.player for hand in hands],
        kind="hands.revealed",
        round_=round_,
        build=lambda user: Notice(
            text=f"Hands posted for {round_.code} {round_.title}: score your row now.",
            path=f"{results}?rows=mine",
            subject=f"[PHM] {round_.code} hands posted: score your row now",
            template="scoring/email/hands_revealed.txt",
            context={"round": round_, "hand": hand_of[user.pk], "opponents": len(hands) - 1},
            action_label="Score your row",
        ),
    )


@receiver(signals.round_finalized, dispatch_uid="scoring.notify_results_final")
def results_final(sender, round_id, earlier=None, **kwargs):
    if earlier is not None:
        return  # final again after a reopening: scoring.correction_notices says what changed
    round_ = notice_round(round_id)
    table = results_table(round_, cells=False)
    standings = league_standings(round_.league)
    row_of = {row.hand.player_id: row for row in table.rows}
    place_of = {row.player.pk: row for row in standings.rows}
    path = reverse("scoring:results", args=[round_id])
    outbox.notify(
        [row.hand.player for row in table.rows],
        kind="results.final",
        round_=round_,
        build=lambda user: Notice(
            text=(
                f"{round_.code} {round_.title} is final: you ranked {row_of[user.pk].rank} with "
                f"{row_of[user.pk].points} PT, {row_of[user.pk].league_points} League points."
            ),
            path=f"{path}?rows=mine",
            subject=f"[PHM] {round_.code} results final: you ranked {row_of[user.pk].rank}",
            template="scoring/email/results_final.txt",
            context={
                "round": round_,
                "row": row_of[user.pk],
                "top": table.by_rank[:STANDINGS_SHOWN],
                "standings": standings.rows[:STANDINGS_SHOWN],
                "my_standing": place_of.get(user.pk),
                "league_url": reverse("scoring:league", args=[round_.league_id]),
            },
            action_label="See the results",
        ),
    )


@receiver(signals.winners_declared, dispatch_uid="scoring.notify_winners_declared")
def winners_declared(sender, league_id, before=(), **kwargs):
    if before:
        return  # other winners than those announced: scoring.correction_notices tells the change
    league = League.objects.get(pk=league_id)
    standings = league_standings(league)
    winners = [player_display_name(user) for user in league.winners.select_related("profile")]
    place_of = {row.player.pk: row for row in standings.rows}
    path = reverse("scoring:league", args=[league_id])
    players = [row.player for row in standings.rows]
    outbox.notify(
        players,
        kind="league.finished",
        league=league,
        build=lambda user: Notice(
            text=f"{league.name} is finished: {' and '.join(winners)} won.",
            path=path,
            subject=f"[PHM] {league.name} is finished: {' and '.join(winners)} won",
            template="scoring/email/league_finished.txt",
            context={
                "league": league,
                "winners": winners,
                "standings": standings.rows[:STANDINGS_SHOWN],
                "my_standing": place_of.get(user.pk),
            },
            action_label="See the standings",
        ),
    )
