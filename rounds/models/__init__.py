from .leagues import League, Round, RoundState

__all__ = ["League", "Round", "RoundState"]
