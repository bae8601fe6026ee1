"""Archive import (issue 7): a past round brought in from forum text, so a community's history comes in.

Two parts:

- `parse_hands_post` / `read_hands_post` (pure, no database): the "hands posted" post. An entry starts with a
  numbered header line in any of the forum's styles, and its cards follow on the next line(s):

      01 WhammeWhamme :: "The Might of Kjeld"
      Leyline of Singularity / Karakas / Kjeldoran Warrior / Mishra's Workshop / Wheel of Torture

      1) WhammeWhamme                          1WhammeWhamme : The Might of Kjeld
      Leyline of Singularity                   Leyline of Singularity / Karakas / ...
      Karakas
      ...

  Read liberally: BBCode tags ([b], [card], [color=...]) are stripped, quotes around the hand name are
  optional, blank lines do not matter, lines before the first entry (a "Hands posted - 45:01 ..." header)
  and result comments after a hand ("0-6 leylined again") are ignored but listed, cards may be one per line
  or joined by " / " (`rounds.catalog.handlist`).

- `import_round` (the service): resolves every card, matches the players to accounts, checks the optional
  results table (`scoring.forum_rows`), and either returns the preview (dry run) or, when nothing is wrong,
  creates the round, the accounts, the hands and the table in one transaction. Nothing is saved while any
  problem is left: unknown card names come back with the resolver's suggestions for the moderator to fix.
"""

import datetime as dt
import re
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.functions import Lower
from django.utils import timezone

from accounts.models import Profile
from accounts.services import register_player
from phm.text import clean_name
from rounds.catalog.handlist import parse_hand_list
from rounds.catalog.resolve import Status, get_index, resolve_name
from rounds.models import League, Round, RoundState
from rounds.models.audit import log_action
from rounds.services.leagues import can_manage_league, next_round_number
from submissions import commitments
from submissions.models import Hand, HandVersion

from .forum_post import clean_line, entry_problems, split_player_and_name
from .forum_post.classify import _COUNT_PREFIX, _HEADER, is_result_comment
from .forum_rows import RowFormatError, check_table, complete_table, parse_table
from .models import Match
from .outcomes import OPPONENT_POINTS
from .services.errors import ScoringInputError
from .services.finalization import finalize_round
from .services.table import build_match_table

IMPORT_NOTE = "Imported from the forum"
MAX_HAND_NAME = Hand._meta.get_field("name").max_length
MAX_TITLE = Round._meta.get_field("title").max_length
MAX_FORUM_NAME = Profile._meta.get_field("forum_username").max_length

_POST_HEADER = re.compile(r"hands\s+(?:posted|revealed)|^\d{1,3}:\d{2}\b", re.IGNORECASE)
# A result comment, as the results post has them after each hand: "0-6 leylined again", "6-0", "2-2!".
_USERNAME_JUNK = re.compile(r"[^\w.@+-]+")


class ArchiveFormatError(ValueError):
    """The hands post cannot be read; `problems` are plain sentences, each naming its line."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__(" ".join(self.problems))


class ArchiveImportError(ScoringInputError):
    """The import was refused and nothing was saved. `errors` maps form fields to sentences; `result` is the
    full preview (entries, unknown cards with suggestions, table problems) to show the moderator."""

    def __init__(self, result):
        self.result = result
        super().__init__(result.errors)


# Parsing ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArchiveEntry:
    """One entry of the post: its number, the player's forum name, the hand's name, the card names as
    typed (counts expanded), the header's line number and each card's line number."""

    number: int
    player: str
    hand_name: str
    cards: list[str]
    line: int
    card_lines: tuple = ()


@dataclass
class HandsPost:
    entries: list[ArchiveEntry]
    problems: list[str]
    ignored: list[tuple[int, str]]  # (line number, text) of lines read as no entry or card


def _header(line, *, expected, current, is_card):
    """(number, rest of the line) when `line` starts an entry, else None.

    `01 Player :: Name`, `01 Player`, `1) Player`, `1. Player` and `1Player : Name` always start one. A bare
    `3 Word Word` could be a card with a count (`3 Black Lotus`): after the first entry it starts one only
    when its number is the next one expected and, with the catalog at hand, the line is not a list of known
    cards."""
    match = _HEADER.fullmatch(line)
    if match is None:
        return None
    number, sep, rest = int(match["number"]), match["sep"].strip(), match["rest"]
    glued = match["sep"] == "" and not _COUNT_PREFIX.match(line)
    padded = len(match["number"]) > 1 and match["number"].startswith("0")  # `01`: no card count looks so
    if "::" in rest or sep in (".", ")", "]") or glued or padded or current is None:
        return number, rest
    if number != expected:
        return None
    if is_card is not None:
        cards = parse_hand_list(line, is_card=is_card)
        if cards and all(is_card(card) for card in cards):
            return None
    return number, rest


def read_hands_post(text, is_card=None):
    """The entries of a "hands posted" post and what is wrong with it (never raises on any string).

    `is_card` (a name -> bool predicate) settles lines that could be either a card with a count or the next
    entry's header, and splits `Card/Card` written without spaces."""
    entries, problems, ignored = [], [], []
    current = None  # [number, player, hand name, cards, header line, card lines]
    for line_number, raw in enumerate((text or "").splitlines(), start=1):
        line = clean_line(raw)
        if not line:
            continue
        if is_result_comment(line) or _POST_HEADER.search(line):
            ignored.append((line_number, line))
            continue
        expected = current[0] + 1 if current else 1
        header = _header(line, expected=expected, current=current, is_card=is_card)
        if header is not None:
            if current is not None:
                entries.append(_entry(current))
            number, rest = header
            player, hand_name = (clean_name(part) for part in split_player_and_name(rest))
            current = [number, player, hand_name, [], line_number, []]
        elif current is None:
            ignored.append((line_number, line))
        else:
            cards = parse_hand_list(line, is_card=is_card)
            current[3].extend(cards)
            current[5].extend([line_number] * len(cards))
    if current is not None:
        entries.append(_entry(current))
    problems.extend(_entry_problems(entries))
    if not entries and not problems:
        problems.append(
            'No entries found: an entry starts with its number and player, like `01 Player :: "Hand name"`, '
            "and its cards follow on the next line."
        )
    return HandsPost(entries, problems, ignored)


def _entry(current):
    number, player, hand_name, cards, line, card_lines = current
    return ArchiveEntry(number, player, hand_name, cards, line, tuple(card_lines))


def _entry_problems(entries):
    return entry_problems(entries, max_player_length=MAX_FORUM_NAME, max_hand_name_length=MAX_HAND_NAME)


def parse_hands_post(text, is_card=None):
    """The entries of a "hands posted" post, in order; ArchiveFormatError listing every problem otherwise."""
    post = read_hands_post(text, is_card=is_card)
    if post.problems:
        raise ArchiveFormatError(post.problems)
    return post.entries


# The preview ------------------------------------------------------------------------------------------------


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


@dataclass
class EntryPreview:
    entry: ArchiveEntry
    cards: list[CardPreview]
    username: str  # the existing account's, or the one that will be created
    new_player: bool
    points: int | None = None  # from the table, when one is given
    league_points: int | None = None

    @property
    def number(self):
        return self.entry.number

    @property
    def number_label(self):
        return f"{self.entry.number:02d}"

    @property
    def problems(self):
        return [card for card in self.cards if not card.resolved]


@dataclass
class UnknownCard:
    entry: ArchiveEntry
    card: CardPreview


@dataclass
class ImportResult:
    """The preview (dry run or refused import) or the outcome of an import (`round` set)."""

    dry_run: bool
    entries: list[EntryPreview] = field(default_factory=list)
    unknown_cards: list[UnknownCard] = field(default_factory=list)
    players_to_create: list[tuple[str, str]] = field(default_factory=list)  # (forum name, username)
    ignored_lines: list[tuple[int, str]] = field(default_factory=list)
    table_given: bool = False
    table_problems: list[str] = field(default_factory=list)
    known_matches: int = 0
    total_matches: int = 0
    warnings: list[str] = field(default_factory=list)
    errors: dict[str, list[str]] = field(default_factory=dict)
    round: Round | None = None
    # {(a, b): (points_a, points_b)}: the results the table knows, a < b.
    pair_results: dict = field(default_factory=dict, repr=False)

    @property
    def ok(self):
        return not self.errors

    @property
    def undetermined_matches(self):
        return self.total_matches - self.known_matches

    def add_error(self, field_name, message):
        self.errors.setdefault(field_name, []).append(message)


def _to_deadline(deadline, now):
    """A date becomes noon UTC that day (the same date in every time zone within 11 hours of UTC), but never
    later than now; a naive datetime is read as UTC."""
    if isinstance(deadline, dt.datetime):
        return deadline if timezone.is_aware(deadline) else timezone.make_aware(deadline, dt.UTC)
    if isinstance(deadline, dt.date):
        return min(dt.datetime.combine(deadline, dt.time(12, 0), tzinfo=dt.UTC), now)
    return None


def _check_round_fields(result, *, actor, league, title, hand_size, deadline, now):
    if not isinstance(league, League):
        result.add_error("league", "Choose the league the round belongs to.")
    elif not can_manage_league(actor, league):
        result.add_error("league", f"You do not moderate {league.name}.")
    title = clean_name(title)
    if not title:
        result.add_error("title", "A round needs a title, such as \u201c5 Card Alphabetized\u201d.")
    elif len(title) > MAX_TITLE:
        result.add_error("title", f"Keep the title under {MAX_TITLE} characters.")
    if not isinstance(hand_size, int) or isinstance(hand_size, bool) or not 1 <= hand_size <= 7:
        result.add_error("hand_size", "A hand has 1 to 7 cards.")
        hand_size = None
    if deadline is None:
        result.add_error("deadline", "Give the date of the round's deadline.")
    elif deadline > now:
        result.add_error("deadline", "An archived round's deadline is in the past.")
    return title, hand_size


def _resolve_cards(entry, index):
    previews = []
    for typed, line in zip(entry.cards, entry.card_lines or [entry.line] * len(entry.cards), strict=True):
        resolution = resolve_name(typed, index=index)
        accepted = resolution.resolved and resolution.status in (Status.EXACT, Status.NORMALIZED)
        previews.append(
            CardPreview(
                typed=typed,
                line=line,
                status=resolution.status,
                name=resolution.card.name if accepted else None,
                suggestions=resolution.suggestion_names,
            )
        )
    return previews


def _existing_players(names):
    """{casefolded forum name or username: user} for the names given (two queries)."""
    User = get_user_model()
    folded = {name.casefold() for name in names if name}
    lowered = {name.lower() for name in names if name}
    found = {}
    for user in User.objects.annotate(key=Lower("username")).filter(key__in=lowered):
        found.setdefault(user.username.casefold(), user)
    for profile in (
        Profile.objects.annotate(key=Lower("forum_username")).filter(key__in=lowered).select_related("user")
    ):
        found[profile.forum_username.casefold()] = profile.user  # the forum name outranks a username
    return {key: user for key, user in found.items() if key in folded}


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


def _match_players(result, entries):
    """{casefolded name: existing user} and {casefolded name: username to create}; one query per new
    player."""
    User = get_user_model()
    existing = _existing_players([entry.player for entry in entries])
    accounts, planned = {}, set()

    def is_taken(name):
        return name.casefold() in planned or User.objects.filter(username__iexact=name).exists()

    for entry in entries:
        key = entry.player.casefold()
        if not key or key in existing or key in accounts:
            continue
        accounts[key] = derive_username(entry.player, is_taken)
        planned.add(accounts[key].casefold())
        result.players_to_create.append((entry.player, accounts[key]))
    owners = {}
    for entry in entries:
        user = existing.get(entry.player.casefold())
        if user is None:
            continue
        if user.pk in owners and owners[user.pk].casefold() != entry.player.casefold():
            result.add_error(
                "hands_text",
                f"Line {entry.line}: {entry.player} and {owners[user.pk]} are the same account "
                f"({user.get_username()}), which can have only one hand in a round.",
            )
        owners.setdefault(user.pk, entry.player)
    return existing, accounts


def _read_table(result, table_text, entries):
    """The table's rows (completed with the mirror of each one-sided cell), or None; problems go to result."""
    result.table_given = True
    try:
        rows = parse_table(table_text)
    except RowFormatError as error:
        result.add_error("table_text", str(error))
        return None
    if entries and len(rows) != len(entries):
        result.add_error(
            "table_text",
            f"The table has {len(rows)} rows but the post has {len(entries)} hands: they must match.",
        )
        return None
    inconsistent = check_table(rows)
    for problem in inconsistent:
        result.table_problems.append(problem.message)
        result.add_error("table_text", problem.message)
    completed = complete_table(rows)
    for row, done in zip(rows, completed, strict=True):
        if row.stated_points is not None and row.stated_points != done.stated_points:
            result.warnings.append(
                f"Row {row.number} says PT {row.stated_points}, but its results add up to "
                f"{done.stated_points} (unknown matches count 0, rule 6.3b)."
            )
    return None if inconsistent else completed


def _pair_results(rows):
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


def _preview(*, actor, league, title, hand_size, deadline, hands_text, table_text="", now=None):
    """Everything `import_round` would do, checked, without saving anything."""
    now = now or timezone.now()
    result = ImportResult(dry_run=True)
    deadline = _to_deadline(deadline, now)
    title, hand_size = _check_round_fields(
        result, actor=actor, league=league, title=title, hand_size=hand_size, deadline=deadline, now=now
    )
    index = get_index()
    post = read_hands_post(hands_text, is_card=lambda name: _accepted(resolve_name(name, index=index)))
    result.ignored_lines = post.ignored
    for problem in post.problems:
        result.add_error("hands_text", problem)
    existing, accounts = _match_players(result, post.entries)
    for entry in post.entries:
        key = entry.player.casefold()
        user = existing.get(key)
        preview = EntryPreview(
            entry=entry,
            cards=_resolve_cards(entry, index),
            username=user.get_username() if user else accounts.get(key, ""),
            new_player=user is None,
        )
        result.entries.append(preview)
        result.unknown_cards.extend(UnknownCard(entry, card) for card in preview.problems)
        if hand_size is not None and entry.cards and len(entry.cards) != hand_size:
            result.add_error(
                "hands_text",
                f"Line {entry.line}: entry {entry.number:02d} ({entry.player}) has {len(entry.cards)} "
                f"card{'s' if len(entry.cards) != 1 else ''}; this round's hands have {hand_size}.",
            )
    if result.unknown_cards:
        count = len(result.unknown_cards)
        result.add_error(
            "hands_text",
            f"{count} card name{'s are' if count > 1 else ' is'} not known: fix "
            f"{'them' if count > 1 else 'it'} in the post (the preview lists suggestions).",
        )
    count = len(post.entries)
    result.total_matches = count * (count - 1) // 2
    if (table_text or "").strip():
        rows = _read_table(result, table_text, post.entries)
        if rows is not None:
            by_number = {row.number: row for row in rows}
            for preview in result.entries:
                row = by_number.get(preview.number)
                if row is not None:
                    preview.points, preview.league_points = row.stated_points, row.stated_league_points
            result.pair_results = _pair_results(rows)
            result.known_matches = len(result.pair_results)
    return result, {"title": title, "hand_size": hand_size, "deadline": deadline, "existing": existing}


def _accepted(resolution):
    return resolution.resolved and resolution.status in (Status.EXACT, Status.NORMALIZED)


# The import -------------------------------------------------------------------------------------------------


def import_round(
    *, actor, league, title, hand_size, deadline, hands_text, table_text="", dry_run=False, now=None
):
    """Import a past round from forum text. `deadline` is a date or a datetime, in the past.

    Dry run: the preview, nothing saved. Otherwise, when the preview has no problem, in one transaction: the
    round (numbered after the league's last, audited as "round.imported"), accounts for unknown players, one
    hand per entry numbered as in the post with one version (source player, created by `actor`, submitted at
    the deadline, with a real nonce and commitment), and its match table. With a table, every result it
    knows is set ("Imported from the forum"), the round is finalized with force (unknown matches become 0-0,
    rule 6.3b) and its tally stored; without one, the round stays revealed for results to be entered.
    Refused with ArchiveImportError (carrying the preview) when anything is wrong."""
    now = now or timezone.now()
    result, cleaned = _preview(
        actor=actor,
        league=league,
        title=title,
        hand_size=hand_size,
        deadline=deadline,
        hands_text=hands_text,
        table_text=table_text,
        now=now,
    )
    if dry_run:
        return result
    if not result.ok:
        raise ArchiveImportError(result)
    result.dry_run = False
    with transaction.atomic():
        round_ = _create_round(actor, league, cleaned)
        hands = _create_hands(actor, round_, result, cleaned)
        build_match_table(round_.pk, now=now)
        if result.table_given:
            _set_results(actor, round_, hands, result.pair_results, now)
        log_action(
            round_,
            "round.imported",
            actor=actor,
            after={
                "title": round_.title,
                "hand_size": round_.hand_size,
                "deadline": round_.deadline,
                "hands": len(hands),
                "players_created": [username for _, username in result.players_to_create],
                "table": result.table_given,
                "results_imported": result.known_matches if result.table_given else 0,
            },
            note=IMPORT_NOTE,
        )
        if result.table_given:
            finalize_round(actor=actor, round_id=round_.pk, force=True, now=now)  # stores the final tally
    round_.refresh_from_db()
    result.round = round_
    return result


def _create_round(actor, league, cleaned):
    """Numbered like `create_round`, without its rule that a deadline lies ahead: an archived round's lies
    behind."""
    return Round.objects.create(
        league=league,
        number=next_round_number(league),
        title=cleaned["title"],
        hand_size=cleaned["hand_size"],
        deadline=cleaned["deadline"],
        state=RoundState.REVEALED,
        created_by=actor,
    )


def _create_hands(actor, round_, result, cleaned):
    """{entry number: hand}: the players (created when unknown), their hands and one version each."""
    users = dict(cleaned["existing"])
    for forum_name, username in result.players_to_create:
        users[forum_name.casefold()] = register_player(
            username=username, password=None, forum_username=forum_name[:MAX_FORUM_NAME]
        )
    hands = {}
    versions = []
    for preview in result.entries:
        entry = preview.entry
        player = users[entry.player.casefold()]
        hand = Hand.objects.create(round=round_, player=player, name=entry.hand_name, number=entry.number)
        cards = [card.name for card in preview.cards]
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
                submitted_at=cleaned["deadline"],
                is_current=True,
            )
        )
        hands[entry.number] = hand
    HandVersion.objects.bulk_create(versions)
    return hands


def _set_results(actor, round_, hands, pairs, now):
    """The moderator's decision on every match the table knows, in one bulk update (the audit entry of the
    import records how many); finalization then derives each match's status and points from it."""
    number_of = {hand.pk: number for number, hand in hands.items()}
    decided = []
    for match in Match.objects.filter(round=round_):
        result = pairs.get((number_of[match.hand_a_id], number_of[match.hand_b_id]))
        if result is None:
            continue
        match.decided_points_a, match.decided_points_b = result
        match.decided_by, match.decided_note, match.decided_at = actor, IMPORT_NOTE, now
        decided.append(match)
    Match.objects.bulk_update(
        decided,
        ["decided_points_a", "decided_points_b", "decided_by", "decided_note", "decided_at"],
        batch_size=2000,
    )
