"""Leagues: create one, change its settings. Every change is audited."""

import re
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from audit.services import log_action
from phm.text import clean_name

from .. import signals
from ..models import League
from ..permissions import can_manage_league
from .errors import RoundConflict, RoundInputError

# The highest league number (the forum is at a few dozen; the column holds 2,147,483,647).
MAX_LEAGUE_NUMBER = 999_999
# The community's own form of a numbered league's name: "League 45". Only a name that is exactly that sets the
# number — in any case, since names are unique whatever their case ("league 45" is the same name); a name that
# merely ends in digits ("Summer Cup 2") does not. Any other name gets a number only from the number field.
# Leagues numbered before by a trailing number keep it: their round codes are already posted and searched for,
# and nothing stored tells a wanted number from an accidental one (no data migration).
_NUMBERED_LEAGUE_NAME = re.compile(r"league\s+([0-9]+)", re.IGNORECASE)


def league_number_from_name(name: str) -> int | None:
    """ "League 45" → 45: the forum numbers leagues, and round codes (45:01) use that number. None for any
    other name ("Summer Cup 2" included). Digits beyond MAX_LEAGUE_NUMBER are returned as they are;
    league_number_problem names them."""
    match = _NUMBERED_LEAGUE_NAME.fullmatch(name.strip())
    if not match:
        return None
    digits = match.group(1).lstrip("0") or "0"
    # Past the limit's length the exact value does not matter (and int() of thousands of digits would refuse).
    return int(digits) if len(digits) <= len(str(MAX_LEAGUE_NUMBER)) else MAX_LEAGUE_NUMBER + 1


def league_number_problem(number: int | None) -> str | None:
    """Why `number` cannot be a league's number, or None."""
    if number is not None and number > MAX_LEAGUE_NUMBER:
        return (
            f"A league's number (the number in “League 45”) goes up to {MAX_LEAGUE_NUMBER:,}: "
            "choose a smaller number."
        )
    return None


def _league_number(name, number, errors):
    """The new league's number: the explicit `number`, else the one its name gives ("League 45"), else None.
    Problems go to `errors` under the field that set the number."""
    from_name = league_number_from_name(name)
    field = "name"
    if number is not None:
        field = "number"
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            errors["number"] = ["A league's number is a whole number from 1, as in round codes (45:01)."]
            return None
        if from_name is not None and from_name != number:
            errors["number"] = [
                f"The name “{name}” says league {from_name}: leave the number empty, or make them agree."
            ]
            return None
    else:
        number = from_name
    problem = league_number_problem(number)
    if problem:
        errors[field] = [problem]
    elif number is not None and League.objects.filter(number=number).exists():
        errors[field] = [f"League number {number} is already taken."]
    return number


MAX_TIEBREAK_ROUNDS = 20


def _clean_tiebreak_rounds_allowed(value, errors):
    """Rule 5.3a: "until a specified number of additional rounds have been played" — 0 to 20."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TIEBREAK_ROUNDS:
        errors["tiebreak_rounds_allowed"] = [
            f"Give the number of tie-break rounds allowed, from 0 to {MAX_TIEBREAK_ROUNDS} (rule 5.3a)."
        ]
    return value


@transaction.atomic
def update_league(*, actor: User, league_id: int, tiebreak_rounds_allowed: int | None = None) -> League:
    """Change a league's settings (the tie-break rounds allowed, 5.3a); audited. Scoring settles the league's
    computed winners again in the same transaction (signals.league_changed)."""
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None:
        raise League.DoesNotExist("No such league.")
    if not can_manage_league(actor, league):
        raise RoundConflict("Only a moderator of this league can change it.")
    errors: dict[str, list[str]] = {}
    before: dict[str, int] = {}
    after: dict[str, int] = {}
    if tiebreak_rounds_allowed is not None:
        _clean_tiebreak_rounds_allowed(tiebreak_rounds_allowed, errors)
        if not errors and tiebreak_rounds_allowed != league.tiebreak_rounds_allowed:
            before["tiebreak_rounds_allowed"] = league.tiebreak_rounds_allowed
            after["tiebreak_rounds_allowed"] = league.tiebreak_rounds_allowed = tiebreak_rounds_allowed
    if errors:
        raise RoundInputError(errors)
    if after:
        league.save(update_fields=list(after))
        log_action(league, "league.changed", actor=actor, before=before, after=after)
        signals.league_changed.send(sender=League, league_id=league.pk, actor=actor)
    return league


@transaction.atomic
def create_league(
    *,
    actor: User | None,
    name: str,
    rounds_planned: int = 4,
    moderators: Sequence[User] = (),
    tiebreak_rounds_allowed: int = 1,
    number: int | None = None,
) -> League:
    """A new league. Its number (round codes 45:01) is `number` when given, else the one a name in the
    community's form gives ("League 45"), else none (round codes then read "Summer Cup #01")."""
    name = clean_name(name)
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = ["A league needs a name, such as “League 45”."]
    elif League.objects.filter(name__iexact=name).exists():
        errors["name"] = [f"There is already a league called “{name}”."]
    number_errors: dict[str, list[str]] = {}
    number = _league_number(name, number, number_errors)
    for field, problems in number_errors.items():
        errors.setdefault(field, problems)
    if not isinstance(rounds_planned, int) or rounds_planned < 1:
        errors["rounds_planned"] = ["Plan at least one round."]
    _clean_tiebreak_rounds_allowed(tiebreak_rounds_allowed, errors)
    if errors:
        raise RoundInputError(errors)
    league = League.objects.create(
        name=name,
        number=number,
        rounds_planned=rounds_planned,
        tiebreak_rounds_allowed=tiebreak_rounds_allowed,
    )
    if moderators:
        league.moderators.set(moderators)
    log_action(
        league,
        "league.created",
        actor=actor,
        after={
            "name": name,
            "number": number,
            "rounds_planned": rounds_planned,
            "tiebreak_rounds_allowed": tiebreak_rounds_allowed,
            "moderators": [m.username for m in moderators],
        },
    )
    return league
