"""Following a league: its followers are told when its rounds open, and get its deadlines in their
calendar."""

from django.contrib.auth.models import User

from ..models import League


def follow_league(user: User, league_id: int) -> League:
    """`user` follows the league: told when its rounds open, its deadlines in their calendar. Idempotent.
    Returns the league; League.DoesNotExist when there is none."""
    league = League.objects.get(pk=league_id)
    league.followers.add(user)
    return league


def unfollow_league(user: User, league_id: int) -> League:
    """`user` stops following the league (idempotent). Returns the league; League.DoesNotExist when none."""
    league = League.objects.get(pk=league_id)
    league.followers.remove(user)
    return league
