"""How many matches one client may create: a fixed window per client, kept in the database
so that every server process counts the same requests."""

from __future__ import annotations

import contextlib
import ipaddress
import math
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Allowance:
    """Whether one more match may be created now, and if not, in how many seconds."""

    allowed: bool
    retry_after: int = 0

    @property
    def minutes(self) -> int:
        """The wait in whole minutes, rounded up, as people are told it."""
        return max(1, math.ceil(self.retry_after / 60))


def _creation_buckets(request: HttpRequest, device: str | None) -> list[tuple[str, int]]:
    """The counters one creation goes into, each with its limit.

    A device (the cookie of a phone that keeps score) has its own allowance, and its
    address a larger one for all its devices together: twenty phones of a board-game café
    behind one address each start their games. A client without a device (a script on
    the API) is counted by its address with a device's allowance.
    """
    address = client_key(request)
    own = f"create-device:{device}" if device is not None else f"create:{address}"
    return [
        (own, settings.MATCH_CREATION_LIMIT),
        (f"create-address:{address}", settings.MATCH_CREATION_ADDRESS_LIMIT),
    ]


def allow_match_creation(request: HttpRequest, *, device: str | None = None) -> Allowance:
    """Count one creation for this client if every counter it goes into has room.

    Call it once the request is known to be valid: only creations that happen are
    counted. ``device`` is the device's digest, when the request comes from one.
    """
    buckets = _creation_buckets(request, device)
    window = timedelta(seconds=settings.MATCH_CREATION_WINDOW_SECONDS)
    now = timezone.now()
    for _attempt in range(2):
        try:
            with transaction.atomic():
                rows = {
                    row.key: row
                    for row in RateBucket.objects.select_for_update().filter(key__in=[key for key, _ in buckets])
                }
                for row in rows.values():
                    if now - row.window_start >= window:
                        row.window_start, row.count = now, 0
                full = [rows[key] for key, limit in buckets if key in rows and rows[key].count >= limit]
                if full:
                    ends = max(row.window_start + window for row in full)
                    return Allowance(False, max(1, math.ceil((ends - now).total_seconds())))
                for key, _limit in buckets:
                    row = rows.get(key) or RateBucket(key=key, window_start=now, count=0)
                    row.count += 1
                    row.save()
                return Allowance(True)
        except IntegrityError:
            continue  # another request created a bucket first: count again with it
    return Allowance(False, settings.MATCH_CREATION_WINDOW_SECONDS)
