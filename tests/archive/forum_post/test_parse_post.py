"""The forum post parser reads a whole "hands posted" post: heading, header, commentary, entries with
their comments, and sets aside what is no part of the round."""

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from archive.forum.post import parse_post
from archive.forum.post.fields import land_rule, parse_deadline

from .posts.expected import CARDS, EXPECTED, TODAY, read_post

is_card = CARDS.__contains__


def entry_tuples(post):
    return [(e.number, e.player, e.hand_name, e.cards, e.comment) for e in post.entries]


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("catalog", [is_card, None], ids=["with catalog", "shape only"])
def test_full_post_of_each_style(name, catalog):
    expected = EXPECTED[name]
    post = parse_post(read_post(name), is_card=catalog, today=TODAY)

    for field_name, value in expected["round"].items():
        assert getattr(post.round, field_name) == value, field_name
    assert entry_tuples(post) == expected["entries"]
    assert [skipped.kind for skipped in post.skipped] == expected["skipped"]
    assert post.problems == []


def test_line_numbers_point_into_the_original_text():
    text = read_post("style_paren_one_per_line.txt")
    post = parse_post(text, is_card=is_card, today=TODAY)
    lines = text.splitlines()

    first = post.entries[0]
    assert lines[first.line - 1] == "[b]1) Subtle_Relevance :: Void Dance[/b]"
    assert [lines[number - 1] for number in first.card_lines] == first.cards
    assert post.entries[1].card_lines == (20, 20, 20, 21, 22)
    rules = parse_post(read_post("style_double_colon.txt"), is_card=is_card).skipped[-1]
    assert rules.kind == "rules document" and rules.text.startswith("Contents\n1. Overview")


def test_skipped_text_is_trimmed():
    text = "01 A :: B\nBlack Lotus / Sol Ring\n\nHow to submit\n" + "Send it to me please. " * 500
    skipped = parse_post(text, is_card=is_card).skipped
    assert [item.kind for item in skipped] == ["how to submit"]
    assert 1900 < len(skipped[0].text) <= 2000 and skipped[0].text.endswith("\u2026")


@pytest.mark.parametrize(
    "spelling, rule",
    [
        ("None", "none"), ("No", "none"), ("-", "none"), ("none.", "none"),
        ("Basic", "LR"), ("Land Rule", "LR"), ("LR", "LR"), ("Yes", "LR"),
        ("Extra", "ELR"), ("ELR", "ELR"), ("Extra Land Rule", "ELR"),
        ("Draw", "DLR"), ("Alternative", "DLR"), ("DLR", "DLR"), ("ALR", "DLR"),
    ],
)  # fmt: skip
def test_each_land_rule_spelling(spelling, rule):
    assert land_rule(spelling) == rule
    post = parse_post(f"4 Card Test\n\n[b]LAND RULE:[/b] {spelling}\n\n01 A :: B\nBlack Lotus / Sol Ring")
    assert post.round.land_rule == rule


@pytest.mark.parametrize(
    "title, hand_size, rule",
    [("[b]3CH LR Elves[/b]", 3, "LR"), ("5-card ELR Madness", 5, "ELR"), ("4 Card ALR Party", 4, "DLR"),
     ("[size=150]5 Card Alphabetized[/size]", 5, None), ("Hands posted - League 31:03 - 4 Card Goblin Party", 4, None)],
)  # fmt: skip
def test_the_heading_is_the_title_never_an_entry(title, hand_size, rule):
    post = parse_post(f"{title}\n\n1) Mogg\nBlack Lotus\nSol Ring\n", is_card=is_card)
    assert post.round.hand_size == hand_size
    assert post.round.land_rule == rule
    assert [entry.number for entry in post.entries] == [1]
    assert post.round.title and post.round.title[:1] != "["


def test_title_strips_the_post_and_league_words():
    post = parse_post("Hands posted - League 31:03 - 4 Card Goblin Party\n01 A :: B\nBlack Lotus / Sol Ring")
    assert (post.round.title, post.round.code, post.round.league_number, post.round.round_number) == (
        "4 Card Goblin Party",
        "31:03",
        31,
        3,
    )
    post = parse_post("4 Card Goblins - League 12, Week 7\n01 A :: B\nBlack Lotus / Sol Ring")
    assert (post.round.league_number, post.round.round_number, post.round.code) == (12, 7, "")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Sunday 12 March 2023, 23:59 GMT", dt.datetime(2023, 3, 12, 23, 59, tzinfo=dt.UTC)),
        ("2023-03-12 18:00 UTC", dt.datetime(2023, 3, 12, 18, 0, tzinfo=dt.UTC)),
        ("12/03/2023", dt.datetime(2023, 3, 12, 12, 0, tzinfo=dt.UTC)),
        ("March 12th", dt.datetime(2023, 3, 12, 12, 0, tzinfo=dt.UTC)),
        ("12 March 2023 18:00 CET", dt.datetime(2023, 3, 12, 17, 0, tzinfo=dt.UTC)),
        ("when everyone is ready", None),
        ("99/99/9999", None),
    ],
)
def test_deadline_shapes(text, expected):
    assert parse_deadline(text, today=TODAY) == expected


def test_a_deadline_without_a_year_takes_the_nearest_year():
    assert parse_deadline("December 30th", today=dt.date(2024, 1, 3)).year == 2023
    assert parse_deadline("January 2nd", today=dt.date(2023, 12, 28)).year == 2024


def test_submission_deadline_after_the_entries_is_the_next_rounds():
    text = "4 Card Test\nDeadline: 2023-03-12 18:00 UTC\n\n01 A :: B\nBlack Lotus / Sol Ring\n\n"
    text += "Submission deadline: 2023-03-19 18:00 UTC\n"
    post = parse_post(text, is_card=is_card)
    assert post.round.deadline == dt.datetime(2023, 3, 12, 18, 0, tzinfo=dt.UTC)
    assert [(item.kind, item.text) for item in post.skipped] == [
        ("next round", "Submission deadline: 2023-03-19 18:00 UTC")
    ]


def test_header_keys_any_order_and_case_and_the_format_paragraph():
    text = (
        "[b]5 Card Alphabetized[/b]\n[b]deadline:[/b] 12/03/2023\nHAND SIZE: 5\nextra bans: Sol Ring / Mox Pearl\n"
        "Each card must start with the next letter.\n\nHave fun!\n\n01 A :: B\nBlack Lotus / Sol Ring\n"
    )
    post = parse_post(text, is_card=is_card)
    assert post.round.hand_size == 5
    assert post.round.extra_banned == ["Sol Ring", "Mox Pearl"]
    assert post.round.format_rule == "Each card must start with the next letter."
    assert post.round.commentary == "Have fun!"
    assert post.round.deadline.date() == dt.date(2023, 3, 12)


@pytest.mark.parametrize("partial", [True, False])
def test_a_correction_reply(partial):
    text = (
        "Correction: entry 05 should be:\n[quote=Moderator]05 Mogg :: \u201cNever get warm\u201d\n"
        "Black Lotus / Frost Titan / Nevermore[/quote]\n\nand 07:\n"
        "[quote]07 Feyd_Ruin :: Wear\nKarakas / Wear // Tear[/quote]\nSorry for the mix-up!"
    )
    post = parse_post(text, is_card=is_card, partial=partial)
    assert entry_tuples(post) == [
        (5, "Mogg", "Never get warm", ["Black Lotus", "Frost Titan", "Nevermore"], "and 07:"),
        (7, "Feyd_Ruin", "Wear", ["Karakas", "Wear // Tear"], "Sorry for the mix-up!"),
    ]
    assert post.round.title == ""
    gaps = [problem for problem in post.problems if "should be numbered" in problem]
    assert bool(gaps) is not partial


def test_three_black_lotus_inside_a_one_per_line_hand_is_cards_not_entry_three():
    text = "1) Ann\nMox Pearl\n2 Black Lotus\nSol Ring\n2) Bob\n3 Black Lotus\nFrost Titan\n3) Cy\nKarakas\n"
    for catalog in (is_card, None):
        post = parse_post(text, is_card=catalog)
        assert [(e.number, e.player, e.cards) for e in post.entries] == [
            (1, "Ann", ["Mox Pearl", "Black Lotus", "Black Lotus", "Sol Ring"]),
            (2, "Bob", ["Black Lotus"] * 3 + ["Frost Titan"]),
            (3, "Cy", ["Karakas"]),
        ]


def test_a_misspelled_card_stays_a_card_a_prose_line_is_a_comment():
    text = (
        "Deck size: 4\n\n01 Ann :: Hand\nBlak Lotus / Sol Ring / Mox Pearl / Karakas\nthis one is blak indeed\n"
        "02 Bob :: Other\nBlack Lotus / Sol Ring / Mox Pearl / Karakas\nGreat hand, really"
    )
    post = parse_post(text, is_card=is_card)
    assert [e.cards[0] for e in post.entries] == ["Blak Lotus", "Black Lotus"]
    assert [e.comment for e in post.entries] == ["this one is blak indeed", "Great hand, really"]


def test_an_entry_without_cards_among_entries_is_reported_not_dropped():
    text = "01 Ann :: A\nBlack Lotus / Sol Ring\n02 Bob :: B\n03 Cy :: C\nMox Pearl / Karakas\n03 Dee :: D\nKarakas"
    post = parse_post(text, is_card=is_card)
    assert [e.number for e in post.entries] == [1, 2, 3, 3]
    assert "Line 3: entry 02 (Bob) has no cards after it." in post.problems
    assert "Line 6: entry 03 appears twice (also line 4)." in post.problems


def test_gaps_and_a_player_twice_are_problems():
    post = parse_post("01 Ann :: A\nBlack Lotus\n\n03 ann :: B\nSol Ring / Karakas", is_card=is_card)
    assert post.problems == [
        "Line 4: ann has two entries (also line 1).",
        "The 2 entries should be numbered 01 to 02; missing: 02.",
    ]


def test_nothing_to_read():
    for text in ("", "   \n\n", "Just a chat about the weather.", None, 42):
        post = parse_post(text)
        assert post.entries == [] and post.problems[0].startswith("No entries found")


def test_windows_line_endings_non_breaking_spaces_and_emoji():
    text = "4\u00a0Card\u00a0Test \U0001f3b2\r\n\r\n01\u00a0Ann ::\u00a0\u201cParty \U0001f389\u201d\r\nBlack Lotus /\u00a0Sol Ring\r\n"
    post = parse_post(text, is_card=is_card)
    assert post.round.title == "4 Card Test \U0001f3b2" and post.round.hand_size == 4
    assert entry_tuples(post) == [(1, "Ann", "Party \U0001f389", ["Black Lotus", "Sol Ring"], "")]


def test_the_current_archive_posts_still_parse():
    from tests.archive.test_archive import FORUM_POST, GLUED_POST, PAREN_POST

    assert [e.number for e in parse_post(FORUM_POST, is_card=is_card).entries] == [1, 2, 3, 4]
    assert parse_post(FORUM_POST).round.code == "45:1".replace("1", "01")
    assert [e.player for e in parse_post(PAREN_POST).entries] == ["Subtle_Relevance", "Mogg"]
    assert [e.hand_name for e in parse_post(GLUED_POST).entries] == ["The Might of Kjeld", "Scepter Tricks"]


def test_a_megabyte_post_parses_sanely():
    entry = "{n:02d} Player{n} :: \u201cHand {n}\u201d\nBlack Lotus / Sol Ring / Mox Pearl / Karakas\nA fine hand.\n\n"
    body = "".join(entry.format(n=n) for n in range(1, 400))
    rules = (
        "Contents\n1. Overview\n" + "[b][color=red]Some prose about the rules [x= [y= ((((( here.\n" * 20000
    )
    text = "4 Card Test\n\n" + body + rules + "[a=" * 100000
    assert len(text) > 1_000_000
    post = parse_post(text, is_card=is_card)
    assert len(post.entries) == 399 and post.problems == []
    assert [item.kind for item in post.skipped] == ["rules document"]
    one_line = parse_post("1" * 1_000_000 + " x\n" + "[b]" * 300_000)
    assert one_line.entries == []


POST_PIECES = st.sampled_from(
    [
        "01 Ann :: \u201cHand\u201d", "1Bob : Name", "1) Cy", "Black Lotus / Sol Ring", "Mox Pearl", "3 Black Lotus",
        "Deck Size: 4", "Land Rule: Extra", "Deadline: 12/03/2023", "Additional Banned list:", "Format:",
        "X | 1 2 3 | PT | Points", "1 | X 0 0", "Contents", "1. Overview", "[quote]", "[/quote]", "[b]", "[*]",
        "0-6 leylined again", "Fast, but folds.", "", "\r", "\u00a0", "How to submit", "Vote:", "[poll]",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_any_text_parses_without_error(text):
    post = parse_post(text, is_card=is_card, today=TODAY)
    assert isinstance(post.problems, list)
    for entry in post.entries:
        assert len(entry.card_lines) == len(entry.cards)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(POST_PIECES, st.text(max_size=30)), max_size=40), st.booleans(), st.booleans())
def test_near_posts_parse_without_error(pieces, partial, with_catalog):
    post = parse_post("\n".join(pieces), is_card=is_card if with_catalog else None, partial=partial)
    lines = {entry.line for entry in post.entries}
    assert len(lines) == len(post.entries)
    assert not any("could not be read" in problem for problem in post.problems)


@pytest.mark.parametrize("catalog", [is_card, None], ids=["with catalog", "shape only"])
def test_a_rules_document_after_dotted_entries_is_not_a_card_or_an_entry(catalog):
    text = (
        "1. Ann\nBlack Lotus\nSol Ring\n2. Bob\nMox Pearl\nKarakas\n\n1. Overview\nPerfect Hand Magic is a game.\n"
        "2. Game Rules\nEach hand plays each."
    )
    post = parse_post(text, is_card=catalog)
    assert [(e.number, e.cards) for e in post.entries] == [
        (1, ["Black Lotus", "Sol Ring"]),
        (2, ["Mox Pearl", "Karakas"]),
    ]
    assert [(item.line, item.kind) for item in post.skipped] == [(8, "rules document")]


@pytest.mark.parametrize("catalog", [is_card, None], ids=["with catalog", "shape only"])
def test_closing_words_after_the_last_hand_are_skipped_not_cards(catalog):
    post = parse_post("01 Ann :: A\nBlack Lotus / Sol Ring\n\nThanks all\n", is_card=catalog)
    assert post.entries[0].cards == ["Black Lotus", "Sol Ring"]
    assert [(item.line, item.kind, item.text) for item in post.skipped] == [(4, "other", "Thanks all")]


def test_a_blank_line_inside_a_one_per_line_hand_keeps_the_cards():
    post = parse_post("1) Ann\nBlack Lotus\n\nSol Ring\nMox Pirl\n2) Bob\nKarakas\n")
    assert [e.cards for e in post.entries] == [["Black Lotus", "Sol Ring", "Mox Pirl"], ["Karakas"]]


def test_an_ordinal_is_no_glued_entry_header():
    text = "1Ann : Hand\nBlack Lotus / Sol Ring / Mox Pearl\n2Bob : Other\nKarakas / Sol Ring\n3rd place goes to Bob\n"
    post = parse_post(text, is_card=is_card)
    assert [(e.number, e.comment) for e in post.entries] == [(1, ""), (2, "3rd place goes to Bob")]
    assert post.problems == []


@pytest.mark.parametrize(
    "opening, title, code, league, round_number, commentary",
    [
        ("[b]Round 31:03 \u2014 5 Card Alphabetized[/b]\n\nSee you at 18:00 sharp.", "5 Card Alphabetized", "31:03",
         31, 3, "See you at 18:00 sharp."),
        ("Welcome back everyone! Lots of hands this week.", "", "", None, None,
         "Welcome back everyone! Lots of hands this week."),
        ("[b]4 Card - Goblin Party[/b]\n[i]League 31, week 3[/i]", "4 Card - Goblin Party", "", 31, 3, ""),
        ("Hands posted!", "", "", None, None, ""),
    ],
)  # fmt: skip
def test_heading_lines_and_an_opening_in_prose(opening, title, code, league, round_number, commentary):
    post = parse_post(opening + "\n\n01 A :: B\nBlack Lotus / Sol Ring", is_card=is_card)
    assert (post.round.title, post.round.code, post.round.league_number, post.round.round_number) == (
        title,
        code,
        league,
        round_number,
    )
    assert post.round.commentary == commentary
    assert [e.player for e in post.entries] == ["A"]


def test_hostile_headings_and_header_values_parse():
    # Shapes that make a careless regex backtrack for ever: runs of separators in a heading or a ban list.
    heading = "Hands posted - League 31:03 - " + " ,:." * 40 + "x"
    bans = "Additional Banned list:\n" + "\n".join(["Black Lotus" + " " * 3000 + ","] * 200)
    post = parse_post(f"{heading}\n{bans}\n\n01 A :: B\nBlack Lotus / Sol Ring", is_card=is_card)
    assert post.round.code == "31:03"
    assert post.round.extra_banned[:2] == ["Black Lotus", "Black Lotus"]
    assert [e.player for e in post.entries] == ["A"]


def test_an_entry_below_a_poll_is_skipped_but_said():
    text = (
        "01 Ann :: A\nBlack Lotus / Sol Ring\n\n[poll]Vote: best hand[/poll]\n\n02 Bob :: B\nMox Pearl / Karakas\n\n"
        "How to submit\n01 Player :: Name\nBlack Lotus / Sol Ring\n"
    )
    post = parse_post(text, is_card=is_card)
    assert [e.number for e in post.entries] == [1]
    assert [item.kind for item in post.skipped] == ["poll", "how to submit"]
    assert post.problems == [
        "Line 6: \u201c02 Bob :: B\u201d comes after the entries ended (with the poll text) and was skipped; "
        "if it is an entry, move it up."
    ]
