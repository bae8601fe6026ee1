"""How a person is shown on a page: by the name other players know them by (the forum name), the login name
only as the fallback. Pages that list many people select `profile` with the user, so this costs no query."""

from django import template
from django.core.exceptions import ObjectDoesNotExist

register = template.Library()


def display_name_of(user):
    if user is None:
        return ""
    try:
        profile = user.profile
    except (ObjectDoesNotExist, AttributeError):
        profile = None
    if profile is not None and profile.forum_username:
        return profile.forum_username
    return user.get_username() if hasattr(user, "get_username") else str(user)


@register.filter(name="display_name")
def display_name(user):
    """`{{ report.reporter|display_name }}`: the forum name, else the username; "" for no one."""
    return display_name_of(user)
