"""Helpers the benchmarks share: percentiles, a local database, free ports, timed HTTP requests."""

import socket
import time

HOST = "127.0.0.1"  # the benchmarks never talk to anything but this machine
# The request limits off (phm.limits): every benchmark client comes from 127.0.0.1 and writes far more often
# than a person does, so the limits would refuse most of what is measured.
NO_REQUEST_LIMITS = {
    "API_WRITE_LIMIT_PER_ACCOUNT": "off",
    "API_WRITE_LIMIT_PER_ADDRESS": "off",
    "SIGN_UP_LIMIT_PER_ADDRESS": "off",
    "PASSWORD_RESET_LIMIT_PER_ADDRESS": "off",
    "PASSWORD_RESET_LIMIT_PER_EMAIL": "off",
}


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def ensure_database(url):
    """Create the PostgreSQL database `url` names if it is missing."""
    import psycopg2
    from psycopg2 import sql

    name = url.rsplit("/", 1)[1]
    admin = psycopg2.connect(url.rsplit("/", 1)[0] + "/postgres")
    admin.autocommit = True
    with admin.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if not cursor.fetchone():
            cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    admin.close()


def free_port():
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def request(connection, method, path, body=None, headers=None):
    """(status, body, milliseconds) of one request on an open http.client connection."""
    started = time.perf_counter()
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    return response.status, data, (time.perf_counter() - started) * 1000


def disposable_database_name(url, prefix):
    """The database `url` names, which a benchmark may drop only if its name starts with `prefix`."""
    name = url.rsplit("/", 1)[1].split("?", 1)[0]
    if not name.startswith(prefix):
        raise SystemExit(f"refusing to drop {name!r}: a benchmark database's name must start with {prefix!r}")
    return name


def recreate_disposable_database(url, prefix, drop_only=False):
    """Drop the benchmark's own database (see disposable_database_name) and, unless `drop_only`, create it."""
    import psycopg2
    from psycopg2 import sql

    name = disposable_database_name(url, prefix)
    admin = psycopg2.connect(url.rsplit("/", 1)[0] + "/postgres")
    admin.autocommit = True
    with admin.cursor() as cursor:
        cursor.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        if not drop_only:
            cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    admin.close()
