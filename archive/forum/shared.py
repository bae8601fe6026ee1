"""What the archive's two readings of forum posts share (`post_import` for a hands post, `corrections` for a
correction reply): their problems, each typed card resolved with suggestions (within a budget), and the
limits of the names they save."""

from __future__ import annotations

from dataclasses import dataclass, field

from accounts.models import Profile
from rounds.catalog.resolve import CatalogIndex, Status, known_card, resolve_name
from rounds.models import Round
from submissions.models import Hand

from .post import PostEntry

MAX_HAND_NAME = Hand._meta.get_field("name").max_length
MAX_TITLE = Round._meta.get_field("title").max_length
MAX_FORUM_NAME = Profile._meta.get_field("forum_username").max_length


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


def resolve_cards(
    entry: PostEntry, index: CatalogIndex, budget: SuggestionBudget | None = None
) -> list[CardPreview]:
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
