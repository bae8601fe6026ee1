"""Pieces the archive import shares (`scoring.post_import` for a hands post, `scoring.archive_corrections`
for a correction reply): each typed card resolved with suggestions, account names for forum names, and the
results a forum table knows set as the moderator's decisions."""

import re
from dataclasses import dataclass, field

from accounts.models import Profile
from rounds.catalog.resolve import Status, known_card, resolve_name
from rounds.models import Round
from submissions.models import Hand

from .models import Match
from .outcomes import OPPONENT_POINTS

IMPORT_NOTE = "Imported from the forum"
MAX_HAND_NAME = Hand._meta.get_field("name").max_length
MAX_TITLE = Round._meta.get_field("title").max_length
MAX_FORUM_NAME = Profile._meta.get_field("forum_username").max_length
_USERNAME_JUNK = re.compile(r"[^\w.@+-]+")


@dataclass(frozen=True)
class Problem:
    """Something that blocks the import, or (in `warnings`) that the moderator should see."""

    code: str
    message: str
    field: str = "post"  # "post", "table", "league", "round.<name>", "players"
    entry: int | None = None
    typed: str = ""
    line: int | None = None
    suggestions: tuple = ()

    def as_dict(self):
        body = {"code": self.code, "message": self.message, "field": self.field}
        if self.entry is not None:
            body["entry"] = self.entry
        if self.typed:
            body["typed"] = self.typed
        if self.line is not None:
            body["line"] = self.line
        if self.suggestions:
            body["suggestions"] = list(self.suggestions)
        return body


class ProblemsOfEntries:
    """For a result with `problems` of its own and `entries` that each have `problems`."""

    @property
    def all_problems(self):
        return self.problems + [problem for entry in self.entries for problem in entry.problems]

    @property
    def errors(self):
        """{field: [messages]} of every blocking problem, for forms and the API's 400."""
        errors = {}
        for problem in self.all_problems:
            errors.setdefault(problem.field, []).append(problem.message)
        return errors


@dataclass
class CardPreview:
    typed: str
    line: int
    status: str
    name: str | None = None  # the catalog's spelling when resolved
    suggestions: list[str] = field(default_factory=list)

    @property
    def resolved(self):
        return self.name is not None


def is_exact(resolution):
    return resolution.resolved and resolution.status in (Status.EXACT, Status.NORMALIZED)


class SuggestionBudget:
    """How many unknown names still get fuzzy suggestions (each costs milliseconds): a post of thousands of
    unknown names is not a hands post, and must not keep a worker busy for minutes."""

    def __init__(self, count=200):
        self.left = count

    def take(self):
        self.left -= 1
        return self.left >= 0


def resolve_cards(entry, index, budget=None):
    """A CardPreview per typed card of `entry`: the catalog's name when exact or normalised, else the status
    and (while the budget lasts) suggestions."""
    budget = budget or SuggestionBudget()
    previews = []
    for typed, line in zip(entry.cards, entry.card_lines or [entry.line] * len(entry.cards), strict=True):
        card = known_card(typed, index=index)
        if card is not None:
            previews.append(CardPreview(typed=typed, line=line, status=Status.EXACT, name=card.name))
            continue
        if not budget.take():
            previews.append(CardPreview(typed=typed, line=line, status=Status.UNKNOWN))
            continue
        resolution = resolve_name(typed, index=index)
        previews.append(
            CardPreview(
                typed=typed,
                line=line,
                status=resolution.status,
                name=resolution.card.name if is_exact(resolution) else None,
                suggestions=resolution.suggestion_names,
            )
        )
    return previews


def derive_username(forum_name, is_taken):
    """An account name for a forum name: only characters Django accepts, and free (`is_taken(name)` says
    whether a name is used, case-insensitively): `The Moderator` -> `The_Moderator`, else `The_Moderator-2`.
    """
    base = _USERNAME_JUNK.sub("_", forum_name.strip()).strip("_")[:140] or "player"
    candidate, suffix = base, 1
    while is_taken(candidate):
        suffix += 1
        candidate = f"{base}-{suffix}"
    return candidate


def pair_results(rows):
    """{(a, b): (points_a, points_b)} for every pair a < b whose result the table knows."""
    results = {}
    by_number = {row.number: row for row in rows}
    for row in rows:
        for column, cell in enumerate(row.cells, start=1):
            if column <= row.number or not isinstance(cell, int):
                continue
            mirror = by_number[column].cells[row.number - 1]
            results[(row.number, column)] = (
                cell,
                mirror if isinstance(mirror, int) else OPPONENT_POINTS[cell],
            )
    return results


def set_results(actor, round_, hands, pairs, now, notes=None):
    """The moderator's decision on every match the table knows, in one bulk update (the audit entry of the
    import records how many); finalization then derives each match's status and points from it. `notes`
    ({row number: the note written in that row}) are kept on the row's matches."""
    number_of = {hand.pk: number for number, hand in hands.items()}
    notes = notes or {}
    decided = []
    for match in Match.objects.filter(round=round_):
        numbers = (number_of[match.hand_a_id], number_of[match.hand_b_id])
        result = pairs.get(numbers)
        if result is None:
            continue
        written = [f"row {number}: {notes[number]}" for number in numbers if notes.get(number)]
        note = f"{IMPORT_NOTE} ({'; '.join(written)})" if written else IMPORT_NOTE
        match.decided_points_a, match.decided_points_b = result
        match.decided_by, match.decided_note, match.decided_at = actor, note, now
        decided.append(match)
    Match.objects.bulk_update(
        decided,
        ["decided_points_a", "decided_points_b", "decided_by", "decided_note", "decided_at"],
        batch_size=2000,
    )
