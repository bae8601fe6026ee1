"""Scoring operations, one job a module: import each from the module that defines it (table, table_build,
tally, access, changes, reports, decisions, bonus, posted_rows, finalization, superseded, league, errors,
bonus_player)."""
