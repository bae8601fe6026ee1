"""A small, realistic league for the guides' screenshots (tests/e2e/test_guide_screenshots.py), built through the
services as players and a moderator would build it: League 45 with a final round, a round being reported (a
dispute, a challenge) and an open round with a land rule, a card rule and a decision.

The hands are the forum's own examples (the rules text) and hands of the same kind; every one is legal."""

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from accounts.services import make_moderator, register_player
from rounds.models import Round
from rounds.services import leagues as league_services
from rounds.services import lifecycle as round_services
from scoring.services.decisions import challenge_match
from scoring.services.finalization import finalize_round
from scoring.services.reports import report_match, report_row
from scoring.services.table import build_match_table
from submissions.services.reveal import reveal_round
from submissions.services.submit import EVERY_LISTED_RULE, submit_hand

PASSWORD = "guide-password-42"

# username → forum name
PLAYERS = {
    "whamme": "WhammeWhamme",
    "nerdyjoe": "nerdyjoe",
    "mogg": "Mogg",
    "feyd": "Feyd_Ruin",
    "subtle": "Subtle_Relevance",
}

# Round 45:01, final.
FIRST_ROUND_HANDS = {
    "nerdyjoe": (
        "Workshop Prison",
        "Mishra's Workshop / Chalice of the Void / Lodestone Golem / Sphere of Resistance / Ancient Tomb",
    ),
    "whamme": (
        "Sanctity",
        "Leyline of Sanctity / Serra Ascendant / Gemstone Caverns / Swords to Plowshares / Plains",
    ),
    "mogg": (
        "Cradle Hoof",
        "Forest / Gaea's Cradle / Craterhoof Behemoth / Elvish Spirit Guide / Dryad Arbor",
    ),
    "feyd": ("Delver", "Island / Mox Sapphire / Delver of Secrets / Daze / Mental Misstep"),
    "subtle": ("Hymn", "Underground Sea / Dark Ritual / Hymn to Tourach / Dark Confidant / Mox Jet"),
}
# Each player's row of 45:01, as they would paste it (hand numbers follow the order of submission above).
FIRST_ROUND_ROWS = {
    "nerdyjoe": "1 | X 4 6 2 6",
    "whamme": "2 | 1 X 2 6 4",
    "mogg": "3 | 0 2 X 4 6",
    "feyd": "4 | 2 0 1 X 2",
    "subtle": "5 | 0 1 0 2 X",
}

# Round 45:02, being reported: the rules text's example hands.
SECOND_ROUND_HANDS = {
    "whamme": (
        "The Might of Kjeld",
        "Leyline of Singularity / Karakas / Kjeldoran Warrior / Mishra's Workshop / Wheel of Torture",
    ),
    "nerdyjoe": (
        "Scepter Tricks",
        "Ancient Tomb / Gustha's Scepter / Lodestone Golem / Mishra's Workshop / Sphere of Resistance",
    ),
    "mogg": ("Never get warm", "Black Lotus / Black Lotus / Black Lotus / Frost Titan / Nevermore"),
    "feyd": (
        "What not to wear featuring Thalia",
        "Leyline of Singularity / Karakas / Mox Pearl / Thalia, Guardian of Thraben / Wear // Tear",
    ),
    "subtle": (
        "The call of the void",
        "Leyline of the Void / Chalice of the Void / Dark Depths / "
        "Thespian's Stage / Urborg, Tomb of Yawgmoth",
    ),
}

# Round 45:03, open: everyone but WhammeWhamme (the guide's player) has submitted.
THIRD_ROUND_HANDS = {
    "nerdyjoe": ("Tabernacle", "The Tabernacle at Pendrell Vale / Ornithopter / Memnite / Steel Overseer"),
    "mogg": ("Goblins", "Goblin Lackey / Goblin Recruiter / Mountain / Mox Ruby"),
    "feyd": ("Blue Moon", "Island / Blood Moon / Ancestral Recall / Mox Sapphire"),
}
THIRD_ROUND_CARD_RULES = [
    {"query": "t:land", "at_most": 1, "message": "At most one land: the Land Rule gives you more"}
]
THIRD_ROUND_DECISIONS = [
    {
        "key": "colour",
        "label": "The colour you choose whenever a card asks you to choose one",
        "kind": "choice",
        "choices": ["white", "blue", "black", "red", "green"],
    }
]

# A past round of League 44 as the forum's host posted it, for the archive import.
ARCHIVE_POST = """[b][size=150]4 Card LR Goblins \u2014 League 44:03[/size][/b]

[b]Deck Size:[/b] 4
[b]Land Rule:[/b] Basic
[b]Additional Banned list:[/b] Sol Ring
[b]Deadline:[/b] 2025-03-12 23:59 UTC

Eleven entries last week, three this week. The Recruiter piles were popular.

[b]01 Mogg :: "Goblin Party"[/b]
Goblin Lackey / Goblin Recruiter / Mountain / Mox Ruby
Fast, but folds to one removal spell.

[b]02 nerdyjoe :: "Welder"[/b]
Goblin Welder / Mishra's Workshop / Ancient Tomb / Goblin Welderr
Welded nothing.

[b]03 Feyd_Ruen :: "Kiki"[/b]
Kiki-Jiki, Mirror Breaker / Mountain / Mox Ruby / Lightning Bolt
The only hand that races the lock.

[u]How to submit[/u]
Send your hand to the moderator by private message before the deadline.
"""


@dataclass
class GuideLeague:
    moderator: object
    players: dict  # username → user
    league: object
    final_round: object
    reported_round: object
    open_round: object
    archive_league: object  # League 44, empty: its past rounds are imported from the forum


def _cards(text):
    return [card.strip() for card in text.split(" / ")]


def _played_round(moderator, league, *, title, opened, hands, players):
    """A round as if it had opened at `opened` and closed a week later, with `hands` submitted in order, then
    revealed. It is opened now with a deadline ahead (an open round's deadline is in the future), and its dates
    are then moved back: the services would reveal a round opened with a past deadline at once."""
    now = timezone.now()
    round_ = round_services.create_round(
        actor=moderator,
        league=league,
        now=now,
        open_now=True,
        title=title,
        hand_size=5,
        deadline=now + timedelta(days=1),
        format_rule="Any five cards legal in Vintage, banned lists as usual.",
    )
    for hour, (username, (name, cards)) in enumerate(hands.items(), start=1):
        submit_hand(
            player=players[username],
            round_id=round_.pk,
            name=name,
            cards=_cards(cards),
            attested=EVERY_LISTED_RULE,
            now=opened + timedelta(hours=hour),
        )
    Round.objects.filter(pk=round_.pk).update(opened_at=opened, deadline=opened + timedelta(days=7))
    reveal_round(round_.pk)
    build_match_table(round_.pk)
    round_.refresh_from_db()
    return round_


def _match(round_, number_a, number_b):
    from scoring.models import Match

    return Match.objects.get(round=round_, hand_a__number=number_a, hand_b__number=number_b)


def build_guide_league():
    now = timezone.now()
    moderator = register_player(
        username="mod", password=PASSWORD, email="mod@example.org", forum_username="The Moderator"
    )
    make_moderator(moderator)
    players = {
        username: register_player(
            username=username,
            password=PASSWORD,
            email=f"{username}@example.org",
            forum_username=forum_name,
            time_zone="Europe/Berlin",
        )
        for username, forum_name in PLAYERS.items()
    }
    league = league_services.create_league(actor=moderator, name="League 45", moderators=[moderator])

    final_round = _played_round(
        moderator,
        league,
        title="5 Card Vintage",
        opened=now - timedelta(days=30),
        hands=FIRST_ROUND_HANDS,
        players=players,
    )
    reported = final_round.deadline + timedelta(days=1)
    for username, row in FIRST_ROUND_ROWS.items():
        report_row(player=players[username], round_id=final_round.pk, row=row, now=reported)
    finalize_round(actor=moderator, round_id=final_round.pk, now=reported + timedelta(days=1))

    reported_round = _played_round(
        moderator,
        league,
        title="5 Card Vintage II",
        opened=now - timedelta(days=12),
        hands=SECOND_ROUND_HANDS,
        players=players,
    )
    # Rows reported so far: WhammeWhamme (01) and nerdyjoe (02) disagree about their match; Subtle_Relevance
    # challenges 03 v 04, which Mogg reported.
    reported = reported_round.deadline + timedelta(hours=20)
    report_row(
        player=players["whamme"],
        round_id=reported_round.pk,
        row="1 | X 0 2 6 0 | 8 | 200 (karakularity bones us)",
        now=reported,
    )
    report_row(
        player=players["nerdyjoe"], round_id=reported_round.pk, row="2 | 4 X 6 6 1", now=reported
    )
    report_match(
        reporter=players["mogg"],
        match_id=_match(reported_round, 3, 4).pk,
        points_a=6,
        points_b=0,
        comment="You can't attack.",
        now=reported + timedelta(hours=2),
    )
    challenge_match(
        challenger=players["subtle"],
        match_id=_match(reported_round, 3, 4).pk,
        reason="Wear // Tear fused on turn 1 destroys Nevermore before Frost Titan comes down.",
        now=reported + timedelta(hours=5),
    )

    open_round = round_services.create_round(
        actor=moderator,
        league=league,
        now=now - timedelta(days=2),
        open_now=True,
        title="4 Card Land Rule",
        hand_size=4,
        land_rule="LR",
        extra_banned=["Sol Ring"],
        card_rules=THIRD_ROUND_CARD_RULES,
        decisions=THIRD_ROUND_DECISIONS,
        deadline=now + timedelta(days=5),
        format_rule="Four cards, Land Rule (7.3a): play a basic land from outside the game each turn.",
        commentary="Last round's table is nearly complete: report your row before this deadline.",
    )
    for hour, (username, (name, cards)) in enumerate(THIRD_ROUND_HANDS.items(), start=1):
        submit_hand(
            player=players[username],
            round_id=open_round.pk,
            name=name,
            cards=_cards(cards),
            attested=EVERY_LISTED_RULE,
            decisions={"colour": ["red", "blue", "green"][hour - 1]},
            now=now - timedelta(days=2) + timedelta(hours=hour),
        )
    archive_league = league_services.create_league(actor=moderator, name="League 44", moderators=[moderator])
    return GuideLeague(moderator, players, league, final_round, reported_round, open_round, archive_league)
