from .audit import AuditEntry
from .banned import BanCategory, BannedCard, BannedList, BannedListChange
from .cards import AcceptedCard, Card, CardFace, CardSet, CatalogVersion, DataQuality, Legality, Printing
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
