"""Rule 7.4 wording per format: Pauper admits cards by rarity (printed at common in a set legal in it), not by
sets alone, so neither the verdict nor the round's texts may say "not from a set legal in Pauper"."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rounds.bbcode import announcement
from rounds.legality import HandRules, check_hand
from rounds.services.lifecycle import create_round
from rounds.summary import rules_summary_lines

pytestmark = pytest.mark.django_db


def test_a_card_never_printed_at_common_is_refused_in_pauper_by_rarity(catalog_index):
    verdict = check_hand(["Black Lotus", "Lightning Bolt"], HandRules(sanctioned_format="pauper"))
    assert [[p.code for p in card.problems] for card in verdict.cards] == [["format_not_legal"], []]
    assert verdict.cards[0].problems[0].message == (
        "Black Lotus has never been printed at common in a set legal in Pauper (rule 7.4)."
    )
    modern = check_hand(["Mox Pearl"], HandRules(sanctioned_format="modern"))
    assert modern.cards[0].problems[0].message == "Mox Pearl is not from a set legal in Modern (rule 7.4)."


def test_the_round_page_announcement_and_summary_say_common_for_pauper(
    catalog_index, client, league, moderator
):
    now = timezone.now()
    round_ = create_round(
        actor=moderator, league=league, now=now, open_now=True, title="Pauper", hand_size=3,
        sanctioned_format="pauper", deadline=now + timedelta(days=2),
    )  # fmt: skip
    line = "Sanctioned format (7.4): Pauper — only cards printed at common in a set legal in it"
    assert line in rules_summary_lines(round_)
    assert "Pauper — only cards printed at common in a set legal in it" in announcement(
        round_, "https://x.org/"
    )
    page = client.get(f"/rounds/{round_.pk}/").content.decode()
    assert "printed at common in a set legal in it" in page and "sets legal in it" not in page
