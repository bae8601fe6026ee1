from functools import cached_property

from django.contrib.auth.models import AnonymousUser

from .services import is_moderator


class Viewer:
    """What the navbar needs to know about the viewer, computed on first use (at most one query)."""

    def __init__(self, user):
        self.user = user

    @cached_property
    def is_moderator(self):
        return is_moderator(self.user)


def viewer(request):
    # No user on a request refused before the authentication middleware ran (a disallowed Host: the 400 page).
    return {"viewer": Viewer(getattr(request, "user", None) or AnonymousUser())}
