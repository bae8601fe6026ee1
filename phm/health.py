"""/healthz: is the app able to serve? Checks the database and, when configured, Redis."""

import redis
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET


def check_database():
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return {"ok": False, "error": type(exc).__name__}
    return {"ok": True, "vendor": connection.vendor}


def check_redis(url):
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    except redis.RedisError as exc:
        return {"ok": False, "error": type(exc).__name__}
    finally:
        client.close()
    return {"ok": True}


@never_cache
@require_GET
def healthz(request):
    checks = {"database": check_database()}
    if settings.REDIS_URL:
        checks["redis"] = check_redis(settings.REDIS_URL)
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", "checks": checks}, status=200 if healthy else 503
    )
