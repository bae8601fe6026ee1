"""How a person is named to others: by the name other players know them by (the forum name), the login name
only as the fallback. The one place that decides it: the profile, the templates' `display_name` filter and
every page, notice and payload that names a player call it. Pages that list many people select `profile`
with the user, so this costs no query."""

from typing import Any

from django.core.exceptions import ObjectDoesNotExist


def display_name(user: Any) -> str:
    """The forum name, else the username; "" for no one (None)."""
    if user is None:
        return ""
    try:
        profile = user.profile
    except (ObjectDoesNotExist, AttributeError):
        profile = None
    if profile is not None and profile.forum_username:
        return profile.forum_username
    return user.get_username() if hasattr(user, "get_username") else str(user)
