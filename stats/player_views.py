"""Public history pages: a player's rounds and League totals, and the most played cards (overall and per
league). Everything here is public and built from revealed rounds only (see `player_selectors`)."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from rounds.models import League
from scoring.charts.bar import bar_chart
from scoring.charts.line import line_chart

from . import metagame, player_selectors

CHART_CARDS = 15  # the bar chart shows the head of the list; the table below has all of them


def player_detail(request, username):
    player = player_selectors.player_by_username(username)
    if player is None:
        raise Http404("No such player.")
    page = player_selectors.player_page(player, now=timezone.now())
    x_labels, values = page.chart_series
    chart = None
    if page.entries:
        chart = line_chart(
            [("League points", values)],
            title=f"League points per round of {page.display_name}",
            y_label="League points",
            x_labels=x_labels,
        )
    return render(
        request,
        "scoring/player.html",
        {"page": page, "player": player, "chart": chart, "is_me": request.user.pk == player.pk},
    )


def most_played(request):
    return _most_played(request, league=None)


def league_most_played(request, league_id):
    return _most_played(request, league=get_object_or_404(League, pk=league_id))


def _most_played(request, league):
    figures = metagame.most_played(timezone.now(), league_id=league.pk if league else None)
    where = league.name if league else "all leagues"
    chart = None
    if figures.cards:
        chart = bar_chart(
            [(card.name, card.hands) for card in figures.cards[:CHART_CARDS]],
            title=f"Most played cards, {where}: hands playing each card",
            value_label="Hands",
        )
    return render(
        request,
        "scoring/most_played.html",
        {"league": league, "figures": figures, "chart": chart, "chart_cards": CHART_CARDS},
    )
