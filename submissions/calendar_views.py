"""A player's own calendar: GET /calendar/<token>.ics, no login — the secret in the link is the key
(accounts.CalendarToken; replaced from the profile page, after which the old link answers 404). It lists the
deadlines of the leagues the player has a hand in or follows; the file is built by rounds.calendars, as the
league calendars are."""

from django.http import Http404
from django.utils import timezone

from accounts.services import user_for_calendar_token
from rounds.calendars import calendar_response

from .selectors import calendar_rounds


def personal_calendar(request, token):
    user = user_for_calendar_token(token)
    if user is None:
        raise Http404("No calendar at this address: the link is unknown or was replaced.")
    return calendar_response(
        calendar_rounds(user, timezone.now()),
        name="PHM deadlines",
        description="Round deadlines of the PHM leagues you play in or follow.",
        filename="phm-my-deadlines.ics",
        request=request,
        private=True,
    )
