"""Business operations of the rounds app, one job a module; import the module that defines a name:
`catalog` (cards, banned lists, accepted cards), `leagues` (leagues), `lifecycle` (a round's life: create,
edit, open, extend, close), `round_rules` (checking a round's rules), `effective_banned` (a round's banned
list and its snapshot), `following` (following a league) and `errors`. Who may manage a league:
rounds.permissions."""
