"""API for matches and results (docs/api.md: Matches and results), one module per resource: matches (reports,
challenges, results), rows (a player's row, forum posts), rounds (finalize, reopen, bonus, exports), tables,
league (standings, tie-break). Every view calls scoring.services and lets its errors through: the project's
exception handler (phm.api) answers them."""
