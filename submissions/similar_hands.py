"""A moderator's similar hand (rule 4.2a): which cards of the player's hand it may remove or replace (only
those that make the hand illegal), which it removed or replaced, and how that is said next to the hand once
hands are public (round page, hands API, forum exports). Every comparison is with the player's own last hand,
never with a moderator's earlier similar hand."""

from collections import Counter

# The rules a player attests because software cannot check them (submissions.services.submit).
UNCHECKABLE_RULES = "3.1, 7.5b, 7.6a"


def similar_hand_refusal(own_cards, own_verdict, new_cards):
    """Why `new_cards` is not a similar hand of the player's `own_cards` (rule 4.2a: "any cards causing that
    hand to be illegal have been removed or replaced"), or "" when it is. `own_verdict` is the round's verdict
    on `own_cards` (rounds.legality.check_hand): the cards it finds a problem with are the ones that may be
    removed or replaced; every other card stays. A hand it finds legal broke a rule software cannot check
    (3.1, 7.5b, 7.6a), which names no card: its similar hand may only leave cards out. A problem of the whole
    hand (its count, a card rule's count: only a hand not judged when it was submitted has one) names no card
    either: then any card may change."""
    illegal = [card.index for card in own_verdict.cards if card.problems]
    if own_verdict.problems:
        changeable, new_allowed = set(range(len(own_cards))), len(own_cards)
    elif illegal:
        changeable, new_allowed = set(illegal), len(illegal)
    else:
        changeable, new_allowed = set(range(len(own_cards))), 0
    keep = Counter(card for index, card in enumerate(own_cards) if index not in changeable)
    given = Counter(new_cards)
    missing = keep - given
    if missing:
        may_change = _names(own_cards[index] for index in sorted(changeable))
        return (
            f"A similar hand keeps every card of the player's hand that is not illegal (rule 4.2a): "
            f"{_names(missing.elements())} must stay; only {may_change} may be removed or replaced."
        )
    rest = given - keep
    added = rest - Counter(own_cards[index] for index in changeable)
    if sum(added.values()) <= new_allowed:
        return ""
    if not illegal and not own_verdict.problems:
        return (
            "The round's rules find no card of the player's hand illegal, so its similar hand may only leave "
            f"cards out (for a rule the software cannot check: {UNCHECKABLE_RULES}), not add "
            f"{_names(added.elements())}. Disqualify the hand if no shorter hand will do."
        )
    illegal_names = _names(own_cards[index] for index in illegal)
    return (
        "A similar hand replaces only the cards that make the hand illegal (rule 4.2a): "
        f"{illegal_names}, by at most {new_allowed} card{'s' if new_allowed != 1 else ''}, "
        f"not {_names(added.elements())}."
    )


def _names(cards):
    """The cards as a list to read: each name once, with its number of copies when more than one."""
    counted = Counter(cards)
    return ", ".join(f"{name} ({count} copies)" if count > 1 else name for name, count in counted.items())


def card_changes(old_cards, new_cards):
    """What a similar hand changed (4.2a): the cards of the old list it no longer has, paired in order with
    the new cards that took their places ("replaced"); those left over were "removed" (or, rarely,
    "added")."""
    remaining = list(new_cards)
    gone = []
    for card in old_cards:
        if card in remaining:
            remaining.remove(card)
        else:
            gone.append(card)
    replaced = [{"card": card, "by": by} for card, by in zip(gone, remaining, strict=False)]
    return {
        "removed": gone[len(replaced) :],
        "replaced": replaced,
        "added": remaining[len(replaced) :],
    }


def describe_card_changes(changes):
    """The changes as one sentence for pages, exports and the API's "replaced" note; "" when none."""
    if not changes:
        return ""
    parts = [f"{item['card']} replaced by {item['by']}" for item in changes.get("replaced", [])]
    parts += [f"{card} removed" for card in changes.get("removed", [])]
    parts += [f"{card} added" for card in changes.get("added", [])]
    if not parts:
        return "Replaced by a similar hand (rule 4.2a)."
    return f"Replaced by a similar hand (rule 4.2a): {'; '.join(parts)}."
