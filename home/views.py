"""My PHM: the home page of a logged-in person. `phm.views.home` shows it to logged-in visitors
and the marketing page to everyone else, at the same address."""

from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from submissions.selectors import player_display_name

from .moderator_home import MAIL_STALE_AFTER, moderator_home
from .player_home import player_home


@never_cache  # the page shows the viewer's own hands and to-do list: no shared cache may keep it
def my_phm(request):
    now = timezone.now()
    context = {
        "display_name": player_display_name(request.user),
        "mine": player_home(request.user, now),
        "todo": moderator_home(request.user, now),
        "mail_stale_minutes": int(MAIL_STALE_AFTER.total_seconds() // 60),
    }
    return render(request, "home/my_phm.html", context)
