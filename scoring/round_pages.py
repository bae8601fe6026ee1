"""What results add to the rounds app's round page (rounds.page_extensions): the viewer's own matches, once
the hands are revealed (before the deadline a round has no matches, and nothing of the hands may show)."""

from rounds.page_extensions import ROUND_PAGE, provides
from submissions.selectors import is_revealed

from .selectors import viewer_matches


@provides(ROUND_PAGE)
def my_matches_on_the_round_page(request, round_, now, context):
    if not is_revealed(round_, now) or not request.user.is_authenticated:
        return {"my_matches": []}
    return {"my_matches": viewer_matches(round_.pk, request.user)}
