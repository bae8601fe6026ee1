"""Reading the forum's "hands posted" post: the round's heading and header, the entries with the
moderator's comments, and what else the post carries (rules document, how to submit, row template...) set
aside.

Pure Python, no database. Three stages: `blocks` (text -> lines, BBCode stripped but remembered), `classify`
(what a line is) and `assemble` (the walk that builds the result). `parse_post` never raises on any string.
"""

import datetime
from collections.abc import Callable
from dataclasses import dataclass, field

from .assemble import assemble
from .blocks import clean_line
from .classify import split_player_and_name
from .problems import entry_problems

__all__ = [
    "ParsedPost",
    "PostEntry",
    "PostRound",
    "SkippedText",
    "clean_line",
    "entry_problems",
    "parse_post",
    "split_player_and_name",
]


@dataclass
class PostRound:
    title: str = ""
    code: str = ""  # "31:03"
    league_number: int | None = None
    round_number: int | None = None
    hand_size: int | None = None
    land_rule: str | None = None  # rounds.models.LandRule values: "none", "LR", "ELR", "DLR"
    extra_banned: list[str] = field(default_factory=list)
    # What the banned list said that names no card ("don't forget the permanent list"): no ban, shown.
    extra_banned_remarks: list[str] = field(default_factory=list)
    format_rule: str = ""
    deadline: datetime.datetime | None = None  # aware, UTC
    deadline_text: str = ""
    # "exact" (the post gives the year), "approximate" (the year was placed), "unknown" (no date given)
    deadline_precision: str = "unknown"
    post_date: datetime.datetime | None = None  # from the forum's byline pasted with the post
    commentary: str = ""


@dataclass
class PostEntry:
    number: int
    player: str
    hand_name: str
    cards: list[str]  # as typed, counts expanded
    comment: str = ""
    line: int = 0  # the header's line, 1-based
    card_lines: tuple[int, ...] = ()


@dataclass
class SkippedText:
    line: int
    # "rules document", "how to submit", "row template", "poll", "next round", "result comment", "post date",
    # "other"
    kind: str
    text: str


@dataclass
class ParsedPost:
    round: PostRound
    entries: list[PostEntry]
    skipped: list[SkippedText]
    problems: list[str]


_TYPES = {"round": PostRound, "entry": PostEntry, "skipped": SkippedText}


def parse_post(
    text: str,
    *,
    is_card: Callable[[str], bool] | None = None,
    today: datetime.date | None = None,
    partial: bool = False,
) -> ParsedPost:
    """The round, entries and skipped text of a forum post. Never raises on any string.

    `is_card(name) -> bool` says whether the catalog knows a name exactly (settles card lines vs comments and
    `3 Black Lotus` vs an entry header, and splits banned lists at the right commas); `today` (a date) places
    deadlines posted without a year when no byline dates the post; `partial`
    reads a correction holding only some entries (no numbering-gap problem)."""
    if not isinstance(text, str):
        text = ""
    try:
        round_, entries, skipped, problems = assemble(
            text, is_card=is_card, today=today, partial=partial, result_types=_TYPES
        )
    except MemoryError:
        raise
    except Exception as error:  # a last guard: the moderator gets a sentence, never a 500
        return ParsedPost(PostRound(), [], [], [f"The post could not be read ({type(error).__name__})."])
    return ParsedPost(round_, entries, skipped, problems)
