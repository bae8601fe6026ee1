"""A match's status and standing result, derived from what is known about it (rules 6.3-6.3c).

Deterministic and without side effects: services call it after every change, finalization and reopening call
it
for every match, so reopening a round gives back exactly the statuses it had.
"""

from dataclasses import dataclass

from .models import MatchStatus


@dataclass(frozen=True)
class Standing:
    status: str
    points_a: int | None
    points_b: int | None


def derive(*, side_a=None, side_b=None, decision=None, challenged=False, final=False, needs_result=False):
    """`side_a`/`side_b`: the (points_a, points_b) each player reported, or None; `decision`: the moderator's
    (points_a, points_b) or None; `challenged`: an open challenge exists; `final`: the round is final;
    `needs_result`: a hand was replaced (4.2a) after results existed, and nothing was reported since."""
    if decision is not None:
        status, result = MatchStatus.SET, decision
    elif side_a is not None and side_b is not None:
        status, result = (MatchStatus.AGREED, side_a) if side_a == side_b else (MatchStatus.DISPUTED, None)
    elif side_a is not None or side_b is not None:
        status, result = MatchStatus.REPORTED, side_a or side_b
    else:
        status, result = (MatchStatus.NEEDS_RESULT if needs_result else MatchStatus.UNREPORTED), None
    if challenged:
        status = MatchStatus.CHALLENGED
    standing = Standing(status, *(result or (None, None)))
    return as_final(standing) if final else standing


def as_final(standing):
    """Rule 6.3b: a result still undetermined when the round is final is a loss for both: 0-0."""
    if standing.points_a is None:
        return Standing(MatchStatus.FINAL, 0, 0)
    return Standing(MatchStatus.FINAL, standing.points_a, standing.points_b)
