"""The card catalog's logic, apart from its models (`rounds.models.cards`).

- `names`: normalisation keys and the display name of a card (pure functions).
- `sources`: reading the shipped snapshot, Scryfall bulk data and MTGJSON files into catalog records.
- `loader`: the one idempotent upsert, used on `migrate` of an empty database and by `import_cards`.
- `resolve`: the in-memory index and `resolve_name` / `search_cards`, used everywhere a name is typed.
- `handlist`: forum hand lists (`Card / Card / Card`) parsed and printed.

Legality of a hand under a round's rules is decided in `rounds.legality.check_hand`.
"""
