"""What the demo holds: its players, and two leagues of rounds with every hand and every posted row.

League 52 is the living one: three final rounds and a fourth open for hands (its deadline a few days after the
seeding). League 51 finished months earlier, with its winner. Hands are real and legal under their round's
rules (the command checks each one as the hand form does, and fails on any that is not). The players and
their forum names are invented; e-mail addresses use the reserved example.org domain. The module is long
because it is data, one job: every hand and posted row of both leagues, with no logic.
"""

from .specs import (
    Bonus,
    Challenge,
    Dispute,
    Entry,
    LeagueSpec,
    Player,
    RoundSpec,
    Schedule,
    Verification,
    Version,
)

DEMO_USERNAME = "moderator"  # the demo moderator of `make run` and `make demo` (create_demo_moderator)
DEMO_PASSWORD = "phm-moderator"  # noqa: S105 - a published demo credential, refused outside DEBUG
PLAYER_PASSWORD = "phm-player"  # noqa: S105 - the published demo password, refused outside DEBUG

PLAYERS = (
    Player("ashenvale", "Ashenvale", "Europe/Berlin", "ashenvale@example.org"),
    Player("mox_monday", "MoxMonday", "America/New_York", "moxmonday@example.org"),
    Player("tolarian_tutor", "TolarianTutor", "Europe/London"),
    Player("kjeldoran", "Kjeldoran_Kid", "America/Chicago", "kjeldoran@example.org"),
    Player("sundial", "Sundial of the Infinite", "Asia/Tokyo", "sundial@example.org"),
    Player("petalmancer", "Petalmancer", "Australia/Sydney"),
    Player("quietroom", "Quiet Room", "Europe/Warsaw", "quietroom@example.org"),
    Player("bazaar_trader", "Bazaar Trader", "America/Sao_Paulo"),
    Player("lotus_eater", "LotusEater", "Europe/Paris", "lotuseater@example.org"),
    Player("goblin_welder", "GoblinWelder", "America/Los_Angeles"),
    Player("stasis_lock", "StasisLock", "Europe/Stockholm", "stasislock@example.org"),
    Player("chainveil", "Chain Veil", "Europe/Madrid"),
    Player("mirrorgallery", "Mirror Gallery", "Asia/Singapore", "mirrorgallery@example.org"),
    Player("dryad_arbor", "DryadArbor", "America/Toronto"),
)

ALPHABETIZED_RULE = (
    "Each player can't play cards from their hand unless those cards have names which are the lowest "
    "alphabetically among card names in that player's hand.\n\n"
    "For example, *Black Lotus / Conjurer's Bauble / Leyline of the Void / Thalia, Guardian of Thraben / "
    "Wipe Away* plays its cards in alphabetical order."
)

# League 51 --------------------------------------------------------------------------------------------------

ONE_CARD_LAND_RULE = RoundSpec(
    title="1 Card Land Rule",
    schedule=Schedule(opened=-130, deadline=-123, finalized=-119),
    rules={"hand_size": 1, "land_rule": "LR", "commentary": "One card and a basic land a turn. Choose well."},
    entries=(
        Entry("ashenvale", "Big Iron", "Juggernaut"),
        Entry("mox_monday", "Zero, One, Done", "Chalice of the Void"),
        Entry("kjeldoran", "Taxes", "Thalia, Guardian of Thraben"),
        Entry("sundial", "", "Phyrexian Dreadnought", renamed="Twelve Power, No Friends"),
        Entry("quietroom", "Bridge to Nowhere", "Ensnaring Bridge"),
        Entry("lotus_eater", "", "Hymn to Tourach", renamed="Two for One"),
    ),
    results="""
        01 | X 2 4 2 0 4
        02 | 2 X 2 6 2 4
        03 | 1 2 X 4 1 4
        04 | 2 0 1 X 0 2
        05 | 6 2 4 6 X 6
        06 | 1 1 1 2 0 X
    """,
    silent=("lotus_eater",),
)

SIX_CARD_VINTAGE = RoundSpec(
    title="6 Card Vintage, Life Rule",
    schedule=Schedule(opened=-118, deadline=-111, finalized=-106),
    rules={
        "hand_size": 6,
        "life_rule": True,
        "extra_banned": ["Ancestral Recall"],
        "commentary": "Ancestral Recall is banned this round: no drawing your way out of an empty library.",
    },
    entries=(
        Entry(
            "sundial",
            "Moxen and Friends",
            "Black Lotus / Mox Sapphire / Mox Jet / Time Walk / Sol Ring / Tezzeret the Seeker",
        ),
        Entry(
            "quietroom",
            "The Call of the Void",
            "Bazaar of Baghdad / Dark Depths / Thespian's Stage / "
            "Leyline of the Void / Urborg, Tomb of Yawgmoth / Mox Jet",
        ),
        Entry(
            "chainveil",
            "Drain You",
            "Island / Island / Mana Drain / Counterspell / Snapcaster Mage / Brainstorm",
        ),
        Entry(
            "ashenvale",
            "What Not to Wear",
            "Karakas / Mox Pearl / Thalia, Guardian of Thraben / "
            "Leyline of Singularity / Wear // Tear / Swords to Plowshares",
        ),
        Entry(
            "kjeldoran",
            "Workshop Tax",
            "Mishra's Workshop / Ancient Tomb / Lodestone Golem / "
            "Sphere of Resistance / Tangle Wire / Chalice of the Void",
        ),
        Entry(
            "lotus_eater",
            "Cradle Will Rock",
            "Forest / Gaea's Cradle / Llanowar Elves / "
            "Craterhoof Behemoth / Birds of Paradise / Noble Hierarch",
        ),
    ),
    results="""
        01 | X 0 4 2 1 6
        02 | 6 X 4 2 6 4
        03 | 1 1 X 0 0 2 (everything I counter was never cast)
        04 | 2 2 6 X 2 6
        05 | 4 0 6 2 X 6
        06 | 0 1 2 0 0 X
    """,
)

LEAGUE_51 = LeagueSpec(name="League 51", rounds_planned=2, rounds=(ONE_CARD_LAND_RULE, SIX_CARD_VINTAGE))

# League 52 --------------------------------------------------------------------------------------------------

FIVE_CARD_ALPHABETIZED = RoundSpec(
    title="5 Card Alphabetized",
    schedule=Schedule(opened=-45, deadline=-38, finalized=-34),
    rules={
        "hand_size": 5,
        "format_rule": ALPHABETIZED_RULE,
        "extra_banned": ["Chalice of the Void"],
        "commentary": "Welcome to League 52! Chalice of the Void sits this round out.",
    },
    entries=(
        Entry(
            "ashenvale",
            "Alphabet Soup",
            "Black Lotus / Conjurer's Bauble / Leyline of the Void / Thalia, Guardian of Thraben / Wipe Away",
        ),
        Entry(
            "mox_monday",
            "Workshop in Order",
            "Ancient Tomb / Lodestone Golem / Mishra's Workshop / Sphere of Resistance / Tangle Wire",
        ),
        Entry(
            "tolarian_tutor",
            "A to Z Control",
            "Ancestral Recall / Island / Mana Drain / Mox Sapphire / Time Walk",
        ),
        Entry(
            "kjeldoran",
            "The Might of Kjeld",
            "Karakas / Kjeldoran Warrior / Mishra's Workshop / Mox Pearl / Wheel of Torture",
        ),
        Entry(
            "sundial",
            "Depths Dictionary",
            "Bazaar of Baghdad / Dark Depths / Leyline of the Void / "
            "Thespian's Stage / Urborg, Tomb of Yawgmoth",
        ),
        Entry(
            "petalmancer",
            "Petal to the Metal",
            "Gemstone Mine / Goblin Guide / Lightning Bolt / Lotus Petal / Mountain",
        ),
        Entry("quietroom", "Silent Library", "Dark Ritual / Duress / Hymn to Tourach / Mox Jet / Swamp"),
        Entry("bazaar_trader", "Moat Letters", "Island / Moat / Plains / Serra Angel / Tundra"),
        Entry(
            "lotus_eater",
            "Green Alphabet",
            "Birds of Paradise / Forest / Gaea's Cradle / Llanowar Elves / Noble Hierarch",
        ),
        Entry(
            "goblin_welder",
            "Welder's Index",
            "Chrome Mox / Goblin Welder / Lotus Petal / Mountain / Wildfire",
        ),
    ),
    # Row 04 claims 4 against hand 09, whose row says 2-2: the dispute below.
    results="""
        01 | X 2 6 1 6 2 1 6 4 4
        02 | 2 X 6 6 4 4 1 6 4 2
        03 | 0 0 X 0 1 1 1 4 2 1
        04 | 4 0 6 X 4 2 2 2 4 0 (Karakas wins the long game against 09)
        05 | 0 1 4 1 X 1 0 1 4 0
        06 | 2 1 4 2 4 X 2 6 2 4
        07 | 4 4 4 2 6 2 X 6 6 4
        08 | 0 0 1 2 4 0 0 X 1 0
        09 | 1 1 2 2 1 2 0 4 X 1
        10 | 1 2 4 6 6 1 1 6 4 X
    """,
    disputes=(
        Dispute(
            hands=(4, 9),
            result="2-2",
            note="Neither hand can attack through the other's blockers before Wheel of Torture runs out of "
            "cards to punish: each hand wins on the play. Symmetrical, 2-2.",
        ),
    ),
    challenges=(
        Challenge(
            hands=(2, 6),
            challenger="bazaar_trader",
            reason="On the play, Goblin Guide and Lightning Bolt come down before Sphere of Resistance: the "
            "burn hand wins that game, so the match is one win each.",
            decision="upheld",
            result="2-2",
            note="Agreed: Petal to the Metal wins on the play. 2-2.",
        ),
    ),
    silent=("goblin_welder",),
    verifications=(Verification(hands=(1, 3), reporter="quietroom", result="6-0"),),
)

THREE_CARD_MODERN = RoundSpec(
    title="3 Card Modern, Extra Land Rule",
    schedule=Schedule(opened=-33, deadline=-26, finalized=-22),
    rules={
        "hand_size": 3,
        "land_rule": "ELR",
        "sanctioned_format": "modern",
        "bonus_rule": "A hand with no creature card earns 10 bonus League points (7.7a).",
    },
    entries=(
        Entry("sundial", "Goyf Tax", "Noble Hierarch / Tarmogoyf / Thoughtseize"),
        Entry(
            "ashenvale", "Thalia's Tithe", "Thalia, Guardian of Thraben / Leyline of Sanctity / Path to Exile"
        ),
        Entry("petalmancer", "Bolt the Bird", "Goblin Guide / Lightning Bolt / Monastery Swiftspear"),
        Entry("stasis_lock", "Blood Moon Rising", "Blood Moon / Simian Spirit Guide / Simian Spirit Guide"),
        Entry(
            "mox_monday",
            "Bridge Over Nothing",
            "Ensnaring Bridge / Chalice of the Void / Liliana of the Veil",
        ),
        Entry(
            "tolarian_tutor",
            "Counter Culture",
            "Cryptic Command / Remand / Spell Pierce",
            earlier=(Version("Delver Tempo", "Delver of Secrets / Spell Pierce / Remand"),),
        ),
        Entry(
            "quietroom", "Quiet Confidant", "Liliana of the Veil / Dark Confidant / Inquisition of Kozilek"
        ),
        Entry("kjeldoran", "Kor Blimey", "Adanto Vanguard / Brimaz, King of Oreskos / Path to Exile"),
        Entry("lotus_eater", "Titanic", "Primeval Titan / Amulet of Vigor / Simic Growth Chamber"),
    ),
    results="""
        01 | X 1 1 0 4 2 2 4 1
        02 | 4 X 1 1 2 2 4 2 4
        03 | 4 4 X 6 6 1 4 2 4
        04 | 6 4 0 X 6 2 1 4 4
        05 | 1 2 0 0 X 0 0 0 2
        06 | 2 2 4 2 6 X 2 2 6
        07 | 2 1 1 4 6 2 X 1 1
        08 | 1 2 2 1 6 2 4 X 2
        09 | 4 1 1 1 2 0 4 2 X
    """,
    silent=("quietroom",),
    challenges=(
        Challenge(
            hands=(3, 5),
            challenger="lotus_eater",
            reason="Ensnaring Bridge stops Goblin Guide and Monastery Swiftspear: surely Bridge Over Nothing "
            "takes at least a game.",
            decision="rejected",
            note="Bridge Over Nothing keeps two cards in hand until Liliana is cast, and Lightning Bolt goes "
            "to the face anyway. 6-0 stands.",
        ),
    ),
    bonuses=(
        Bonus("mox_monday", 10, "Bridge Over Nothing has no creature card."),
        Bonus("tolarian_tutor", 10, "Counter Culture has no creature card."),
    ),
)

FOUR_CREATURES = RoundSpec(
    title="Up to 4 Creatures, Draw Land Rule",
    schedule=Schedule(opened=-21, deadline=-14, finalized=-9),
    rules={
        "hand_size": 4,
        "hand_size_mode": "up_to",
        "land_rule": "DLR",
        "card_rules": [{"query": "t:creature", "message": "Only creature cards"}],
        "unbanned": ["Magus of the Moon"],
        "decisions": [
            {
                "key": "colour",
                "label": "The colour you name for your hand's effects",
                "kind": "choice",
                "choices": ["White", "Blue", "Black", "Red", "Green"],
            }
        ],
        "commentary": "Creatures only, up to four of them. Magus of the Moon is off the banned list this "
        "round.",
    },
    entries=(
        Entry(
            "kjeldoran",
            "Kjeldoran Wall",
            "Kjeldoran Warrior / Kjeldoran Royal Guard / Wall of Roots",
            decisions={"colour": "White"},
        ),
        Entry(
            "stasis_lock",
            "Moon Magus",
            "Magus of the Moon / Goblin Guide / Simian Spirit Guide / Simian Spirit Guide",
            decisions={"colour": "Red"},
        ),
        Entry(
            "ashenvale",
            "Thalia and Friends",
            "Thalia, Guardian of Thraben / Thalia, Heretic Cathar / Mother of Runes",
            decisions={"colour": "White"},
        ),
        Entry(
            "sundial",
            "Hoof It",
            "Elvish Spirit Guide / Llanowar Elves / Birds of Paradise / Craterhoof Behemoth",
            decisions={"colour": "Green"},
        ),
        Entry(
            "petalmancer",
            "Goblin Rush",
            "Goblin Guide / Monastery Swiftspear / Goblin Lackey / Goblin Piledriver",
            decisions={"colour": "Red"},
        ),
        Entry(
            "chainveil",
            "Walls of Jericho",
            "Wall of Omens / Wall of Roots / Overgrown Battlement",
            decisions={"colour": "Green"},
        ),
        Entry(
            "mirrorgallery",
            "Hall of Mirrors",
            "Mirror Entity / Noble Hierarch / Birds of Paradise",
            decisions={"colour": "White"},
        ),
        Entry(
            "dryad_arbor",
            "",
            "Dryad Arbor / Dryad Arbor / Dryad Arbor / Tarmogoyf",
            decisions={"colour": "Green"},
            renamed="Arbor Day",
        ),
        Entry(
            "quietroom",
            "Dark Confidant Club",
            "Dark Confidant / Vampire Lacerator / Gravecrawler",
            decisions={"colour": "Black"},
        ),
        Entry(
            "goblin_welder",
            "Phyrexian Pressure",
            "Phyrexian Revoker / Ornithopter / Memnite / Phyrexian Dreadnought",
            decisions={"colour": "Blue"},
        ),
        Entry(
            "tolarian_tutor",
            "Delver Flip",
            "Delver of Secrets / Snapcaster Mage / Spellstutter Sprite / Brazen Borrower",
            decisions={"colour": "Blue"},
        ),
    ),
    results="""
        01 | X 1 0 4 0 4 0 4 4 4 2
        02 | 4 X 2 2 1 4 1 2 4 2 2
        03 | 6 2 X 6 2 4 4 2 4 2 6
        04 | 1 2 0 X 1 2 2 6 2 1 6
        05 | 6 4 2 4 X 1 2 4 6 1 0
        06 | 1 1 1 2 4 X 2 1 2 2 2
        07 | 6 4 1 2 2 2 X 2 2 4 6
        08 | 1 2 2 0 1 4 2 X 4 1 4
        09 | 1 1 1 2 0 2 2 1 X 2 1
        10 | 1 2 2 4 4 2 1 4 2 X 2
        11 | 2 2 0 0 6 2 0 1 4 2 X
    """,
    silent=("mirrorgallery",),
)

SEVEN_CARD_PAUPER = RoundSpec(
    title="7 Card Pauper",
    schedule=Schedule(opened=-3, deadline=4),
    rules={
        "hand_size": 7,
        "sanctioned_format": "pauper",
        "commentary": "Seven commons. The last round of League 52: everything is still to play for.",
    },
    moderator_previews=True,
    entries=(
        Entry(
            "petalmancer",
            "Pauper Burn",
            "Lotus Petal / Mountain / Mountain / Lightning Bolt / Chain Lightning / Fireblast / "
            "Monastery Swiftspear",
            earlier=(
                Version(
                    "Pauper Burn",
                    "Lotus Petal / Mountain / Mountain / Lightning Bolt / Lightning Bolt / Chain Lightning / "
                    "Fireblast",
                ),
            ),
            flag="Two Mountains, Lotus Petal, two Lightning Bolts, Chain Lightning and Fireblast deal 13 on "
            "your first turn and the rest before your opponent's second: check rule 3.1 and change the hand.",
        ),
        Entry(
            "quietroom",
            "Ritual Pile",
            "Dark Ritual / Dark Ritual / Swamp / Duress / Gurmag Angler / Chromatic Star / Lotus Petal",
        ),
        Entry(
            "tolarian_tutor",
            "Ninja Commons",
            "Island / Island / Island / Counterspell / Daze / Spellstutter Sprite / Ninja of the Deep Hours",
            earlier=(
                Version(
                    "Blue Commons",
                    "Island / Island / Delver of Secrets / Counterspell / Daze / Spellstutter Sprite / Gush",
                ),
            ),
        ),
        Entry(
            "ashenvale",
            "White Weenie",
            "Plains / Plains / Thraben Inspector / Kor Skyfisher / Journey to Nowhere / Prismatic Strands / "
            "Squadron Hawk",
        ),
        Entry(
            "kjeldoran",
            "Kjeldoran Guard Duty",
            "Plains / Plains / Plains / Guardian of the Guildpact / Prismatic Strands / "
            "Benevolent Bodyguard / Holy Light",
            notice="Your hand blocks very well, but nothing in it can win a game against any hand "
            "(rule 4.2b).",
        ),
        Entry(
            "dryad_arbor",
            "Elf Commons",
            "Forest / Llanowar Elves / Quirion Ranger / Nettle Sentinel / Birchlore Rangers / "
            "Fyndhorn Elves / Priest of Titania",
        ),
        Entry(
            "stasis_lock",
            "Pestilence Control",
            "Swamp / Swamp / Swamp / Pestilence / Crypt Rats / Chittering Rats / Dark Ritual",
        ),
        Entry(
            "goblin_welder",
            "Affinity for Commons",
            "Springleaf Drum / Frogmite / Myr Enforcer / Thoughtcast / Island / Ornithopter / Galvanic Blast",
        ),
    ),
)

LEAGUE_52 = LeagueSpec(
    name="League 52",
    rounds_planned=4,
    rounds=(FIVE_CARD_ALPHABETIZED, THREE_CARD_MODERN, FOUR_CREATURES, SEVEN_CARD_PAUPER),
)

# Built in this order: the finished league first, so the living one is the newest.
LEAGUES = (LEAGUE_51, LEAGUE_52)
