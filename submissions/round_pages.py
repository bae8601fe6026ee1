"""What the hands add to the rounds app's pages (rounds.page_extensions): the viewer's own hand, the revealed
hands with their commitments, and whether the viewer may open the review page."""

from rounds.catalog.texts import card_texts
from rounds.page_extensions import ROUND_MANAGE_PAGE, ROUND_PAGE, provides

from . import commitments, selectors
from .bbcode import hands_posted


@provides(ROUND_PAGE)
def hands_on_the_round_page(request, round_, now, context):
    revealed = selectors.is_revealed(round_, now)
    my_hand = selectors.own_hand(request.user, round_)
    hands = selectors.hands_of_round(round_) if revealed else []
    for hand in hands:
        version = hand.committed_version
        hand.committed_text = commitments.version_text(version) if version else ""
    # Each revealed card with its text (one query for every card of the round), for the page's grid of hands.
    texts = card_texts(name for hand in hands if hand.current_version for name in hand.current_version.cards)
    for hand in hands:
        cards = hand.current_version.cards if hand.current_version else []
        hand.card_entries = [(name, texts.get(name)) for name in cards]
    return {
        "my_hand": my_hand,
        "hands": hands,
        "hands_bbcode": hands_posted(round_, hands) if revealed else "",
        # The playing-moderator rule: a moderator with a hand reviews nothing before the deadline.
        "can_review": context["can_manage"] and (revealed or my_hand is None) and round_.state != "draft",
    }


@provides(ROUND_MANAGE_PAGE)
def review_link_on_the_manage_page(request, round_, now, context):
    # The review page asks a moderator who has not declared yet whether they will play.
    open_to_viewer = selectors.can_review(request.user, round_, now) or selectors.needs_declaration(
        request.user, round_, now
    )
    return {"can_review": round_.state != "draft" and open_to_viewer}
