"""The vocabulary of the demo's data (`demo.data`): players, leagues, rounds, hands and what happened
in each round, written the way a moderator would describe it. Times are days relative to the day the demo is
seeded, so the demo stays alive whenever it is built."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Player:
    username: str
    forum_name: str
    time_zone: str
    email: str = ""


@dataclass(frozen=True)
class Version:
    """A hand as a player sent it before their last change."""

    name: str
    cards: str


@dataclass(frozen=True)
class Entry:
    """A player's hand, in the order the hands came in: the n-th entry is hand n at the reveal.

    `cards` as the forum writes them, "Card / Card / Card". `earlier`: versions sent before this one, first
    first. `flag`: the moderator's warning on the first version (before the deadline; the player's change
    lifts it). `notice`: a rule 4.2b notice. `renamed`: the name the moderator gave the hand after the reveal
    (rule 4.3, for a player who did not name it)."""

    player: str
    name: str
    cards: str
    decisions: dict = field(default_factory=dict)
    earlier: tuple = ()
    flag: str = ""
    notice: str = ""
    renamed: str = ""

    @property
    def card_list(self):
        return split_cards(self.cards)


def split_cards(cards):
    """ "A / B / Wear // Tear" → ["A", "B", "Wear // Tear"]: one slash between cards, two inside a name."""
    return [card.strip() for card in cards.split(" / ")]


@dataclass(frozen=True)
class Dispute:
    """The two players of match `hands` (entry numbers, lower first) reported different results in their
    rows; the moderator decides `result` (points of the lower-numbered hand first)."""

    hands: tuple
    result: str
    note: str


@dataclass(frozen=True)
class Challenge:
    """Rule 6.3c: `challenger` challenges the result of match `hands`; the moderator's `decision` is
    "upheld" (with the new `result`, lower-numbered hand first) or "rejected" (with a `note` saying why)."""

    hands: tuple
    challenger: str
    reason: str
    decision: str
    result: str = ""
    note: str = ""


@dataclass(frozen=True)
class Verification:
    """Rule 6.3a: a player who did not play match `hands` checks its result."""

    hands: tuple
    reporter: str
    result: str


@dataclass(frozen=True)
class Bonus:
    player: str
    points: int
    reason: str


@dataclass(frozen=True)
class Schedule:
    """Days relative to the seeding day (negative: before it): opened at 18:00 UTC, deadline at 20:00 UTC,
    finalized at 21:00 UTC. `finalized` None: the round is still open."""

    opened: int
    deadline: int
    finalized: int | None = None


@dataclass(frozen=True)
class RoundSpec:
    """One round. `rules`: the fields of rounds.services.leagues.create_round (hand size, land rule, …).
    `results`: the rows the players posted, in the forum format (`04 | 4 0 6 X …`), consistent except where a
    dispute says otherwise; the rows of `silent` players were never reported (their opponents' reports stand).
    `moderator_previews`: the moderator declared they will not play and looked at the hands before the
    deadline (needed for a flag or notice then)."""

    title: str
    schedule: Schedule
    rules: dict
    entries: tuple
    results: str = ""
    silent: tuple = ()
    disputes: tuple = ()
    challenges: tuple = ()
    verifications: tuple = ()
    bonuses: tuple = ()
    moderator_previews: bool = False

    @property
    def final(self):
        return self.schedule.finalized is not None


@dataclass(frozen=True)
class LeagueSpec:
    name: str
    rounds_planned: int
    rounds: tuple
