"""Settings for bench/submit.py only: the product's settings plus the framework floor (bench/floor_urls.py).

The floor is never part of the product: phm/urls.py does not name it, and these settings refuse to load
unless the benchmark asked for them (PHM_BENCH_FLOOR=1), so a stray DJANGO_SETTINGS_MODULE cannot serve it.
"""

import os

from django.core.exceptions import ImproperlyConfigured

if os.environ.get("PHM_BENCH_FLOOR") != "1":
    raise ImproperlyConfigured("bench.floor_settings is only for bench/submit.py (PHM_BENCH_FLOOR=1).")

from phm.settings import *  # noqa: F403  (the product's settings, unchanged but for the URLconf)

ROOT_URLCONF = "bench.floor_urls"
# bench/submit.py --orm-write: its second server writes submissions by the ORM's saves, as every database but
# PostgreSQL does (submissions.services.submit.uses_one_statement_write).
SUBMISSIONS_ORM_WRITE = os.environ.get("PHM_BENCH_ORM_WRITE") == "1"
