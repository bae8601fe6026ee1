"""What each example post in this folder should parse to (`archive.forum.post.parse_post`), for the parser's
tests and for the import and browser tests that reuse the posts. `CARDS` is the catalog the posts assume."""

import datetime as dt
from pathlib import Path

FOLDER = Path(__file__).resolve().parent
TODAY = dt.date(2023, 3, 20)

CARDS = frozenset(
    {
        "Goblin Lackey", "Goblin Welder", "Goblin Recruiter", "Mox Pearl", "Kjeldoran Warrior", "Karakas",
        "Ancient Tomb", "Lodestone Golem", "Mishra's Workshop", "Black Lotus", "Sol Ring", "Frost Titan",
        "Nevermore", "Llanowar Elves", "Forest", "Elvish Archdruid", "Elvish Mystic", "Gaea's Cradle",
        "Fyndhorn Elves", "Wirewood Symbiote", "Priest of Titania", "Chalice of the Void", "Dark Depths",
        "Leyline of the Void", "Thespian's Stage", "Leyline of Singularity", "Thalia, Guardian of Thraben",
        "Wear // Tear",
    }
)  # fmt: skip


def read_post(name):
    """The post's text exactly as stored (Windows line endings kept)."""
    return (FOLDER / name).read_bytes().decode("utf-8")


EXPECTED = {
    "style_double_colon.txt": {
        "round": {
            "title": "4 Card - Goblin Party",
            "code": "31:03",
            "league_number": 31,
            "round_number": 3,
            "hand_size": 4,
            "land_rule": "none",
            "extra_banned": ["Black Lotus", "Sol Ring"],
            "format_rule": "Every hand must hold at least one Goblin.",
            "deadline": dt.datetime(2023, 3, 12, 23, 59, tzinfo=dt.UTC),
            "deadline_text": "Sunday 12 March 2023, 23:59 GMT",
            "commentary": "Welcome back! Lots of goblins this week, and a few surprises.\n"
            "Thanks to everyone who entered.",
        },
        "entries": [
            (1, "WhammeWhamme", "The Might of Kjeld",
             ["Goblin Lackey", "Mox Pearl", "Kjeldoran Warrior", "Karakas"],
             "Fast, but folds to one removal spell. Starts at 12 life."),
            (2, "nerdyjoe", "Scepter Tricks",
             ["Goblin Welder", "Ancient Tomb", "Lodestone Golem", "Mishra's Workshop"], "0-6 leylined again"),
            (3, "Mogg", "Ajani: Never get warm", ["Blak Lotus", "Goblin Recruiter", "Frost Titan", "Nevermore"],
             "Will it ever get warm? Probably not."),
        ],
        "skipped": ["row template", "how to submit", "next round", "rules document"],
    },
    "style_glued.txt": {
        "round": {
            "title": "3CH LR Elves",
            "code": "",
            "league_number": None,
            "round_number": None,
            "hand_size": 3,
            "land_rule": "LR",
            "extra_banned": ["Gaea's Cradle", "Priest of Titania"],
            "format_rule": "Every creature in your hand must be an Elf.",
            "deadline": dt.datetime(2023, 3, 12, 18, 0, tzinfo=dt.UTC),
            "deadline_text": "2023-03-12 18:00 UTC",
            "commentary": "Eight hands this week \U0001f9dd and a clean sweep for the forest.",
        },
        "entries": [
            (1, "WhammeWhamme", "The Might of Kjeld", ["Llanowar Elves", "Forest", "Elvish Archdruid"],
             "Starts fast, dies to a sweeper."),
            (2, "nerdyjoe", "Scepter Tricks", ["Elvish Mystic", "Gaea's Cradle", "Fyndhorn Elves"],
             "6-0 what a run!"),
            (3, "Mogg", "Elves: The Return", ["Elvish Archdruid", "Forest", "Wirewood Symbiote"],
             "Folds to Pyroclasm. Sorry Mogg!"),
        ],
        "skipped": ["row template", "how to submit", "rules document"],
    },
    "style_paren_one_per_line.txt": {
        "round": {
            "title": "5 Card Alphabetized",
            "code": "44:03",
            "league_number": 44,
            "round_number": 3,
            "hand_size": 5,
            "land_rule": "ELR",
            "extra_banned": [],
            "format_rule": "the first letters of the five cards must be in alphabetical order.",
            "deadline": dt.datetime(2023, 3, 12, 12, 0, tzinfo=dt.UTC),  # a date alone: noon UTC
            "deadline_text": "12/03/2023",
            "commentary": "Welcome to week three. Remember: ties are broken by the tiebreak table.",
        },
        "entries": [
            (1, "Subtle_Relevance", "Void Dance",
             ["Chalice of the Void", "Dark Depths", "Kjeldoran Warior", "Leyline of the Void", "Thespian's Stage"],
             "Solid all round. Lost only to the Lotus deck."),
            (2, "Mogg", "", ["Black Lotus", "Black Lotus", "Black Lotus", "Frost Titan", "Nevermore"],
             "0-6 leylined again"),
            (3, "Feyd_Ruin", "Thalia's Wear",
             ["Karakas", "Leyline of Singularity", "Mox Pearl", "Thalia, Guardian of Thraben", "Wear // Tear"],
             "Cute."),
        ],
        "skipped": ["poll", "next round"],
    },
}  # fmt: skip
