"""Who each entry's posted name will be: the account the moderator chose, the account of that name, one to
decide among near matches, or a new account, named from the forum name."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from accounts.matching import match_names

from .results import PlayerChoice, PostImport

_USERNAME_JUNK = re.compile(r"[^\w.@+-]+")


def derive_username(forum_name: str, is_taken: Callable[[str], bool]) -> str:
    """An account name for a forum name: only characters Django accepts, and free (`is_taken(name)` says
    whether a name is used, case-insensitively): `The Moderator` -> `The_Moderator`, else `The_Moderator-2`.
    """
    base = _USERNAME_JUNK.sub("_", forum_name.strip()).strip("_")[:140] or "player"
    candidate, suffix = base, 1
    while is_taken(candidate):
        suffix += 1
        candidate = f"{base}-{suffix}"
    return candidate


class PlayerChooser:
    """The players of one post's entries, asked for in entry order: `chosen_players` maps a posted name to
    the username the moderator chose ("" or None: a new account). A chosen account that does not exist is
    a problem added to `result`. New accounts get names free of each other's."""

    def __init__(self, result: PostImport, posted_names: Iterable[str], chosen_players: dict) -> None:
        self.matches = match_names(list(posted_names))
        self.chosen = {str(name).casefold(): value for name, value in chosen_players.items()}
        self.chosen_users = _chosen_users(result, self.chosen)
        self.planned: set[str] = set()

    def choice(self, posted: str) -> PlayerChoice:
        key = posted.casefold()
        match = self.matches.get(key)
        near = list(match.near) if match is not None else []
        if key in self.chosen:
            value = self.chosen[key]
            if value:
                user = self.chosen_users.get(str(value).casefold())
                if user is not None:
                    return PlayerChoice(posted, user=user, kind="chosen", near=near)
            else:
                return PlayerChoice(posted, kind="create", near=near, new_username=self._new_username(posted))
        if match is not None and match.exact is not None:
            return PlayerChoice(posted, user=cast(User, match.exact), kind="exact")
        if match is not None and match.near:
            return PlayerChoice(posted, kind="near", near=match.near)
        return PlayerChoice(posted, kind="new", new_username=self._new_username(posted))

    def _new_username(self, posted):
        User = get_user_model()
        planned = self.planned

        def is_taken(name):
            return name.casefold() in planned or User.objects.filter(username__iexact=name).exists()

        username = derive_username(posted, is_taken) if posted else ""
        planned.add(username.casefold())
        return username


def _chosen_users(result: PostImport, chosen: dict) -> dict[str, User]:
    """{casefolded username: user} for the accounts the moderator chose by name."""
    usernames = {value for value in chosen.values() if value}
    users = {
        user.get_username().casefold(): user
        for user in get_user_model().objects.filter(username__in=usernames).select_related("profile")
    }
    for username in usernames:
        if username.casefold() not in users:
            result.add("unknown_account", f"There is no account named \u201c{username}\u201d.", "players")
    return users
