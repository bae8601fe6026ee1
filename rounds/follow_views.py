"""Following a league from its page (/leagues/<id>/): plain POST forms, then back to the page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from .models import League
from .page_extensions import LEAGUE_PAGE_URL, page_url
from .services import following


@login_required
@require_POST
def league_follow(request, league_id):
    try:
        league = following.follow_league(request.user, league_id)
    except League.DoesNotExist:
        raise Http404("No such league.") from None
    messages.success(
        request,
        f"You follow {league.name}: you are told when its rounds open, and its deadlines are in your "
        "calendar.",
    )
    return redirect(page_url(LEAGUE_PAGE_URL, league.pk))


@login_required
@require_POST
def league_unfollow(request, league_id):
    try:
        league = following.unfollow_league(request.user, league_id)
    except League.DoesNotExist:
        raise Http404("No such league.") from None
    messages.success(request, f"You no longer follow {league.name}.")
    return redirect(page_url(LEAGUE_PAGE_URL, league.pk))
