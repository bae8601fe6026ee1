"""Matching names posted on the forum to accounts: exactly (a username or a forum name, any case) or nearly
("Suberbajt" is one letter from "Superbajt"), so an import never silently makes a second account for someone
whose name was mistyped. Near matches are only suggestions: a person decides."""

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.functions import Lower
from rapidfuzz import process
from rapidfuzz.distance import OSA

from .models import Profile

# One typo in a name of 5+ characters (a swap counts as one, OSA): 1 - 1/5 = 0.8. Shorter names only match
# exactly: "Bob" and "Rob" are different people far more often than a typo.
NEAR_MATCH_SIMILARITY = 0.8
NEAR_MATCH_LIMIT = 3


@dataclass(frozen=True)
class Candidate:
    """An account a posted name may mean, and the name it was matched by."""

    user_id: int
    username: str
    forum_name: str

    @property
    def label(self):
        if self.forum_name and self.forum_name.casefold() != self.username.casefold():
            return f"{self.forum_name} ({self.username})"
        return self.username


@dataclass
class NameMatch:
    posted: str
    exact: object = None  # the user whose username or forum name is the posted name
    near: list[Candidate] = field(default_factory=list)


def exact_matches(names):
    """{casefolded name: user} for the names that are a username or a forum name, any case (two queries). A
    forum name outranks a username: the forum name is what the forum showed."""
    User = get_user_model()
    lowered = {name.lower() for name in names if name}
    folded = {name.casefold() for name in names if name}
    found = {}
    for user in User.objects.annotate(key=Lower("username")).filter(key__in=lowered):
        found.setdefault(user.username.casefold(), user)
    profiles = Profile.objects.annotate(key=Lower("forum_username")).filter(key__in=lowered)
    for profile in profiles.select_related("user"):
        found[profile.forum_username.casefold()] = profile.user
    return {key: user for key, user in found.items() if key in folded}


def _candidates():
    """Every account's username and forum name (one query)."""
    rows = get_user_model().objects.values_list("pk", "username", "profile__forum_username")
    return [Candidate(pk, username, forum_name or "") for pk, username, forum_name in rows]


def match_names(names):
    """{casefolded name: NameMatch}: the exact account, or up to three near ones, for each posted name."""
    names = [name for name in dict.fromkeys(names) if name]
    exact = exact_matches(names)
    unmatched = [name for name in names if name.casefold() not in exact]
    candidates = _candidates() if unmatched else []
    # Both spellings of each account are searched; a hit on either names the account once.
    choices = {}
    for position, candidate in enumerate(candidates):
        choices[(position, "u")] = candidate.username.casefold()
        if candidate.forum_name:
            choices[(position, "f")] = candidate.forum_name.casefold()
    result = {}
    for name in names:
        key = name.casefold()
        match = NameMatch(posted=name, exact=exact.get(key))
        if match.exact is None and len(key) >= 5:
            hits = process.extract(
                key,
                choices,
                scorer=OSA.normalized_similarity,
                score_cutoff=NEAR_MATCH_SIMILARITY,
                limit=NEAR_MATCH_LIMIT * 2,
            )
            seen = set()
            for _, _, (position, _) in sorted(hits, key=lambda hit: -hit[1]):
                if position not in seen and len(seen) < NEAR_MATCH_LIMIT:
                    seen.add(position)
                    match.near.append(candidates[position])
        result[key] = match
    return result


def accounts_named(name):
    """The accounts whose username or forum name is `name`, any case, with their profiles (one query). More
    than one when one person's forum name is another's username (or two usernames differ only in case)."""
    typed = str(name or "").strip()
    if not typed:
        return []
    return list(
        get_user_model()
        .objects.annotate(key=Lower("username"), forum_key=Lower("profile__forum_username"))
        .filter(Q(key=typed.lower()) | Q(forum_key=typed.lower()))
        .select_related("profile")
        .order_by("pk")
    )
