"""What the archive import answers: the preview (`PostImport`, with the round's fields, each entry and its
player), and its two errors (refused, with the preview; a duplicate of a round imported already)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.contrib.auth.models import User

from rounds.models import DeadlinePrecision, LandRule, League, Round
from scoring.services.errors import ScoringConflict, ScoringInputError

from ..shared import Problem, ProblemsOfEntries

# The round's fields a moderator may correct, as the post names them.
ROUND_FIELDS = (
    "code",
    "title",
    "hand_size",
    "land_rule",
    "extra_banned",
    "format_rule",
    "deadline",
    "deadline_precision",
    "commentary",
)


class ArchiveDuplicate(ScoringConflict):
    """The post's round was imported already: `round` is that round."""

    def __init__(self, round_):
        self.round = round_
        super().__init__(
            f"This round was imported already: {round_.code} \u201c{round_.title}\u201d "
            f"({round_.league.name}).",
            items=[{"round": round_.pk, "url": round_.get_absolute_url()}],
        )


class PostImportRefused(ScoringInputError):
    """Something blocks the import; nothing was saved. `result` is the full preview."""

    def __init__(self, result):
        self.result = result
        super().__init__(result.errors)


@dataclass
class RoundFields:
    """The round as it will be created: what the post says, then the moderator's corrections (`corrected`)."""

    code: str = ""
    forum_code: str = ""  # the code the post (or a correction) gives, naming its league: "32:02"
    league_number: int | None = None
    number: int | None = None
    title: str = ""
    hand_size: int | None = None
    land_rule: str = LandRule.NONE
    extra_banned: list = field(default_factory=list)  # catalog names once resolved, else as typed
    format_rule: str = ""
    deadline: dt.datetime | None = None
    deadline_precision: str = DeadlinePrecision.EXACT
    deadline_note: str = ""  # what was inferred of the deadline, or that it is unknown
    commentary: str = ""
    counts_in_standings: bool = False
    counts_reason: str = ""
    names_league: bool = False  # the post (or a correction) names the league, as in "31:03"
    corrected: set = field(default_factory=set)

    def as_dict(self):
        return {
            "code": self.code,
            "forum_code": self.forum_code,
            "title": self.title,
            "hand_size": self.hand_size,
            "land_rule": self.land_rule,
            "extra_banned": list(self.extra_banned),
            "format_rule": self.format_rule,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "deadline_precision": self.deadline_precision,
            "deadline_note": self.deadline_note,
            "commentary": self.commentary,
            "number": self.number,
        }


@dataclass
class PlayerChoice:
    """Who an entry's posted name will be: an existing account or a new one."""

    posted: str
    user: User | None = None  # the existing account used
    kind: str = "new"  # "exact", "chosen", "near" (undecided), "new" (no account is close), "create" (chosen)
    near: list = field(default_factory=list)  # accounts.matching.Candidate
    new_username: str = ""  # the account that will be created

    @property
    def username(self):
        return self.user.get_username() if self.user is not None else self.new_username

    @property
    def creates_account(self):
        return self.user is None


@dataclass
class EntryImport:
    number: int
    posted_player: str
    player: PlayerChoice
    hand_name: str
    cards: list  # CardPreview
    comment: str
    line: int
    problems: list = field(default_factory=list)  # Problem, blocking
    accepted: list = field(default_factory=list)  # sentences: rule problems the forum's host accepted
    points: int | None = None
    league_points: int | None = None
    row_note: str = ""  # the note written in the entry's row of the results table

    @property
    def number_label(self):
        return f"{self.number:02d}"

    @property
    def card_names(self):
        return [card.name or card.typed for card in self.cards]

    def as_dict(self):
        return {
            "number": self.number,
            "player": self.posted_player,
            "matched_user": self.player.user.get_username() if self.player.user is not None else None,
            "player_match": self.player.kind,
            "new_username": self.player.new_username or None,
            "near_matches": [
                {"username": candidate.username, "forum_name": candidate.forum_name}
                for candidate in self.player.near
            ],
            "name": self.hand_name,
            "cards": self.card_names,
            "comment": self.comment,
            "problems": [problem.as_dict() for problem in self.problems],
            "accepted_problems": list(self.accepted),
            "points": self.points,
            "league_points": self.league_points,
            "row_note": self.row_note,
        }


@dataclass
class PostImport(ProblemsOfEntries):
    """The preview, a refused import (problems), or an import done (`round` set)."""

    league: League | None = None
    fields: RoundFields = field(default_factory=RoundFields)
    entries: list = field(default_factory=list)  # EntryImport
    skipped: list = field(default_factory=list)  # forum_post.SkippedText
    problems: list = field(default_factory=list)  # Problem, blocking
    warnings: list = field(default_factory=list)  # sentences
    table_given: bool = False
    table_problems: list = field(default_factory=list)
    known_matches: int = 0
    total_matches: int = 0
    pair_results: dict = field(default_factory=dict, repr=False)
    fingerprint: str = ""
    duplicate_of: Round | None = None
    round: Round | None = None
    posted_digest: str = ""
    corrections_dropped: bool = False

    @property
    def ready(self):
        return not self.problems and not any(entry.problems for entry in self.entries)

    @property
    def unknown_cards(self):
        return [problem for problem in self.all_problems if problem.code in ("unknown_card", "not_exact")]

    @property
    def undecided_players(self):
        return [entry for entry in self.entries if entry.player.kind == "near"]

    @property
    def new_players(self):
        return [entry for entry in self.entries if entry.player.kind in ("new", "create")]

    @property
    def accepted_count(self):
        return sum(1 for entry in self.entries if entry.accepted)

    @property
    def undetermined_matches(self):
        return self.total_matches - self.known_matches

    def add(self, code, message, field_name="post", **details):
        self.problems.append(Problem(code, message, field_name, **details))

    def as_dict(self):
        return {
            "league": self.league.pk if self.league else None,
            "round": self.fields.as_dict(),
            "counts_in_standings": self.fields.counts_in_standings,
            "counts_reason": self.fields.counts_reason,
            "entries": [entry.as_dict() for entry in self.entries],
            "skipped": [skipped.text for skipped in self.skipped],
            "skipped_parts": [
                {"line": skipped.line, "kind": skipped.kind, "text": skipped.text} for skipped in self.skipped
            ],
            "problems": [problem.as_dict() for problem in self.all_problems],
            "warnings": list(self.warnings),
            "table": {
                "given": self.table_given,
                "known_matches": self.known_matches,
                "total_matches": self.total_matches,
                "problems": list(self.table_problems),
            },
            "duplicate_of": (
                {"round": self.duplicate_of.pk, "url": self.duplicate_of.get_absolute_url()}
                if self.duplicate_of
                else None
            ),
            "ready": self.ready,
        }
