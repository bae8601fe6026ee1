"""Importing a past round from a forum post pasted as it is: the service behind the import page,
`POST /api/archive/preview/` and `POST /api/archive/import/`.

`preview.preview_post` reads the post (`archive.forum.post`: split, classify, assemble), applies the
moderator's corrections, and checks everything an import needs, saving nothing: the round's fields
(`round_fields`, read with `readers`), every card (unknown names with suggestions) and every player (exact
account, near matches to decide, or a new account: `players`), each hand's legality under the round's rules
(`entries`: warnings, since the forum's host accepted those hands, and the import records them as accepted),
the optional results table (`table`: stated totals that differ are reported, not silently fixed), and whether
the same round was imported already. `write.import_post` does the same and, when nothing blocks, saves it in
one transaction. What they answer, and their errors, are in `results`.
"""
