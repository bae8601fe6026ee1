"""The submissions app's domain signals (their receivers live with the apps that react to them)."""

from django.dispatch import Signal

# Sent after the commit that revealed a round (hands numbered): `round_id`.
round_revealed = Signal()
# Sent inside the transaction that revealed a round, once (the reveal holds the round's lock): `round_id`.
# Whatever tells people "hands posted" is written to the outbox in that transaction.
hands_revealed = Signal()
# Sent inside the transaction that disqualified a hand: `round_id`, `hand_id`.
hand_disqualified = Signal()
# Sent inside the transaction that replaced a hand by a moderator's similar hand (4.2a), with the round locked
# shared and the hand locked: `round_id`, `hand_id`, `actor`.
hand_replaced = Signal()
