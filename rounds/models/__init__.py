from .banned import BanCategory, BannedCard, BannedList, BannedListChange
from .cards import AcceptedCard, Card, CardFace, CardSet, CatalogVersion, DataQuality, Legality, Printing
from .leagues import League, Round, RoundState

__all__ = [
    "AcceptedCard",
    "BanCategory",
    "BannedCard",
    "BannedList",
    "BannedListChange",
    "Card",
    "CardFace",
    "CardSet",
    "CatalogVersion",
    "DataQuality",
    "League",
    "Legality",
    "Printing",
    "Round",
    "RoundState",
]
