"""Read helpers for leagues and rounds."""

from .models import Round, RoundState

RECENT_ROUNDS_SHOWN = 10


def open_rounds(now):
    """Rounds accepting hands at `now`, soonest deadline first."""
    return list(
        Round.objects.select_related("league")
        .filter(state=RoundState.OPEN, deadline__gt=now)
        .order_by("deadline")
    )


def recent_rounds(now, limit=RECENT_ROUNDS_SHOWN):
    """Rounds past their deadline (revealed or final), most recent deadline first."""
    past_deadline = Round.objects.select_related("league").filter(
        state__in=[RoundState.OPEN, RoundState.REVEALED, RoundState.FINAL], deadline__lte=now
    )
    return list(past_deadline.order_by("-deadline")[:limit])
