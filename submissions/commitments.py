"""Commitments: a SHA-256 over a hand version's canonical text, whose last line is a secret
nonce.

The player gets the commitment as a receipt when they submit; the nonce is published at the reveal, so anyone
can recompute the hash from what is shown and see that the hand did not change after it was submitted. The
nonce keeps the commitment from being guessed before the reveal by hashing likely hands.

The canonical text is UTF-8, lines joined by a single line feed (no carriage returns, no final newline):

    PHM hand commitment v1
    round: <round id>
    player: <username>
    version: <version number>
    name: <hand name, spaces collapsed; empty when unnamed>
    cards: <card names as the catalog spells them, in the player's order, joined by " / ">
    nonce: <64 hexadecimal digits>

and the commitment is the lowercase hexadecimal SHA-256 of those bytes. The verify page repeats this.

A hand with decisions (rule 7.2b: a round may ask each player for some with their hand) is committed
with format v2: the header says `PHM hand commitment v2` and, between the cards and the nonce, one line per
decision in the alphabetical order of the round's keys:

    decision <key>: <the player's answer, spaces collapsed>

A hand without decisions keeps format v1 exactly, so every commitment made before v2 still verifies.

The round id is the one the hand was submitted under: a league moved from another instance (import_league)
keeps it in `HandVersion.commitment_round_key`, since its rounds get new ids here and the hash cannot change.
"""

import hashlib
import hmac
import secrets

HEADER = "PHM hand commitment v1"
HEADER_WITH_DECISIONS = "PHM hand commitment v2"
NONCE_BYTES = 32


def new_nonce():
    return secrets.token_hex(NONCE_BYTES)


def canonical_text(*, round_id, username, version, name, cards, nonce, decisions=None):
    lines = [
        HEADER_WITH_DECISIONS if decisions else HEADER,
        f"round: {round_id}",
        f"player: {username}",
        f"version: {version}",
        f"name: {' '.join(name.split())}",
        f"cards: {' / '.join(cards)}",
        *(f"decision {key}: {' '.join(str(decisions[key]).split())}" for key in sorted(decisions or {})),
        f"nonce: {nonce}",
    ]
    return "\n".join(lines)


def digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def commitment_for(**fields):
    return digest(canonical_text(**fields))


def committed_round_key(version):
    """The round id a saved HandVersion's commitment hashes: the source instance's for an imported hand."""
    if version.commitment_round_key is not None:
        return version.commitment_round_key
    return version.hand.round_id


def version_text(version):
    """The canonical text of a saved HandVersion (needs version.hand.player loaded)."""
    return canonical_text(
        round_id=committed_round_key(version),
        username=version.hand.player.get_username(),
        version=version.number,
        name=version.name,
        cards=version.cards,
        nonce=version.nonce,
        decisions=version.decisions,
    )


def matches(text, commitment):
    """Whether `text` (line endings normalised to \\n, outer whitespace ignored) hashes to `commitment`."""
    normalised = (text or "").replace("\r\n", "\n").replace("\r", "\n").strip()
    # Compared as bytes: compare_digest refuses str with non-ASCII characters, and a commitment is typed by
    # whoever checks it.
    expected = digest(normalised).encode()
    return hmac.compare_digest(expected, (commitment or "").strip().lower().encode("utf-8", "replace"))
