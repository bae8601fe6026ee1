"""League pages: the list of leagues, a league's standings with its chart, its exports, and the moderator's
end-of-league actions (tie-break round, winners)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from phm.downloads import BBCODE, CSV, download
from rounds.models import League
from rounds.moderation_views import moderator_required
from rounds.permissions import can_manage_league
from rounds.selectors import is_following
from rounds.services.errors import RoundInputError
from rounds.services.leagues import update_league

from .charts.line import line_chart
from .league_overview import league_summaries
from .services.errors import SCORING_ERRORS, ScoringNotFound, message_for
from .services.league import add_tiebreak_round, declare_winners, winners_refusal
from .standings import league_standings
from .standings_exports import standings_bbcode, standings_csv


def league_list(request):
    return render(request, "scoring/league_list.html", {"summaries": league_summaries()})


def league_detail(request, league_id):
    league = get_object_or_404(League, pk=league_id)
    standings = league_standings(league)
    series = standings.chart_series()
    chart = (
        line_chart(
            series,
            title=f"League points per round, top {len(series)}",
            y_label="League points",
            x_labels=[round_.code for round_ in standings.rounds],
        )
        if series and standings.rounds
        else ""
    )
    race = standings.cumulative_series()
    cumulative_chart = (
        line_chart(
            race,
            title=f"Standings after each round, top {len(race)}",
            y_label="League points in all",
            x_labels=[round_.code for round_ in standings.rounds],
        )
        if race and standings.rounds
        else ""
    )
    can_manage = can_manage_league(request.user, league)
    context = {
        "league": league,
        "standings": standings,
        "chart": chart,
        "cumulative_chart": cumulative_chart,
        "can_manage": can_manage,
        # A moderator who plays in the league is not offered the declaration while someone else can make it.
        "winners_refusal": winners_refusal(request.user, league) if can_manage else "",
        "following": is_following(request.user, league),
        "bbcode": standings_bbcode(standings),
    }
    return render(request, "scoring/league.html", context)


def league_export(request, league_id, kind):
    league = get_object_or_404(League, pk=league_id)
    standings = league_standings(league)
    slug = f"phm-league-{league.number or league.pk}-standings"
    if kind == "csv":
        return download(standings_csv(standings), f"{slug}.csv", CSV)
    return download(standings_bbcode(standings), f"{slug}.bbcode", BBCODE)


@moderator_required
@require_POST
def league_tiebreak(request, league_id):
    try:
        round_ = add_tiebreak_round(actor=request.user, league_id=league_id)
    except ScoringNotFound:
        raise Http404("No such league.") from None
    except SCORING_ERRORS as error:
        messages.error(request, message_for(error))
        return redirect("scoring:league", league_id)
    messages.success(
        request, f"Tie-break round {round_.code} created as a draft: set its rules, then open it."
    )
    return redirect("rounds:moderate-round-edit", round_.pk)


@moderator_required
@require_POST
def league_winners(request, league_id):
    try:
        league = declare_winners(
            actor=request.user,
            league_id=league_id,
            usernames=request.POST.getlist("winners"),
            note=request.POST.get("note", ""),
        )
    except ScoringNotFound:
        raise Http404("No such league.") from None
    except SCORING_ERRORS as error:
        messages.error(request, message_for(error))
        return redirect("scoring:league", league_id)
    messages.success(request, f"The winners of {league.name} are declared.")
    return redirect("scoring:league", league_id)


@moderator_required
@require_POST
def league_settings(request, league_id):
    """The league's tie-break rounds allowed (5.3a), from the league page."""
    league = get_object_or_404(League, pk=league_id)
    if not can_manage_league(request.user, league):
        raise Http404("No such league.")
    try:
        allowed = int(request.POST.get("tiebreak_rounds_allowed", ""))
    except ValueError:
        messages.error(request, "Give the number of tie-break rounds allowed as a whole number, e.g. 1.")
        return redirect("scoring:league", league_id)
    try:
        update_league(actor=request.user, league_id=league.pk, tiebreak_rounds_allowed=allowed)
    except RoundInputError as error:
        messages.error(request, " ".join(" ".join(reasons) for reasons in error.errors.values()))
        return redirect("scoring:league", league_id)
    messages.success(request, f"{league.name} allows {allowed} tie-break round{'s' if allowed != 1 else ''}.")
    return redirect("scoring:league", league_id)
