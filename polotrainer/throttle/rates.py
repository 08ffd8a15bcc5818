"""Fixed limits over a sliding window, counted in the database.

`allowed("signup", address, limit=100, window=HOUR)` stays true until 100 sign-ups from that
address have been recorded within the last hour.
"""

from datetime import timedelta

from django.utils import timezone

from polotrainer.throttle.models import Hit

HOUR = timedelta(hours=1)


def allowed(bucket: str, key: str, limit: int, window: timedelta) -> bool:
    """Whether one more event fits: fewer than `limit` recorded for `key` within `window`."""
    since = timezone.now() - window
    return Hit.objects.filter(bucket=bucket, key=key, at__gte=since).count() < limit


def record(bucket: str, key: str, window: timedelta) -> None:
    """Count one event; the key's events older than the window are dropped on the way."""
    now = timezone.now()
    Hit.objects.filter(bucket=bucket, key=key, at__lt=now - window).delete()
    Hit.objects.create(bucket=bucket, key=key, at=now)
