from . import unread


def notifications(request):
    """The bell's unread count, computed only if the page shows it (a template calls the callable)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": lambda: unread.count(user.pk)}
