"""Match outcomes and League points (rules 1, 5.2, 6).

A match is two games: a win scores 3, a draw 1, a loss 0, but a symmetrical match (one win each, or two draws)
scores 2 for each hand. So the two hands of a match always score one of these pairs.
"""

import math
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Outcome:
    points: int  # the side whose point of view this is
    opponent_points: int
    games: str  # what happened in the two games, from the same side

    @property
    def label(self):
        return f"{self.points}-{self.opponent_points}"


OUTCOMES = (
    Outcome(6, 0, "win-win"),
    Outcome(4, 1, "win-draw"),
    Outcome(2, 2, "one win each, or two draws"),
    Outcome(1, 4, "draw-loss"),
    Outcome(0, 6, "loss-loss"),
)

# The other side's points for each possible score of one side.
OPPONENT_POINTS = {outcome.points: outcome.opponent_points for outcome in OUTCOMES}
POINTS_VALUES = tuple(OPPONENT_POINTS)
# The same values as (value, label) choices: the API schema names this one choice set (MatchPointsEnum).
POINTS_CHOICES = [(value, value) for value in POINTS_VALUES]
LEGAL_PAIRS = frozenset((outcome.points, outcome.opponent_points) for outcome in OUTCOMES)


def is_legal_pair(points, opponent_points):
    return (points, opponent_points) in LEGAL_PAIRS


def outcome_for(points):
    """The outcome in which one side scores `points`; None when no match can score that."""
    return next((outcome for outcome in OUTCOMES if outcome.points == points), None)


def league_points(points, opponents):
    """Rule 5.2: points / opponents x 100, rounded half up (12.5 → 13; never banker's rounding).
    Exact arithmetic: 1 point over 8 opponents is 12.5 exactly and becomes 13."""
    if opponents <= 0:
        return 0
    value = Fraction(points * 100, opponents)
    return math.floor(value + Fraction(1, 2))


def shared_ranks(values):
    """Competition ranks for values sorted best first: equal values share a rank (1, 2, 2, 4)."""
    ranks = []
    for position, value in enumerate(values, start=1):
        ranks.append(ranks[-1] if ranks and value == values[position - 2] else position)
    return ranks
