from phm import errors


class RoundInputError(errors.InputError):
    """Bad input for a league or round: `errors` maps field names to lists of plain sentences."""


class RoundConflict(errors.Conflict):
    """The round's state forbids the change (HTTP 409); the message says why, in plain words."""
