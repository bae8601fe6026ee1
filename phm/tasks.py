"""Tasks that belong to the project as a whole rather than to one app."""

from celery import shared_task


@shared_task(name="phm.ping")
def ping(payload):
    """Echo the payload back: lets /healthz-style checks and tests prove a worker consumes the queue."""
    return {"pong": payload}
