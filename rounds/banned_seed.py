"""The PHM Banned List and the Land Rule Banned List as the rules text prints them (phm-rules.txt).

Used by the data migration that creates the lists and, after a test flush, by the post_migrate hook.
Categories and order are kept as printed. Later edits are made by moderators and recorded.
"""

BANNED_LISTS = [
    {
        "key": "phm",
        "name": "PHM Banned List",
        "description": (
            "Banned in all Perfect Hand Magic League rounds unless the round's rules say otherwise. "
            "A round may ban more cards, but always includes these."
        ),
        "cards": {
            "acceleration": ["Channel", "Fastbond", "Flash", "Show and Tell"],
            "disruption": [
                "Pact of Negation", "Chancellor of the Annex", "Force of Will", "Leyline of Anticipation",
                "Trinisphere",
            ],
            "lands": ["Ghost Quarter", "Strip Mine", "Wasteland"],
            "win_conditions": [
                "Ulamog, the Infinite Gyre", "Barren Glory", "Laboratory Maniac", "Magus of the Moon",
                "Meddling Mage", "The Rack", "Vampire Hexmage",
            ],
        },
    },
    {
        "key": "land-rule",
        "name": "Land Rule Banned List",
        "description": (
            "Banned in Perfect Hand Magic League rounds when a Land Rule (LR, ELR or DLR) is used. "
            "The round's rules carry a reminder."
        ),
        "cards": {
            "acceleration": ["Black Lotus"],
            "disruption": ["Balancing Act", "Energy Field", "Time Walk"],
            "win_conditions": [
                "Beacon of Creation", "Maralen of the Mornsong", "Nezumi Shortfang", "Red Sun's Zenith",
                "White Sun's Zenith",
            ],
        },
    },
]  # fmt: skip


def seed_banned_lists(banned_list_model, banned_card_model, normalize):
    """Create the lists that do not exist yet, with their cards.

    Lists that exist are left as moderators keep them."""
    created = 0
    for position, spec in enumerate(BANNED_LISTS):
        banned_list, was_created = banned_list_model.objects.get_or_create(
            key=spec["key"],
            defaults={"name": spec["name"], "description": spec["description"], "position": position},
        )
        if not was_created:
            continue
        created += 1
        banned_card_model.objects.bulk_create(
            banned_card_model(
                banned_list=banned_list,
                card_name=card_name,
                normalized_name=normalize(card_name),
                category=category,
                position=card_position,
            )
            for category, card_names in spec["cards"].items()
            for card_position, card_name in enumerate(card_names)
        )
    return created
