"""What results add to the rounds app's card page (rounds.page_extensions): how the card was played."""

from rounds.page_extensions import CARD_PAGE, provides

from .metagame import card_metagame


@provides(CARD_PAGE)
def metagame_on_the_card_page(request, card):
    return {"metagame": card_metagame(card.name)}
