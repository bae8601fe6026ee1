"""The one error the card query language raises: what is wrong, and where (0-based) in the query."""


class QuerySyntaxError(ValueError):
    """A query that does not parse, or names something the catalog cannot answer (an unknown format, rarity
    when the catalog has none). `position` is the 0-based index into the query of the offending text."""

    def __init__(self, message, position=0, query=""):
        super().__init__(message)
        self.message = message
        self.position = max(0, int(position))
        self.query = query

    def __str__(self):
        return f"{self.message} (at position {self.position})"

    def caret(self, query=None):
        return caret_display(self.query if query is None else query, self.position)


def caret_display(query, position):
    """Two lines: the query, and a caret under the offending character, for <pre> blocks and terminals."""
    query = (query or "").replace("\n", " ")
    position = max(0, min(position, len(query)))
    return f"{query}\n{' ' * position}^"
