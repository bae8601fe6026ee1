"""Each of the forum's three entry styles, in a whole post wrapped as real posts are (heading, header
block, commentary, a comment under every hand, row template, rules document, BBCode), imports as pasted. The
only thing a moderator settles is the misspelled card each post carries on purpose, with its first suggestion."""

import pytest

from archive.forum.post_import.preview import preview_post
from archive.forum.post_import.write import import_post
from rounds.models import RoundState
from rounds.services.leagues import create_league
from submissions.models import Hand
from tests.archive.forum_post.posts.expected import EXPECTED, read_post
from tests.archive.test_post_import import NOW

TYPOS = {"Blak Lotus": "Black Lotus", "Kjeldoran Warior": "Kjeldoran Warrior"}


def with_typos_fixed(cards):
    return [TYPOS.get(card, card) for card in cards]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_style_imports_as_pasted(moderator, name):
    expected = EXPECTED[name]
    posted = expected["round"]
    league = create_league(actor=moderator, name=f"League for {name}", moderators=[moderator])
    league.number = posted["league_number"] or 50
    league.save(update_fields=["number"])
    post = read_post(name)

    preview = preview_post(actor=moderator, league=league, post=post, now=NOW)
    blocking = [(problem.code, problem.typed, problem.suggestions[:1]) for problem in preview.all_problems]
    assert blocking == [
        ("not_exact", typo, (TYPOS[typo],))
        for entry in expected["entries"]
        for typo in entry[3]
        if typo in TYPOS
    ]
    for typo, card in TYPOS.items():  # the moderator's one click on the suggestion
        post = post.replace(typo, card)

    result = import_post(actor=moderator, league=league, post=post, now=NOW)
    round_ = result.round
    assert round_.state == RoundState.REVEALED
    assert round_.title == posted["title"]
    assert round_.number == (posted["round_number"] or 1)
    assert round_.counts_in_standings is (posted["league_number"] is not None)
    assert (round_.hand_size, round_.land_rule) == (posted["hand_size"], posted["land_rule"])
    assert round_.extra_banned == posted["extra_banned"]
    assert round_.deadline == posted["deadline"]
    assert (round_.commentary, round_.format_rule) == (posted["commentary"], posted["format_rule"])
    hands = Hand.objects.filter(round=round_).select_related("player__profile").order_by("number")
    assert [
        (
            hand.number,
            hand.player.profile.forum_username,
            hand.name,
            hand.versions.get(is_current=True).cards,
            hand.comment,
        )
        for hand in hands
    ] == [
        (number, player, hand_name, with_typos_fixed(cards), comment)
        for number, player, hand_name, cards, comment in expected["entries"]
    ]
    assert [part.kind for part in result.skipped] == expected["skipped"]
