"""A moderator's similar hand (rule 4.2a): which cards of the player's hand it removed or replaced, and how
that is said next to the hand once hands are public (round page, hands API, forum exports)."""


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
