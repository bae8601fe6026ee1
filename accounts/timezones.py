"""Time zones a viewer can choose, and how a moment is shown to them."""

import zoneinfo
from functools import lru_cache

DEFAULT_TIME_ZONE = "UTC"


@lru_cache(maxsize=1)
def time_zone_choices():
    names = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})
    return [(name, name.replace("_", " ")) for name in names]


def is_known_time_zone(name):
    return name in dict(time_zone_choices())


def zone_or_utc(name):
    """The zone called `name`, or UTC for a name this machine does not know (never raise on display)."""
    try:
        return zoneinfo.ZoneInfo(name or DEFAULT_TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(DEFAULT_TIME_ZONE)


def zone_description(zone, now):
    """How a form names the zone times are typed in: "Europe/Warsaw, UTC+01:00 now" (the offset of this
    moment: it changes with summer time), or "UTC"."""
    name = getattr(zone, "key", None) or str(zone)
    offset = now.astimezone(zone).utcoffset()
    if name in ("UTC", "Etc/UTC") and not offset:
        return "UTC"
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    hours, minutes = divmod(abs(minutes), 60)
    return f"{name}, UTC{sign}{hours:02d}:{minutes:02d} now"
