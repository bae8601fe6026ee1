"""The Celery app. Settings come from Django's settings under the CELERY_ prefix."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "phm.settings")

app = Celery("phm")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The project package is not an installed app; its own tasks (phm.tasks) are registered explicitly.
app.autodiscover_tasks(["phm"])
