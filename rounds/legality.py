"""Whether a hand is legal under a round's rules, with every problem explained per card.

`check_hand` is the only place the rules of hand construction are decided (rules 3.2, 3.3, 7.3, 7.4 and the
round's hand size); forms, the API, review pages and `manage.py check_hand` all call it. It costs at most
four queries whatever the hand: banned lists, cards, printings (only with allowed sets) and the format check;
the cards' rows are remembered with the catalog index, so the cards query is usually skipped.
A round is judged by `rules_for_round`, against the banned lists as they were when it opened (rule 2.1a), and
against the catalog's legalities as they were then (`catalog.history`: no query unless the catalog changed
since).
"""

import datetime
from dataclasses import dataclass, field

from django.utils.formats import date_format

from .banned_matching import banned_entries, lifted_cards, matches
from .card_rules import check_card_rules
from .catalog import history
from .catalog.names import normalize_name
from .catalog.resolve import Resolution, Status, get_index, resolve_name
from .catalog.sources import CORE_FORMATS
from .formats import format_not_legal_message, known_format
from .models import (
    MAX_HAND_SIZE,
    BannedList,
    Card,
    HandSizeMode,
    LandRule,
    Legality,
    Printing,
    RoundState,
)
from .services.catalog import accepted_card_names


class RulesError(ValueError):
    """The rules themselves are wrong (unknown format, hand size out of range): a usage error."""


@dataclass(frozen=True)
class HandRules:
    hand_size: int | None = None  # None: any number of cards (e.g. checking a list outside a round)
    land_rule: str = LandRule.NONE
    sanctioned_format: str | None = None  # rule 7.4, e.g. "modern"
    extra_banned: tuple = ()  # the round's additional banned cards, by name
    allowed_sets: tuple | None = None  # set codes; None: any set
    # Names a moderator accepted (rule 3.2a): cards the catalog lacks, or catalog cards not yet Vintage-legal.
    accepted_cards: tuple = ()
    # The round's banned entries as taken when it opened: ((name, list key, category), …). None: judge by the
    # standing lists (a draft, or a list checked outside any round). Entries of list "round" are extra bans.
    banned_snapshot: tuple | None = None
    # Rule 2.1a: judge the catalog's legalities as they were at this moment (an opened round's opening).
    # None: as they are now (a draft, or a list checked outside any round).
    legal_as_of: datetime.datetime | None = None
    # The round's card rules (rounds.card_rules): ((query, at_least, at_most, message), …).
    card_rules: tuple = ()
    # Cards the round lifts from the PHM and Land Rule lists ("unless otherwise specified by the round
    # rules").
    unbanned: tuple = ()
    hand_size_mode: str = HandSizeMode.EXACTLY  # "up_to": any number of cards from 1 to hand_size

    def validate(self):
        if self.hand_size is not None and not 1 <= self.hand_size <= MAX_HAND_SIZE:
            raise RulesError(f"Hand size must be between 1 and {MAX_HAND_SIZE}, not {self.hand_size}.")
        if self.hand_size_mode not in HandSizeMode.values:
            raise RulesError(
                f"Unknown hand size mode {self.hand_size_mode!r}: "
                f"use one of {', '.join(HandSizeMode.values)}."
            )
        if self.land_rule not in LandRule.values:
            raise RulesError(
                f"Unknown land rule {self.land_rule!r}: use one of {', '.join(LandRule.values)}."
            )
        if self.sanctioned_format is not None and not known_format(self.sanctioned_format):
            raise RulesError(
                f"Unknown format {self.sanctioned_format!r}: the catalog knows {', '.join(CORE_FORMATS)}."
            )


@dataclass(frozen=True)
class Problem:
    code: str
    message: str


@dataclass
class CardVerdict:
    index: int
    input: str
    resolution: Resolution
    card: Card | None = None
    accepted: bool = False  # not in the catalog, accepted by a moderator for the round
    problems: list = field(default_factory=list)

    @property
    def name(self):
        """The name to show: the catalog's, else what was typed."""
        return self.card.name if self.card else self.input.strip()

    @property
    def legal(self):
        return not self.problems

    @property
    def suggestions(self):
        return self.resolution.suggestion_names


@dataclass
class HandVerdict:
    cards: list
    problems: list  # about the hand as a whole (number of cards)
    rules: HandRules

    @property
    def legal(self):
        return not self.problems and all(card.legal for card in self.cards)

    @property
    def names(self):
        return [card.name for card in self.cards]


def catalog_date_text(as_of):
    return date_format(as_of, "j F Y") if as_of else "an unknown date"


def rules_for_round(round_, accepted_cards=None):
    """The rules a hand in `round_` is judged by. An opened round uses its banned snapshot (rule 2.1a), whose
    "round" entries are its extra bans; a draft uses the standing lists and its extra bans as they are now.
    Pass `accepted_cards` when already known, to save the query."""
    if accepted_cards is None:
        accepted_cards = accepted_card_names(round_)
    snapshot = None
    extra = tuple(round_.extra_banned or ())
    if round_.state != RoundState.DRAFT and round_.banned_snapshot:
        snapshot = tuple(
            (entry["name"], entry["list"], entry.get("category") or "") for entry in round_.banned_snapshot
        )
        extra = ()  # already in the snapshot, under the list "round"
    return HandRules(
        hand_size=round_.hand_size,
        land_rule=round_.land_rule,
        sanctioned_format=round_.sanctioned_format or None,
        extra_banned=extra,
        allowed_sets=tuple(round_.allowed_sets) if round_.allowed_sets else None,
        accepted_cards=tuple(accepted_cards),
        banned_snapshot=snapshot,
        # Not snapshotted: the round's own field, the same for a draft and an opened round.
        unbanned=tuple(round_.unbanned or ()),
        hand_size_mode=round_.hand_size_mode or HandSizeMode.EXACTLY,
        legal_as_of=history.legality_moment(round_),
        card_rules=_card_rules_of(round_),
    )


def _card_rules_of(round_):
    return tuple(
        (rule["query"], rule.get("at_least"), rule.get("at_most"), rule.get("message") or "")
        for rule in (round_.card_rules or ())
    )


def _unknown_problem(verdict, as_of):
    typed = verdict.input.strip()
    if not typed:
        return Problem("empty_name", "A card name is empty.")
    suggestions = verdict.resolution.suggestion_names
    where = f"not in the card catalog (as of {catalog_date_text(as_of)})"
    if verdict.resolution.status == Status.FUZZY:
        return Problem("fuzzy_match", f"“{typed}” is {where}. Did you mean “{suggestions[0]}”?")
    hint = f" Did you mean: {', '.join(suggestions)}?" if suggestions else ""
    return Problem("unknown_card", f"“{typed}” is {where}.{hint}")


# Per process, at most this many cards' legality rows are kept (the whole catalog would be ~30k).
CARD_MEMO_LIMIT = 4096


def _catalog_cards(card_ids, index):
    """The Card rows legality needs, by id: from a memo kept with the index, one query for the missing ones.

    The catalog changes only through `import_cards`, which records a new revision and so makes every process
    build a new index (with an empty memo): the rows are exactly as fresh as the name resolution itself."""
    memo = index.legality_rows
    missing = [card_id for card_id in card_ids if card_id not in memo]
    if missing:
        if len(memo) + len(missing) > CARD_MEMO_LIMIT:
            memo.clear()
        memo.update(
            Card.objects.only("id", "name", "slug", "legalities", "type_line", "mana_value").in_bulk(missing)
        )
    return {card_id: memo[card_id] for card_id in card_ids if card_id in memo}


def check_hand(card_inputs, rules=None):
    """Judge a list of typed card names under `rules`; every problem is reported, none stops the others."""
    rules = rules or HandRules()
    rules.validate()
    index = get_index()
    verdicts = [
        CardVerdict(index=position, input=text, resolution=resolve_name(text, index=index))
        for position, text in enumerate(card_inputs)
    ]
    card_ids = {verdict.resolution.card.id for verdict in verdicts if verdict.resolution.resolved}
    cards = _catalog_cards(card_ids, index)
    legal_then = history.legalities_as_of(card_ids, rules.legal_as_of, index)
    printed_in_allowed = set()
    if rules.allowed_sets is not None and card_ids:
        allowed = {code.upper() for code in rules.allowed_sets}
        printed_in_allowed = set(
            Printing.objects.filter(card_id__in=card_ids, card_set__code__in=allowed).values_list(
                "card_id", flat=True
            )
        )
    banned = banned_entries(rules.banned_snapshot)
    extra = list(banned.get("round", []))
    for name in rules.extra_banned:
        resolution = resolve_name(name, index=index)
        extra.append((resolution.card.id if resolution.resolved else None, normalize_name(name), name))
    accepted = {normalize_name(name) for name in rules.accepted_cards}
    lifted = lifted_cards(rules.unbanned, index)
    uses_land_rule = rules.land_rule != LandRule.NONE
    land_rule_label = LandRule(rules.land_rule).label

    for verdict in verdicts:
        verdict.card = cards.get(verdict.resolution.card.id) if verdict.resolution.resolved else None
        card_id = verdict.card.id if verdict.card else None
        key = normalize_name(verdict.card.name if verdict.card else verdict.input)
        problems = verdict.problems
        if verdict.card is None:
            if key and key in accepted:
                verdict.accepted = True
            else:
                problems.append(_unknown_problem(verdict, index.as_of))
        else:
            verdict.accepted = _check_card_legality(
                verdict.card, rules, printed_in_allowed, problems,
                past=legal_then.get(card_id), accepted=key in accepted,
            )  # fmt: skip
        is_lifted = card_id in lifted[0] or key in lifted[1]
        for card_id_banned, name_key, category in banned.get(BannedList.PHM, []):
            if not is_lifted and matches(card_id, key, (card_id_banned, name_key)):
                problems.append(
                    Problem(
                        "phm_banned",
                        f"{verdict.name} is on the PHM Banned List ({category}).",
                    )
                )
        if uses_land_rule and not is_lifted:
            for card_id_banned, name_key, category in banned.get(BannedList.LAND_RULE, []):
                if matches(card_id, key, (card_id_banned, name_key)):
                    problems.append(
                        Problem(
                            "land_rule_banned",
                            f"{verdict.name} is on the Land Rule Banned List "
                            f"({category}), which applies because this round uses "
                            f"{land_rule_label}.",
                        )
                    )
        for card_id_banned, name_key, _ in extra:
            if matches(card_id, key, (card_id_banned, name_key)):
                problems.append(
                    Problem("round_banned", f"{verdict.name} is on this round's additional banned list.")
                )
                break

    hand_problems = [problem] if (problem := _count_problem(len(verdicts), rules)) else []
    if rules.card_rules:
        hand_problems += check_card_rules(verdicts, rules.card_rules, Problem, legal_then)
    return HandVerdict(cards=verdicts, problems=hand_problems, rules=rules)


def _count_problem(count, rules):
    if rules.hand_size is None:
        return None
    has = f"The hand has {count} card{'s' if count != 1 else ''}"
    if rules.hand_size_mode == HandSizeMode.UP_TO:
        if 1 <= count <= rules.hand_size:
            return None
        return Problem(
            "wrong_count", f"{has}; this round allows 1 to {rules.hand_size} (up to {rules.hand_size})."
        )
    if count != rules.hand_size:
        return Problem("wrong_count", f"{has}; this round needs exactly {rules.hand_size}.")
    return None


def _legality_then(card, format_key, past):
    """The card's legality in the format at the round's moment: `past` holds the values that changed since
    (None: not in the catalog then), else today's value."""
    if past and format_key in past:
        return past[format_key]
    return card.legality(format_key)


def _check_card_legality(card, rules, printed_in_allowed, problems, past=None, accepted=False):
    """Vintage, sanctioned format and allowed sets. Returns whether a moderator's acceptance (rule 3.2a) made
    a card legal that the catalog does not (yet) have as legal in Vintage."""
    vintage = _legality_then(card, "vintage", past)
    changed = bool(past) and "vintage" in past  # the round opened before the catalog's latest value
    lifted = False
    # Rule 3.2: restricted in Vintage is fine, and any number of copies may be played. An acceptance never
    # lifts a Vintage ban.
    if vintage == Legality.BANNED:
        message = (
            f"{card.name} was banned in Vintage when this round opened (rules 2.1a and 3.2)."
            if changed
            else f"{card.name} is banned in Vintage (rule 3.2)."
        )
        problems.append(Problem("vintage_banned", message))
    elif vintage not in (Legality.LEGAL, Legality.RESTRICTED):
        if accepted:
            lifted = True
        else:
            if vintage is history.NOT_IN_CATALOG:
                message = (
                    f"{card.name} was not in the card catalog when this round opened (rules 2.1a and 3.2)."
                )
            elif changed:
                message = f"{card.name} was not legal in Vintage when this round opened (rules 2.1a and 3.2)."
            else:
                message = f"{card.name} is not legal in Vintage (rule 3.2)."
            problems.append(Problem("not_vintage_legal", message))
    # Rule 7.4: "banned" in the format means printed in a legal set, which is all the variant asks.
    if rules.sanctioned_format and _legality_then(card, rules.sanctioned_format, past) in (
        Legality.NOT_LEGAL,
        history.NOT_IN_CATALOG,
    ):
        problems.append(
            Problem("format_not_legal", format_not_legal_message(card.name, rules.sanctioned_format))
        )
    if rules.allowed_sets is not None and card.id not in printed_in_allowed:
        sets = ", ".join(code.upper() for code in rules.allowed_sets)
        problems.append(
            Problem("set_not_allowed", f"{card.name} was not printed in the sets this round allows ({sets}).")
        )
    return lifted


def accepted_cards_matter(card_inputs, round_):
    """Whether a round's accepted cards (rule 3.2a) could change the verdict on these names, so that they must
    be loaded: a name the catalog lacks, or a card not legal in Vintage today or possibly at the round's
    opening. Usually no query: resolution is in memory and the card rows are the ones check_hand uses."""
    index = get_index()
    card_ids = set()
    for text in card_inputs:
        resolution = resolve_name(text, index=index)
        if not resolution.resolved:
            return True
        card_ids.add(resolution.card.id)
    if history.changed_since(history.legality_moment(round_), index):
        return True
    playable = (Legality.LEGAL, Legality.RESTRICTED)
    return any(card.legality("vintage") not in playable for card in _catalog_cards(card_ids, index).values())
