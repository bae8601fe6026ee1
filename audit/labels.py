"""What each audit action reads as on the pages. Every app registers the labels of the actions it records from
its AppConfig.ready() (`<app>/audit_labels.py`), so the audit trail names no app above it."""

from collections.abc import Mapping

_labels: dict[str, str] = {}


def register_labels(labels: Mapping[str, str]) -> None:
    """Add the labels of some actions; an action keeps one label (a second, different one is an error)."""
    for action, label in labels.items():
        known = _labels.get(action)
        if known is not None and known != label:
            raise ValueError(f"The audit action {action!r} already reads {known!r}, not {label!r}.")
    _labels.update(labels)


def label_for(action: str) -> str:
    """The action's label; an action nobody registered reads as itself."""
    return _labels.get(action, action)


def registered_labels() -> dict[str, str]:
    """Every registered action and its label (a copy)."""
    return dict(_labels)
