"""Moving one league to another instance: `export_league` writes it as a JSON document, `import_league` reads
it back in one transaction. The document's shape is described in `document.py`."""

from .document import FORMAT, VERSION, LeagueTransferError, TransferConflict, TransferFormatError
from .export import export_league, export_league_json
from .importer import ImportResult, import_league, import_league_json

__all__ = [
    "FORMAT",
    "VERSION",
    "ImportResult",
    "LeagueTransferError",
    "TransferConflict",
    "TransferFormatError",
    "export_league",
    "export_league_json",
    "import_league",
    "import_league_json",
]
