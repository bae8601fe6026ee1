"""Pages for results: the round's table (matrix, ranks, the player's row box), a match with its reports and
challenges (the moderator's page of a round: scoring.moderation_views). Nothing of the results exists before
the reveal: the round's results page then says when they open (and nothing of the hands), the rest is 404."""

from collections import Counter

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from audit.selectors import audit_trail
from rounds.permissions import can_manage_league
from submissions.selectors import is_playing, is_revealed

from . import match_workbench, matrix_html, selectors
from .models import Challenge
from .outcomes import OUTCOMES
from .services.access import challenge_refusal, own_match_refusal, scoring_round, visible_match
from .services.decisions import challenge_match, resolve_challenge, set_result
from .services.errors import SCORING_ERRORS, ScoringInputError, ScoringNotFound, message_for
from .services.reports import (
    StatedTotalsDiffer,
    agree_with_opponent,
    opponent_claim,
    report_match,
    report_row,
    side_of,
)
from .services.table_build import table_or_progress


def round_or_404(round_id):
    """The round of a results page (not a draft), else a 404."""
    try:
        return scoring_round(round_id)
    except ScoringNotFound:
        raise Http404("No such round.") from None


@never_cache
@require_http_methods(["GET", "POST"])
def results(request, round_id):
    """The round table; a player may paste their whole row here (POST)."""
    round_ = round_or_404(round_id)
    now = timezone.now()
    if not is_revealed(round_, now):
        return _results_not_open(request, round_, now)
    row_text, row_error, row_totals_warning = "", "", ""
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        row_text = request.POST.get("row", "")
        # Stated totals its cells do not give stop the row until the player has seen which figure differs and
        # sends the same row again with "Report the cells" (the cells count).
        confirmed = request.POST.get("confirmed_row") == row_text
        try:
            outcome = report_row(
                player=request.user, round_id=round_.pk, row=row_text, stop_if_totals_differ=not confirmed
            )
        except ScoringNotFound:
            raise Http404("No results yet.") from None
        except StatedTotalsDiffer as error:
            row_totals_warning = message_for(error)
        except SCORING_ERRORS as error:
            row_error = message_for(error)
        else:
            count = len(outcome.reports)
            messages.success(request, f"Your row is reported: {count} match{'es' if count != 1 else ''}.")
            for sentence in outcome.warnings:
                messages.warning(request, sentence)
            for sentence in outcome.skipped:
                messages.info(request, sentence)
            return redirect("scoring:results", round_.pk)
    progress = table_or_progress(round_, now)
    if progress is None:
        raise Http404("The results of this round are not open yet.")
    if not progress.ready:
        return _table_being_built(request, round_, progress)
    if request.headers.get("HX-Request") == "true":
        # The progress section polls this page: the table is ready, so the whole page is reloaded.
        return HttpResponse(headers={"HX-Refresh": "true"})
    try:
        page = matrix_html.render_for(round_, now)
    except ScoringNotFound:
        raise Http404("The results of this round are not open yet.") from None
    mine = selectors.my_entry_number(round_, request.user)
    mine = mine if mine in page.row_texts else None
    inline = len(page.numbers) <= matrix_html.INLINE_HANDS
    only_mine = request.GET.get("rows") == "mine" and mine is not None and inline
    context = {
        **_page_context(request, round_, page, mine),
        # Above INLINE_HANDS hands the page shows the viewer's row and the ranking; the full matrix is a link.
        "matrix": page.matrix(mine, only_mine=only_mine or not inline) if inline or mine else "",
        "inline": inline,
        "only_mine": only_mine,
        "ranking": page.ranking(mine),
        "row_text": row_text or (page.row_texts[mine] if mine else ""),
        "row_error": row_error,
        "row_totals_warning": row_totals_warning,
        "outcomes": OUTCOMES,
        "by_players": selectors.decisions_by_players(round_),
        "chart": mark_safe(page.chart),  # noqa: S308 - charts.bar_chart escaped every label
    }
    return render(request, "scoring/results.html", context)


def _page_context(request, round_, page, mine):
    return {
        "round": round_,
        "table": selectors.ResultsTable(
            round_, [], final=round_.state == "final", stale=False, status_counts=Counter(page.status_counts)
        ),
        "hand_count": len(page.numbers),
        "my_number": mine,
        "can_manage": can_manage_league(request.user, round_.league),
    }


@never_cache
@require_GET
def results_matrix(request, round_id):
    """The full matrix on its own (the results page links to it above `matrix_html.INLINE_HANDS` hands): a
    page of its own, or only the table when htmx asks for it. The same visibility as the results page: 404
    before the reveal."""
    round_ = round_or_404(round_id)
    now = timezone.now()
    progress = table_or_progress(round_, now) if is_revealed(round_, now) else None
    if progress is None:
        raise Http404("The results of this round are not open yet.")
    if not progress.ready:
        return redirect("scoring:results", round_.pk)
    page = matrix_html.render_for(round_, now)
    mine = selectors.my_entry_number(round_, request.user)
    context = {**_page_context(request, round_, page, mine), "matrix": page.matrix(mine)}
    fragment = request.headers.get("HX-Request") == "true"
    response = render(request, "scoring/_matrix.html" if fragment else "scoring/results_matrix.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _table_being_built(request, round_, progress):
    """A large round's match table is built in the background: how far it is, instead of waiting for it."""
    context = {"round": round_, "progress": progress}
    return render(request, "scoring/results_building.html", context)


def _results_not_open(request, round_, now):
    """Before the deadline: when the results open, and where to go meanwhile. Nothing about the hands (not
    even how many): only the viewer's own hand, as a link. A row posted now is refused with 409."""
    accepting = round_.accepts_hands_at(now)
    context = {
        "round": round_,
        "accepting": accepting,
        "has_hand": is_playing(request.user, round_),
        "can_manage": can_manage_league(request.user, round_.league),
    }
    status = 409 if request.method == "POST" else 200
    return render(request, "scoring/results_not_open.html", context, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
def match_detail(request, match_id):
    try:
        match = visible_match(match_id)
    except ScoringNotFound:
        raise Http404("No such match.") from None
    errors, values = {}, {}
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        action = request.POST.get("action", "")
        values = request.POST
        try:
            done = _match_action(request, match, action)
        except SCORING_ERRORS as error:
            errors[action] = message_for(error)
        else:
            messages.success(request, done)
            return redirect("scoring:match", match.pk)
        match = visible_match(match_id)
    history = selectors.match_history(match)
    for report in history["reports"]:
        report.words = match_workbench.result_words(match, report.points_a, report.points_b)
    side = side_of(request.user, match) if request.user.is_authenticated else None
    versions = selectors.current_versions([match.hand_a_id, match.hand_b_id])
    my_report = next(
        (r for r in history["reports"] if r.is_current and r.reporter_id == request.user.pk), None
    )
    # Agreeing changes nothing while the moderator's result stands: no claim is offered then.
    claim = None if match.has_decision else opponent_claim(match, history["reports"], request.user.pk)
    can_manage = can_manage_league(request.user, match.round.league)
    by_players = selectors.match_decisions_by_players(match)
    for hand in (match.hand_a, match.hand_b):
        hand.reviews_by_player = by_players["reviews"].get(hand.pk, [])
    context = {
        "match": match,
        "by_players": by_players,
        # A moderator who played this match leaves its decisions to someone else who can manage the league.
        "decide_refusal": own_match_refusal(request.user, match) if can_manage else "",
        # Rule 6.3c: only the league's players and moderators challenge; the page says so instead of a button.
        "challenge_refusal": ""
        if can_manage or not request.user.is_authenticated
        else challenge_refusal(request.user, match),
        "round": match.round,
        "history": history,
        "side": side,
        "sides": match_workbench.sides(match, versions, request.user.pk),
        "starting_convention": match_workbench.STARTING_PLAYER_CONVENTION,
        "side_reports": [(match.hand_a, history["side_a"]), (match.hand_b, history["side_b"])],
        "outcomes": match_workbench.result_choices(match, side),
        "moderator_outcomes": match_workbench.result_choices(match, "other"),
        "decided_words": match_workbench.result_words(match, match.decided_points_a, match.decided_points_b)
        if match.has_decision
        else "",
        "my_report": my_report,
        "my_report_value": f"{my_report.points_a}-{my_report.points_b}" if my_report else "",
        # The opponent's report a player of the match has not agreed with: shown with a one-click Agree.
        "claim": claim,
        "claim_words": match_workbench.own_words(side, claim.points_a, claim.points_b) if claim else "",
        "my_words": match_workbench.own_words(side, my_report.points_a, my_report.points_b)
        if claim and my_report
        else "",
        "can_manage": can_manage,
        "final": match.round.state == "final",
        "errors": errors,
        "values": values,
        "trail": audit_trail(match).select_related("actor__profile") if can_manage else [],
    }
    return render(request, "scoring/match.html", context)


def _points(request, prefix=""):
    value = request.POST.get(f"{prefix}result", "")
    points_a, _, points_b = value.partition("-")
    if not value:
        raise ScoringInputError({"result": ["Choose a result."]})
    return points_a, points_b


def _match_action(request, match, action):
    user = request.user
    if action == "report":
        points_a, points_b = _points(request)
        report_match(
            reporter=user,
            match_id=match.pk,
            points_a=points_a,
            points_b=points_b,
            comment=request.POST.get("comment", ""),
        )
        return "Your result is saved." if side_of(user, match) != "other" else "Your verification is saved."
    if action == "agree":
        agree_with_opponent(player=user, match_id=match.pk, report_id=request.POST.get("report", ""))
        return "Saved: your report agrees with your opponent's."
    if action == "challenge":
        challenge_match(challenger=user, match_id=match.pk, reason=request.POST.get("reason", ""))
        return "Your challenge is with the moderator; everyone in the match is told."
    if action == "set":
        points_a, points_b = _points(request)
        set_result(
            actor=user,
            match_id=match.pk,
            points_a=points_a,
            points_b=points_b,
            note=request.POST.get("note", ""),
        )
        return "The result is set."
    if action == "resolve":
        decision = request.POST.get("decision", "")
        points_a, points_b = _points(request) if decision == "upheld" else (None, None)
        resolve_challenge(
            actor=user,
            challenge_id=_challenge_id(request, match),
            decision=decision,
            points_a=points_a,
            points_b=points_b,
            note=request.POST.get("note", ""),
        )
        return f"The challenge is {decision}."
    raise ScoringInputError({"action": ["Unknown action."]})


def _challenge_id(request, match):
    try:
        challenge_id = int(request.POST.get("challenge", ""))
    except ValueError:
        raise ScoringInputError({"challenge": ["Which challenge?"]}) from None
    if not Challenge.objects.filter(pk=challenge_id, match=match).exists():
        raise ScoringNotFound("No such challenge on this match.")
    return challenge_id
