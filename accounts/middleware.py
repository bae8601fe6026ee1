from django.core.exceptions import ObjectDoesNotExist
from django.utils import timezone

from .timezones import zone_or_utc


class ViewerTimezoneMiddleware:
    """Render times in the logged-in viewer's chosen time zone (stored values stay UTC)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.activate(zone_or_utc(viewer_time_zone(request.user)))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def viewer_time_zone(user):
    if not user.is_authenticated:
        return None
    try:
        return user.profile.time_zone
    except ObjectDoesNotExist:
        return None
