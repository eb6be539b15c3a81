"""How many matches one client may create: a fixed window per client, kept in the database
so that every server process counts the same requests."""

from __future__ import annotations

import contextlib
import ipaddress
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone

from .models import RateBucket


def client_key(request: HttpRequest) -> str:
    """The client's address. Behind our proxies, the address the first of them saw: each
    proxy appends to X-Forwarded-For the address it got the request from, so with N proxies
    of ours (MARQUOIR_PROXY_HOPS) that is the N-th entry from the end; entries before it
    are whatever the client chose to send, and taking one would let it pick a new address
    for every request."""
    if settings.MARQUOIR_BEHIND_PROXY:
        entries = request.headers.get("X-Forwarded-For", "").split(",")
        if len(entries) >= settings.MARQUOIR_PROXY_HOPS:
            with contextlib.suppress(ValueError):
                return str(ipaddress.ip_address(entries[-settings.MARQUOIR_PROXY_HOPS].strip()))
    return str(request.META.get("REMOTE_ADDR") or "unknown")[:100]


def allow_match_creation(request: HttpRequest) -> bool:
    """Count one creation for this client; False once it is over the limit for the window."""
    key = f"create:{client_key(request)}"
    limit, window = settings.MATCH_CREATION_LIMIT, timedelta(seconds=settings.MATCH_CREATION_WINDOW_SECONDS)
    now = timezone.now()
    for _attempt in range(2):
        try:
            with transaction.atomic():
                bucket = RateBucket.objects.select_for_update().filter(key=key).first()
                if bucket is None:
                    RateBucket.objects.create(key=key, window_start=now, count=1)
                    return True
                if now - bucket.window_start >= window:
                    bucket.window_start, bucket.count = now, 1
                else:
                    bucket.count += 1
                bucket.save(update_fields=["window_start", "count"])
                return bucket.count <= limit
        except IntegrityError:
            continue  # another request created the bucket first: count again in it
    return False
