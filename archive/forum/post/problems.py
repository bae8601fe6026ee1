"""What is wrong with a post's entries, as plain sentences naming lines."""

MAX_ENTRIES = 999


def entry_problems(entries, *, partial=False, max_player_length=None, max_hand_name_length=None):
    """Entries without a player or cards, duplicate numbers, a player twice and (unless `partial`, a
    correction holding only some entries) numbering gaps. The length limits are the database's, when the
    caller knows them."""
    problems = []
    seen_numbers, seen_players = {}, {}
    for entry in entries:
        where = f"Line {entry.line}"
        if not entry.player:
            problems.append(f"{where}: entry {entry.number:02d} names no player.")
        elif max_player_length and len(entry.player) > max_player_length:
            problems.append(f"{where}: the player's name is longer than {max_player_length} characters.")
        if max_hand_name_length and len(entry.hand_name) > max_hand_name_length:
            problems.append(f"{where}: the hand's name is longer than {max_hand_name_length} characters.")
        if not entry.cards:
            problems.append(f"{where}: entry {entry.number:02d} ({entry.player}) has no cards after it.")
        if entry.number in seen_numbers:
            problems.append(
                f"{where}: entry {entry.number:02d} appears twice (also line {seen_numbers[entry.number]})."
            )
        seen_numbers.setdefault(entry.number, entry.line)
        key = entry.player.casefold()
        if key and key in seen_players:
            problems.append(f"{where}: {entry.player} has two entries (also line {seen_players[key]}).")
        seen_players.setdefault(key, entry.line)
    if not partial and entries and len(entries) <= MAX_ENTRIES:
        missing = [number for number in range(1, len(entries) + 1) if number not in seen_numbers]
        if missing and not any("appears twice" in problem for problem in problems):
            shown = ", ".join(f"{number:02d}" for number in missing[:10])
            problems.append(
                f"The {len(entries)} entries should be numbered 01 to {len(entries):02d}; missing: {shown}."
            )
    if len(entries) > MAX_ENTRIES:
        problems.append(f"A round has at most {MAX_ENTRIES} entries; this post has {len(entries)}.")
    return problems
