from .audit import AuditEntry
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
from .leagues import LandRule, League, Round, RoundState

__all__ = [
    "AcceptedCard",
    "AuditEntry",
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
    "LandRule",
    "League",
    "Legality",
    "Printing",
    "Round",
    "RoundState",
]
