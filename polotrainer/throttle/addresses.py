"""The client's address, read through the trusted proxies and no further."""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest) -> str | None:
    """The address the request came from, as the outermost trusted proxy saw it.

    Each of the settings.TRUSTED_PROXY_COUNT proxies appends the address it received the request
    from to X-Forwarded-For, so the client's address is the Nth entry from the right; anything
    to its left was written by the client and is ignored. With no trusted proxy (the default),
    or when the header is shorter than the proxies promise (a request that bypassed them), the
    connection's own address is used.

    >>> from django.test import RequestFactory
    >>> from django.test.utils import override_settings
    >>> request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2",
    ...                                HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    >>> client_ip(request)  # no trusted proxy: the header is anyone's to write
    '10.0.0.2'
    >>> with override_settings(TRUSTED_PROXY_COUNT=1):
    ...     client_ip(request)
    '203.0.113.7'
    """
    remote = request.META.get("REMOTE_ADDR") or None
    count = settings.TRUSTED_PROXY_COUNT
    if count == 0:
        return remote
    forwarded = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [entry for entry in forwarded if entry]
    if len(forwarded) < count:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-count]))
    except ValueError:
        return remote
