"""The entries of an archive import: each posted entry with its player and cards, checked (a player, names
not too long, every card known, the hand's size, one hand per account), and each hand's rule problems under
the round's rules, accepted as the forum played it."""

from __future__ import annotations

from rounds.catalog.resolve import CatalogIndex
from rounds.legality import HandRules, check_hand
from rounds.models import DeadlinePrecision

from ..post import PostEntry
from ..shared import MAX_FORUM_NAME, MAX_HAND_NAME, Problem, SuggestionBudget, resolve_cards
from .players import PlayerChooser
from .results import EntryImport, PostImport

# Problems about the hand's card list that the preview reports itself, not as accepted legality warnings.
_OWN_CHECKS = {"unknown_card", "fuzzy_match", "empty_name", "wrong_count"}


def read_entries(
    result: PostImport, entries: list[PostEntry], index: CatalogIndex, chosen_players: dict
) -> None:
    """Add to `result.entries` one EntryImport per posted entry, with its player (`chosen_players`: posted
    name -> username, "" or None for a new account), its cards and its problems."""
    players = PlayerChooser(result, [entry.player for entry in entries], chosen_players)
    budget = SuggestionBudget()
    for entry in entries:
        player = players.choice(entry.player)
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
    owners: dict[int, int] = {}
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


def check_legality(result: PostImport) -> None:
    """Each hand's rule problems under the round's rules, as of its deadline: accepted as the forum played
    it."""
    fields = result.fields
    if fields.hand_size is None:
        return
    rules = HandRules(
        hand_size=fields.hand_size,
        land_rule=fields.land_rule,
        extra_banned=tuple(fields.extra_banned),
        legal_as_of=fields.deadline if fields.deadline_precision != DeadlinePrecision.UNKNOWN else None,
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
