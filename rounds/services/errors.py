class RoundInputError(ValueError):
    """Bad input for a league or round: `errors` maps field names to lists of plain sentences."""

    def __init__(self, errors):
        self.errors = errors
        super().__init__("; ".join(f"{field}: {' '.join(messages)}" for field, messages in errors.items()))


class RoundConflict(Exception):
    """The round's state forbids the change (HTTP 409); the message says why, in plain words."""
