"""The stats pages' tests build their rounds as the scoring tests do: the same fixtures and helpers."""

from tests.scoring.conftest import (  # noqa: F401  (fixtures, found by pytest under these names)
    catalog_index,
    make_hands,
    make_players,
    match_between,
    revealed_round,
)
