from .banned import BanCategory, BannedCard, BannedList, BannedListChange
from .cards import (
    AcceptedCard,
    Card,
    CardFace,
    CardLegalityChange,
    CardSet,
    CatalogVersion,
    DataQuality,
    Legality,
    Printing,
)
from .leagues import MAX_HAND_SIZE, USUAL_MAX_HAND_SIZE, HandSizeMode, LandRule, League, Round, RoundState

__all__ = [
    "MAX_HAND_SIZE",
    "USUAL_MAX_HAND_SIZE",
    "AcceptedCard",
    "BanCategory",
    "BannedCard",
    "BannedList",
    "BannedListChange",
    "Card",
    "CardFace",
    "CardLegalityChange",
    "CardSet",
    "CatalogVersion",
    "DataQuality",
    "HandSizeMode",
    "LandRule",
    "League",
    "Legality",
    "Printing",
    "Round",
    "RoundState",
]
