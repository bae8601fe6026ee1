"""The round's fields of an archive import: what the post says, then the moderator's corrections, each
checked (code against the league, hand size, land rule, additional banned cards against the catalog, title;
the deadline in `deadline`), and whether the round counts in the league's standings."""

from __future__ import annotations

import datetime as dt

from phm.text import clean_name
from rounds.catalog.resolve import CatalogIndex, Status, known_card, resolve_name
from rounds.models import LandRule
from rounds.models.leagues import MAX_HAND_SIZE

from ..post import PostRound
from ..shared import MAX_TITLE, SuggestionBudget
from .deadline import read_deadline_fields
from .readers import read_code, read_land_rule, read_names
from .results import PostImport

# Fields read after the round's number is known, against what the preview placed (`deadline`).
_PLACED_FIELDS = ("deadline", "deadline_precision")
MAX_REMARK_WORDS = 8
_PUNCTUATION = " .,;:!?\"'()\u201c\u201d"
_PAUSES = (".", ",", ";", ":", "!", "?")


def read_round_fields(
    result: PostImport,
    posted: PostRound,
    corrections: dict[str, object],
    counts_in_standings: bool | None,
    index: CatalogIndex,
    now: dt.datetime,
) -> None:
    """Set `result.fields` from the post's round and the moderator's corrections (ROUND_FIELDS); every problem
    found is added to `result`."""
    fields = result.fields
    placed = {name: value for name, value in corrections.items() if name in _PLACED_FIELDS}
    corrections = {
        name: value
        for name, value in corrections.items()
        if name not in _PLACED_FIELDS and _differs(name, value, posted)
    }
    fields.corrected = set(corrections)
    league = result.league
    fields.title = clean_name(str(corrections.get("title", posted.title) or ""))
    fields.format_rule = str(corrections.get("format_rule", posted.format_rule) or "").strip()
    fields.commentary = str(corrections.get("commentary", posted.commentary) or "").strip()
    _code(result, corrections.get("code") if "code" in fields.corrected else None, posted)
    _hand_size(result, corrections.get("hand_size", posted.hand_size))
    land_rule = corrections.get("land_rule", posted.land_rule)
    rule = read_land_rule(land_rule) if land_rule not in (None, "") else LandRule.NONE
    fields.land_rule = rule if rule is not None else LandRule.NONE
    if rule is None:
        result.add(
            "land_rule",
            f"\u201c{land_rule}\u201d is no land rule: use None, LR, ELR or DLR.",
            "round.land_rule",
        )
    _extra_banned(result, read_names(corrections.get("extra_banned", posted.extra_banned)), index)
    if "extra_banned" not in corrections:
        _banned_remarks(result, posted.extra_banned_remarks, index)
    read_deadline_fields(result, posted, placed, now)
    if not fields.title:
        result.add(
            "title_missing", "A round needs a title, such as \u201c5 Card Alphabetized\u201d.", "round.title"
        )
    elif len(fields.title) > MAX_TITLE:
        result.add("title_long", f"Keep the title under {MAX_TITLE} characters.", "round.title")
    if league is not None:
        _counts(fields, league, counts_in_standings)


def _differs(name, value, posted):
    """Whether a correction says something else than the post (a form sends every field back)."""
    if name == "code":
        said = (posted.league_number, posted.round_number) if posted.round_number else None
        return read_code(value) != said
    if name == "extra_banned":
        return [n.casefold() for n in read_names(value)] != [
            n.casefold() for n in read_names(posted.extra_banned)
        ]
    if name == "land_rule":
        return read_land_rule(value) != (read_land_rule(posted.land_rule) or LandRule.NONE)
    if name == "hand_size":
        return str(value if value is not None else "").strip() != str(posted.hand_size or "")
    return clean_name(str(value or "")) != clean_name(str(getattr(posted, name, "") or ""))


def _code(result, corrected, posted):
    """The round's number in the league: the post's code (or the correction), checked against the league."""
    fields, league = result.fields, result.league
    if corrected not in (None, ""):
        read = read_code(corrected)
        if read is None:
            result.add(
                "code", f"\u201c{corrected}\u201d is no round code: write it as 31:03 or 3.", "round.code"
            )
            return
        fields.league_number, fields.number = read
    else:
        fields.league_number, fields.number = posted.league_number, posted.round_number
    fields.names_league = fields.league_number is not None
    if league is None:
        return
    if fields.league_number is None:
        fields.league_number = league.number
    elif league.number is not None and fields.league_number != league.number:
        result.add(
            "code_other_league",
            f"The post is round {fields.league_number}:{fields.number or 0:02d}, but {league.name} is league "
            f"{league.number}: choose league {fields.league_number}, or correct the round code to import it "
            "here.",
            "round.code",
        )
    last = league.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    if fields.number is None:
        fields.number = last + 1
    if fields.names_league:
        # The code the forum gave the round, the one people search for: kept, whatever the league's name.
        fields.forum_code = f"{fields.league_number}:{fields.number:02d}"
    if league.number is None and fields.forum_code:
        # A league without a number holds rounds of the forum's leagues: numbered in turn, named as posted.
        if league.rounds.filter(number=fields.number).exists():
            fields.number = last + 1
        fields.code = fields.forum_code
        return
    prefix = f"{league.number}:" if league.number is not None else f"{league.name} #"
    fields.code = f"{prefix}{fields.number:02d}"


def _hand_size(result, value):
    try:
        size = int(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        size = None
    if size is None:
        result.add(
            "hand_size_missing", "Give the round's hand size (the post names none).", "round.hand_size"
        )
    elif not 1 <= size <= MAX_HAND_SIZE:
        result.add("hand_size", f"A hand has 1 to {MAX_HAND_SIZE} cards.", "round.hand_size")
        size = None
    result.fields.hand_size = size


def _extra_banned(result, names, index):
    resolved, budget = [], SuggestionBudget(50)
    for typed in names:
        card = known_card(typed, index=index)
        if card is not None:
            resolved.append(card.name)
            continue
        resolved.append(typed)
        suggestions = resolve_name(typed, index=index).suggestion_names if budget.take() else []
        result.add(
            "unknown_banned_card",
            f"\u201c{typed}\u201d in the additional banned list is not a card name we know.",
            "round.extra_banned",
            typed=typed,
            suggestions=tuple(suggestions),
        )
    result.fields.extra_banned = list(dict.fromkeys(resolved))


def _banned_remarks(result, remarks, index):
    """What the banned list said that names no card is no ban, and shown; a card name close to one of its
    words is pointed out, so that a misspelt ban is not lost."""
    budget = SuggestionBudget(10)
    for remark in remarks:
        close = []
        for names in _capitalised_runs(remark):
            for name in names:
                if not budget.take():
                    break
                resolution = resolve_name(name, index=index)
                if resolution.resolved:
                    break  # a card named in the sentence: the post reads it as a ban already
                if resolution.status == Status.FUZZY and resolution.suggestion_names:
                    close.append(f"\u201c{name}\u201d is close to {resolution.suggestion_names[0]}")
                    break
        hint = f" ({'; '.join(close)}: if it is banned, add it to the list.)" if close else ""
        result.warnings.append(
            f"The additional banned list says \u201c{remark}\u201d: no card name, so no additional ban.{hint}"
        )


def _capitalised_runs(text):
    """Runs of words starting with a capital, where a card name in a sentence would be, each as the names to
    try in turn ("Only Blak Lotus this week." -> [["Only Blak Lotus", "Blak Lotus"]]); a sentence's opening
    word alone is only a capital letter."""
    runs, current, start = [], [], 0
    words = text.split()
    for position, word in enumerate([*words, ""]):
        clean = word.strip(_PUNCTUATION)
        if clean[:1].isupper() and len(current) < MAX_REMARK_WORDS:
            if not current:
                start = position
            current.append(clean)
        if current and (not clean[:1].isupper() or word.endswith(_PAUSES) or position == len(words)):
            opening = start == 0 or words[start - 1].endswith((".", "!", "?"))
            if not opening:
                runs.append([" ".join(current)])
            elif len(current) > 1:  # "Only Blak Lotus": the run, else the run without its opening word
                runs.append([" ".join(current), " ".join(current[1:])])
            current = []
    return runs


def _counts(fields, league, chosen):
    if chosen is not None:
        fields.counts_in_standings = bool(chosen)
        fields.counts_reason = "chosen"
    elif fields.names_league and league.number is not None and fields.league_number == league.number:
        fields.counts_in_standings = True
        fields.counts_reason = f"the post names round {fields.code}, a round of {league.name}"
    else:
        fields.counts_in_standings = False
        fields.counts_reason = f"the post does not name a round of {league.name}"
