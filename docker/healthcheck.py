"""Container health checks for the compose stack; the standard library only, so a check costs little.

    python docker/healthcheck.py web                      # GET /healthz on this container answers 200
    python docker/healthcheck.py beat PATH [MAX_AGE_S]    # beat's heartbeat file (phm.beat) is fresh

Exit 0 healthy, 1 unhealthy (the reason on stderr). The two workers' checks are `celery inspect ping` of their
own node (docker-compose.yml).
"""

import os
import sys
import time
import urllib.error
import urllib.request


def allowed_host():
    """A Host header the app accepts: the first concrete name in ALLOWED_HOSTS (others get a 400)."""
    for item in os.environ.get("ALLOWED_HOSTS", "localhost").split(","):
        host = item.strip().lstrip(".")
        if host and "*" not in host:
            return host
    return "localhost"


def check_web():
    port = os.environ.get("PORT", "").strip() or "8000"
    request = urllib.request.Request(f"http://127.0.0.1:{port}/healthz", headers={"Host": allowed_host()})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 - http://127.0.0.1 only
            status = response.status
    except urllib.error.HTTPError as exc:
        return f"/healthz answered {exc.code}: {exc.read(500).decode(errors='replace')}"
    except OSError as exc:
        return f"/healthz unreachable: {exc}"
    return None if status == 200 else f"/healthz answered {status}"


def check_beat(path, max_age=120.0):
    try:
        age = time.time() - os.stat(path).st_mtime
    except OSError as exc:
        return f"no beat heartbeat: {exc}"
    return None if age <= max_age else f"beat heartbeat {path} is {age:.0f} s old (limit {max_age:.0f} s)"


def main(argv):
    if argv[:1] == ["web"] and len(argv) == 1:
        problem = check_web()
    elif argv[:1] == ["beat"] and len(argv) in (2, 3):
        problem = check_beat(argv[1], *(float(a) for a in argv[2:]))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if problem:
        print(problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
