from functools import cached_property

from .services import is_moderator


class Viewer:
    """What the navbar needs to know about the viewer, computed on first use (at most one query)."""

    def __init__(self, user):
        self.user = user

    @cached_property
    def is_moderator(self):
        return is_moderator(self.user)


def viewer(request):
    return {"viewer": Viewer(request.user)}
