"""Importing a past round from a forum post pasted as it is: the service behind the import page,
`POST /api/archive/preview/` and `POST /api/archive/import/`.

`preview_post` reads the post (`scoring.forum_post`: split, classify, assemble), applies the moderator's
corrections, and checks everything an import needs, saving nothing: the round's fields, every card (unknown
names with suggestions), every player (exact account, near matches to decide, or a new account), each hand's
legality under the round's rules (warnings: the forum's host accepted those hands, and the import records them
as accepted), the optional results table (stated totals that differ are reported, not silently fixed), and
whether the same round was imported already. `import_post` does the same and, when nothing blocks, saves it
in one transaction.
"""

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from accounts.matching import match_names
from accounts.services import register_player
from phm.text import clean_name
from rounds.catalog.resolve import get_index, known_card, resolve_name
from rounds.legality import HandRules, check_hand
from rounds.models import LandRule, League, Round, RoundState
from rounds.models.audit import log_action
from rounds.models.leagues import MAX_HAND_SIZE
from rounds.services.leagues import can_manage_league, next_round_number
from submissions import commitments
from submissions.models import Hand, HandVersion

from .archive import (
    IMPORT_NOTE,
    MAX_FORUM_NAME,
    MAX_HAND_NAME,
    MAX_TITLE,
    CardPreview,
    Problem,
    ProblemsOfEntries,
    SuggestionBudget,
    derive_username,
    pair_results,
    resolve_cards,
    set_results,
)
from .forum_post import parse_post
from .forum_post.problems import MAX_ENTRIES
from .forum_rows import RowFormatError, check_table, complete_table, parse_table, stated_total_mismatches
from .services.errors import ScoringConflict, ScoringInputError
from .services.finalization import finalize_as_recorded
from .services.table import build_match_table

ROUND_FIELDS = (
    "code",
    "title",
    "hand_size",
    "land_rule",
    "extra_banned",
    "format_rule",
    "deadline",
    "commentary",
)
# Problems about the hand's card list that the preview reports itself, not as accepted legality warnings.
_OWN_CHECKS = {"unknown_card", "fuzzy_match", "empty_name", "wrong_count"}
_CODE = re.compile(r"\s*(?:(?P<league>\d{1,6})\s*:\s*)?(?P<round>\d{1,4})\s*")
# The spaces before a separator are taken only from where their run starts: without `(?<!\s)` the search
# would take them again from every space of a run that is no separator, quadratic in the run's length.
_NAMES_SPLIT = re.compile(r"(?:(?<!\s)\s*)?(?:\n|\s/\s|;)\s*")
_LAND_RULE_WORDS = {
    "none": LandRule.NONE,
    "no": LandRule.NONE,
    "lr": LandRule.LR,
    "elr": LandRule.ELR,
    "dlr": LandRule.DLR,
    "alr": LandRule.DLR,
}


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
    league_number: int | None = None
    number: int | None = None
    title: str = ""
    hand_size: int | None = None
    land_rule: str = LandRule.NONE
    extra_banned: list = field(default_factory=list)  # catalog names once resolved, else as typed
    format_rule: str = ""
    deadline: dt.datetime | None = None
    commentary: str = ""
    counts_in_standings: bool = False
    counts_reason: str = ""
    names_league: bool = False  # the post (or a correction) names the league, as in "31:03"
    corrected: set = field(default_factory=set)

    def as_dict(self):
        return {
            "code": self.code,
            "title": self.title,
            "hand_size": self.hand_size,
            "land_rule": self.land_rule,
            "extra_banned": list(self.extra_banned),
            "format_rule": self.format_rule,
            "deadline": self.deadline.isoformat() if self.deadline else None,
            "commentary": self.commentary,
            "number": self.number,
        }


@dataclass
class PlayerChoice:
    """Who an entry's posted name will be: an existing account or a new one."""

    posted: str
    user: object = None  # the existing account used
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


# Reading the moderator's corrections -----------------------------------------------------------------------


def read_code(text):
    """(league number or None, round number) from "31:03", "3" or "03"; None when it is neither."""
    match = _CODE.fullmatch(str(text or ""))
    if match is None or int(match["round"]) < 1:
        return None
    return (int(match["league"]) if match["league"] else None), int(match["round"])


def read_land_rule(value):
    """A LandRule value from a value or a name players use; None when unknown."""
    text = str(value or "").strip()
    if text in LandRule.values:
        return text
    return _LAND_RULE_WORDS.get(text.casefold())


def read_names(value):
    """Card names from a list, or from text with one name per line or names joined by " / " or ";"."""
    if isinstance(value, list | tuple):
        return [clean_name(str(name)) for name in value if clean_name(str(name))]
    return [name for name in (clean_name(part) for part in _NAMES_SPLIT.split(str(value or ""))) if name]


def read_deadline(value):
    """An aware datetime from a datetime, a date (noon UTC that day) or ISO text; None when it is none."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = (parse_date(text) if len(text) <= 10 else parse_datetime(text)) if text else None
        except ValueError:  # well formed but no such day, such as 2023-02-30
            value = None
    if isinstance(value, dt.datetime):
        return value if timezone.is_aware(value) else timezone.make_aware(value, dt.UTC)
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time(12, 0), tzinfo=dt.UTC)
    return None


# The preview ------------------------------------------------------------------------------------------------


def preview_post(
    *,
    actor,
    league,
    post,
    table="",
    corrections=None,
    players=None,
    counts_in_standings=None,
    corrections_for=None,
    now=None,
):
    """Everything `import_post` would do, checked; nothing saved. `corrections` maps ROUND_FIELDS to the
    moderator's values; `players` maps a posted name to the username to use ("" or None: a new account);
    `counts_in_standings` None lets the post decide (it counts only when its code names this league).
    `corrections_for` is the `posted_digest` the corrections were made against: when the post's own round
    fields have changed since (another post was pasted), the corrections are dropped and the post read
    afresh."""
    now = now or timezone.now()
    result = PostImport(league=_league(league))
    if result.league is None:
        result.add("league_missing", "Choose the league the round belongs to.", "league")
    elif not can_manage_league(actor, result.league):
        result.add("league_forbidden", f"You do not moderate {result.league.name}.", "league")
    index = get_index()

    def is_card(name):
        return known_card(name, index=index) is not None

    parsed = parse_post(post or "", is_card=is_card, today=now.date())
    if len(parsed.entries) > MAX_ENTRIES:  # reported by the parser; the rest is not worth checking
        parsed.entries = parsed.entries[:MAX_ENTRIES]
    result.skipped = list(parsed.skipped)
    result.posted_digest = posted_digest(parsed.round)
    if corrections_for is not None and corrections_for != result.posted_digest and corrections:
        corrections, players, result.corrections_dropped = {}, {}, True
    for message in parsed.problems:
        result.add("post", message)
    _round_fields(result, parsed.round, corrections or {}, counts_in_standings, index, now)
    _entries(result, parsed.entries, index, players or {})
    _legality(result)
    result.fingerprint = fingerprint(result.entries)
    _duplicates(result)
    count = len(result.entries)
    result.total_matches = count * (count - 1) // 2
    if (table or "").strip():
        _table(result, table)
    if not result.entries and not parsed.problems:
        result.add(
            "no_entries",
            "No entries found: an entry starts with its number and player, like "
            '`01 Player :: "Hand name"`, and its cards follow on the next line.',
        )
    return result


def posted_digest(posted):
    """A short digest of what the post itself says about the round (its entries apart)."""
    said = "|".join(str(getattr(posted, name, "")) for name in ROUND_FIELDS)
    return hashlib.sha256(said.encode()).hexdigest()[:16]


def _league(league):
    if isinstance(league, League):
        return league
    try:
        return League.objects.filter(pk=int(league)).first() if league not in (None, "") else None
    except (TypeError, ValueError):
        return None


def _round_fields(result, posted, corrections, counts_in_standings, index, now):
    fields = result.fields
    corrections = {name: value for name, value in corrections.items() if _differs(name, value, posted)}
    fields.corrected = set(corrections)
    league = result.league
    fields.title = clean_name(str(corrections.get("title", posted.title) or ""))
    fields.format_rule = str(corrections.get("format_rule", posted.format_rule) or "").strip()
    fields.commentary = str(corrections.get("commentary", posted.commentary) or "").strip()
    _code(result, corrections.get("code") if "code" in fields.corrected else None, posted)
    _hand_size(result, corrections.get("hand_size", posted.hand_size))
    land_rule = corrections.get("land_rule", posted.land_rule)
    fields.land_rule = read_land_rule(land_rule) if land_rule not in (None, "") else LandRule.NONE
    if fields.land_rule is None:
        fields.land_rule = LandRule.NONE
        result.add(
            "land_rule",
            f"\u201c{land_rule}\u201d is no land rule: use None, LR, ELR or DLR.",
            "round.land_rule",
        )
    _extra_banned(result, read_names(corrections.get("extra_banned", posted.extra_banned)), index)
    deadline = corrections.get("deadline") if "deadline" in fields.corrected else posted.deadline
    fields.deadline = read_deadline(deadline)
    if fields.deadline is None:
        said = f" (the post says \u201c{posted.deadline_text}\u201d)" if posted.deadline_text else ""
        result.add("deadline_missing", f"Give the date of the round's deadline{said}.", "round.deadline")
    elif fields.deadline > now:
        result.add("deadline_future", "An archived round's deadline is in the past.", "round.deadline")
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
    if name == "deadline":
        return read_deadline(value) != read_deadline(posted.deadline)
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
    if fields.number is None:
        fields.number = (league.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
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


def _entries(result, entries, index, chosen_players):
    names = [entry.player for entry in entries]
    matches = match_names(names)
    chosen = {str(name).casefold(): value for name, value in chosen_players.items()}
    chosen_users = _chosen_users(result, chosen)
    planned, budget = set(), SuggestionBudget()
    for entry in entries:
        player = _player_choice(result, entry.player, matches, chosen, chosen_users, planned)
        preview = EntryImport(
            number=entry.number,
            posted_player=entry.player,
            player=player,
            hand_name=entry.hand_name,
            cards=resolve_cards(entry, index, budget),
            comment=(entry.comment or "").strip(),
            line=entry.line,
        )
        _entry_checks(result, preview)
        result.entries.append(preview)
    owners = {}
    for preview in result.entries:
        user = preview.player.user
        if user is None:
            continue
        if user.pk in owners:
            preview.problems.append(
                Problem(
                    "same_account",
                    f"Entries {owners[user.pk]:02d} and {preview.number_label} are both "
                    f"{user.get_username()}, who can have only one hand in a round.",
                    "players",
                    entry=preview.number,
                )
            )
        owners.setdefault(user.pk, preview.number)


def _chosen_users(result, chosen):
    """{casefolded username: user} for the accounts the moderator chose by name."""
    from django.contrib.auth import get_user_model

    usernames = {value for value in chosen.values() if value}
    users = {
        user.get_username().casefold(): user
        for user in get_user_model().objects.filter(username__in=usernames).select_related("profile")
    }
    for username in usernames:
        if username.casefold() not in users:
            result.add("unknown_account", f"There is no account named \u201c{username}\u201d.", "players")
    return users


def _player_choice(result, posted, matches, chosen, chosen_users, planned):
    key = posted.casefold()
    match = matches.get(key)
    near = list(match.near) if match is not None else []
    if key in chosen:
        value = chosen[key]
        if value:
            user = chosen_users.get(str(value).casefold())
            if user is not None:
                return PlayerChoice(posted, user=user, kind="chosen", near=near)
        else:
            return PlayerChoice(posted, kind="create", near=near, new_username=_new_username(posted, planned))
    if match is not None and match.exact is not None:
        return PlayerChoice(posted, user=match.exact, kind="exact")
    if match is not None and match.near:
        return PlayerChoice(posted, kind="near", near=match.near)
    return PlayerChoice(posted, kind="new", new_username=_new_username(posted, planned))


def _new_username(posted, planned):
    from django.contrib.auth import get_user_model

    User = get_user_model()

    def is_taken(name):
        return name.casefold() in planned or User.objects.filter(username__iexact=name).exists()

    username = derive_username(posted, is_taken) if posted else ""
    planned.add(username.casefold())
    return username


def _entry_checks(result, entry):
    where = f"Entry {entry.number_label} ({entry.posted_player or 'no player'})"
    if not entry.posted_player:
        entry.problems.append(
            Problem("no_player", f"{where} names no player.", entry=entry.number, line=entry.line)
        )
    elif len(entry.posted_player) > MAX_FORUM_NAME:
        entry.problems.append(
            Problem(
                "player_long", f"{where}: the name is over {MAX_FORUM_NAME} characters.", entry=entry.number
            )
        )
    if len(entry.hand_name) > MAX_HAND_NAME:
        message = f"{where}: the hand's name is over {MAX_HAND_NAME} characters."
        entry.problems.append(Problem("hand_name_long", message, entry=entry.number))
    if entry.player.kind == "near":
        options = " or ".join(f"\u201c{candidate.label}\u201d" for candidate in entry.player.near)
        entry.problems.append(
            Problem(
                "near_player",
                f"\u201c{entry.posted_player}\u201d \u2014 did you mean {options}? Choose the account, or a "
                "new one.",
                "players",
                entry=entry.number,
                typed=entry.posted_player,
                suggestions=tuple(candidate.username for candidate in entry.player.near),
            )
        )
    for card in entry.cards:
        if card.resolved:
            continue
        if card.status == "fuzzy":
            message = f"{where}: \u201c{card.typed}\u201d is close to a card, but not exactly one."
        else:
            message = f"{where}: \u201c{card.typed}\u201d is not a card name we know."
        entry.problems.append(
            Problem(
                "not_exact" if card.status == "fuzzy" else "unknown_card",
                message,
                entry=entry.number,
                typed=card.typed,
                line=card.line,
                suggestions=tuple(card.suggestions),
            )
        )
    size = result.fields.hand_size
    count = len(entry.cards)
    if not count:
        entry.problems.append(Problem("no_cards", f"{where} has no cards after it.", entry=entry.number))
    elif size is not None and count > size:
        entry.problems.append(
            Problem(
                "too_many_cards",
                f"{where} has {count} cards; this round's hands have {size}. Is a comment read as a card, or "
                "is the hand size wrong?",
                entry=entry.number,
                line=entry.line,
            )
        )
    elif size is not None and count < size:
        entry.accepted.append(
            f"The hand has {count} card{'s' if count != 1 else ''}; the round's hands have {size}."
        )


def _legality(result):
    """Each hand's rule problems under the round's rules, as of its deadline: accepted as the forum played
    it."""
    fields = result.fields
    if fields.hand_size is None:
        return
    rules = HandRules(
        hand_size=fields.hand_size,
        land_rule=fields.land_rule,
        extra_banned=tuple(fields.extra_banned),
        legal_as_of=fields.deadline,
    )
    for entry in result.entries:
        if not entry.cards or not all(card.resolved for card in entry.cards):
            continue
        verdict = check_hand([card.name for card in entry.cards], rules)
        for card in verdict.cards:
            entry.accepted.extend(
                problem.message for problem in card.problems if problem.code not in _OWN_CHECKS
            )
    if result.accepted_count:
        hands = result.accepted_count
        result.warnings.append(
            f"{hands} hand{'s' if hands != 1 else ''} break{'s' if hands == 1 else ''} a rule of the round "
            "as the catalog knows it; the forum's host accepted them, so they are imported as accepted, with "
            "the problem shown next to the hand."
        )


def fingerprint(entries):
    """A digest of the entries (number, player, cards), the same however the post around them is worded."""
    lines = sorted(
        "|".join((str(entry.number), entry.posted_player.casefold(), "/".join(entry.card_names).casefold()))
        for entry in entries
    )
    return hashlib.sha256("\n".join(lines).encode()).hexdigest() if lines else ""


def _duplicates(result):
    if result.fingerprint:
        result.duplicate_of = (
            Round.objects.filter(imported_fingerprint=result.fingerprint).select_related("league").first()
        )
    if result.duplicate_of is not None:
        existing = result.duplicate_of
        result.add(
            "duplicate",
            f"This round was imported already: {existing.code} \u201c{existing.title}\u201d in "
            f"{existing.league.name}.",
        )
        return
    league, number = result.league, result.fields.number
    if league is None or number is None:
        return
    taken = league.rounds.filter(number=number).first()
    if taken is not None:
        result.add(
            "code_taken",
            f"{league.name} already has round {taken.code} \u201c{taken.title}\u201d: correct the round "
            "code.",
            "round.code",
        )


def _table(result, table):
    """The results table: every match two cells contradict refuses it; stated totals that differ from the
    cells are reported (the import keeps the cells and recomputes the totals, and says so)."""
    result.table_given = True
    try:
        rows = parse_table(table)
    except RowFormatError as error:
        result.add("table", str(error), "table")
        return
    if result.entries and len(rows) != len(result.entries):
        result.add(
            "table",
            f"The table has {len(rows)} rows but the post has {len(result.entries)} hands: they must match.",
            "table",
        )
        return
    inconsistent = check_table(rows)
    for problem in inconsistent:
        result.table_problems.append(problem.message)
        result.add("table", problem.message, "table")
    result.warnings.extend(mismatch.message for mismatch in stated_total_mismatches(rows))
    if inconsistent:
        return
    completed = complete_table(rows)
    by_number = {row.number: row for row in completed}
    for entry in result.entries:
        row = by_number.get(entry.number)
        if row is not None:
            entry.points, entry.league_points, entry.row_note = (
                row.stated_points,
                row.stated_league_points,
                row.note,
            )
    result.pair_results = pair_results(completed)
    result.known_matches = len(result.pair_results)


# The import -------------------------------------------------------------------------------------------------


def import_post(
    *, actor, league, post, table="", corrections=None, players=None, counts_in_standings=None, now=None
):
    """Import the post's round when its preview has no problem, in one transaction: the round (revealed, or
    final with a table: unknown matches 0-0, rule 6.3b), new accounts, one hand per entry with its comment and
    accepted problems, and the match table. PostImportRefused (with the preview) when anything blocks;
    ArchiveDuplicate when the round was imported already."""
    now = now or timezone.now()
    options = {"corrections": corrections, "players": players, "counts_in_standings": counts_in_standings}
    result = preview_post(actor=actor, league=league, post=post, table=table, now=now, **options)
    if result.duplicate_of is not None:
        raise ArchiveDuplicate(result.duplicate_of)
    if not result.ready:
        raise PostImportRefused(result)
    try:
        with transaction.atomic():
            League.objects.select_for_update().get(pk=result.league.pk)  # imports into a league go one by one
            existing = Round.objects.filter(imported_fingerprint=result.fingerprint).first()
            if existing is not None:
                raise ArchiveDuplicate(existing)
            round_ = _create_round(actor, result)
            hands = _create_hands(actor, round_, result)
            build_match_table(round_.pk, now=now)
            if result.table_given:
                notes = {entry.number: entry.row_note for entry in result.entries if entry.row_note}
                set_results(actor, round_, hands, result.pair_results, now, notes)
            _log_import(actor, round_, result)
            if result.table_given:
                finalize_as_recorded(actor=actor, round_id=round_.pk, now=now)
    except IntegrityError as error:  # the round number was taken between the preview and the import
        raise ScoringConflict(
            f"{result.league.name} got a round {result.fields.code} meanwhile: preview again."
        ) from error
    round_.refresh_from_db()
    result.round = round_
    return result


def _create_round(actor, result):
    fields = result.fields
    return Round.objects.create(
        league=result.league,
        number=fields.number or next_round_number(result.league),
        title=fields.title,
        hand_size=fields.hand_size,
        land_rule=fields.land_rule,
        extra_banned=list(fields.extra_banned),
        format_rule=fields.format_rule,
        commentary=fields.commentary,
        deadline=fields.deadline,
        legal_as_of=fields.deadline,
        counts_in_standings=fields.counts_in_standings,
        imported_fingerprint=result.fingerprint,
        state=RoundState.REVEALED,
        created_by=actor,
    )


def _create_hands(actor, round_, result):
    """{entry number: hand}, with the accounts chosen or created and one version per hand."""
    hands, versions = {}, []
    for entry in result.entries:
        player = entry.player.user or register_player(
            username=entry.player.new_username,
            password=None,
            forum_username=entry.posted_player[:MAX_FORUM_NAME],
        )
        entry.player.user = player
        hand = Hand.objects.create(
            round=round_,
            player=player,
            name=entry.hand_name,
            number=entry.number,
            comment=entry.comment,
            accepted_problems=list(entry.accepted),
        )
        cards = [card.name for card in entry.cards]
        nonce = commitments.new_nonce()
        versions.append(
            HandVersion(
                hand=hand,
                number=1,
                name=entry.hand_name,
                cards=cards,
                nonce=nonce,
                commitment=commitments.commitment_for(
                    round_id=round_.pk,
                    username=player.get_username(),
                    version=1,
                    name=entry.hand_name,
                    cards=cards,
                    nonce=nonce,
                ),
                source=HandVersion.Source.PLAYER,
                created_by=actor,
                submitted_at=round_.deadline,
                is_current=True,
            )
        )
        hands[entry.number] = hand
    HandVersion.objects.bulk_create(versions)
    return hands


def _log_import(actor, round_, result):
    fields = result.fields
    log_action(
        round_,
        "round.imported",
        actor=actor,
        after={
            "title": round_.title,
            "code": round_.code,
            "hand_size": round_.hand_size,
            "land_rule": round_.land_rule,
            "extra_banned": list(round_.extra_banned),
            "deadline": round_.deadline,
            "counts_in_standings": round_.counts_in_standings,
            "corrected": sorted(fields.corrected),
            "hands": len(result.entries),
            "hands_accepted_with_problems": result.accepted_count,
            "players_created": [entry.player.new_username for entry in result.new_players],
            "players_chosen": {
                entry.posted_player: entry.player.username
                for entry in result.entries
                if entry.player.kind == "chosen"
            },
            "table": result.table_given,
            "results_imported": result.known_matches if result.table_given else 0,
            "skipped_parts": len(result.skipped),
        },
        note=IMPORT_NOTE,
    )


__all__ = [
    "ROUND_FIELDS",
    "ArchiveDuplicate",
    "CardPreview",
    "PostImport",
    "PostImportRefused",
    "import_post",
    "preview_post",
]
