"""Hand operations, one module per job; import the module that defines a name (no re-exports here).

- submit: a player's submission (checks under the round's lock), the rules it attests, the tie-break rule;
- inputs: the cleaning of names, cards and decisions both submissions and reviews share;
- locks: the round and hand locks a submission takes, and the lowering of the current version;
- write: the ORM write of a submission and the making of a new version (every database);
- pg_write: the same write in one hand-built statement (PostgreSQL), proven equal to write's;
- receipts: the e-mail receipt of a version;
- preview: a moderator's declaration that they will not play (to see hands before the deadline);
- review: moderator review of a hand (flag, notice, rename, disqualify, replace by a similar hand);
- reveal: the reveal of a round past its deadline.

Every write that depends on the deadline locks the round row first, then reads the clock: a submission and the
reveal can therefore never interleave, and a request that waited for the lock past the deadline is refused.
"""
