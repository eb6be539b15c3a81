"""The rights to change a thing (a match, a group), for the pages and the API alike.

Two proofs, the same for matches and groups:

- a **key** derived from the thing's id, an HMAC under the site's secret key with a salt of
  each kind's own (a match's edit token, a group's key): nothing of it is stored, so a copy
  of the database gives no right, while a device that holds the right can be shown the key
  again (the "keep score too" link). Rotating SECRET_KEY (the old one in
  SECRET_KEY_FALLBACKS) keeps old keys.
- a **device link**: a random cookie (``device``) whose digest is stored beside what the
  device made or joined, with whether it may change it (``can_edit``, only ever granted
  upwards). Knowing an id is only the right to watch.

A right once granted is never taken back while the thing exists (links go only with it), so
each process remembers the rights it has seen: a turn asks the database nothing to know
that its phone may keep score.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.db import models, transaction
from django.utils.crypto import salted_hmac

from .models import DeviceMatch, Match


def digest(secret: str) -> str:
    """The SHA-256 digest of a secret, as stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


# --- keys


EDIT_TOKEN_SALT = "marquoir.tables.edit-token"  # noqa: S105 (a salt, public by design)


def key_for(thing_id: str, *, salt: str, secret: str | bytes | None = None) -> str:
    """The key of a thing: an HMAC of its id under the site's secret key (or ``secret``)."""
    mac = salted_hmac(salt, thing_id, secret=secret, algorithm="sha256")
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def key_matches(thing_id: str, key: str | None, *, salt: str) -> bool:
    """Whether ``key`` is the key of ``thing_id`` under the current secret key or a fallback,
    compared in constant time. Needs no database: the key is derived from the id."""
    if not key or not isinstance(key, str):
        return False
    secrets = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    return any(
        hmac.compare_digest(key.encode(), key_for(thing_id, salt=salt, secret=secret).encode()) for secret in secrets
    )


def edit_token_for(match_id: str, *, secret: str | bytes | None = None, salt: str = EDIT_TOKEN_SALT) -> str:
    """The edit token of a match (its key)."""
    return key_for(match_id, salt=salt, secret=secret)


def edit_token_matches(match: Match | str, token: str | None, *, salt: str = EDIT_TOKEN_SALT) -> bool:
    """Whether ``token`` is the edit token of ``match`` (a row or an id)."""
    return key_matches(match if isinstance(match, str) else match.id, token, salt=salt)


# --- device links

Thing = TypeVar("Thing", bound=models.Model)

RIGHTS_REMEMBERED = 20_000
"""Rights (a device's digest and a thing's id, ~200 bytes each) each kind keeps in memory."""


class DeviceLinks(Generic[Thing]):
    """The devices linked to one kind of thing: ``model`` has ``device_digest``, a foreign
    key named ``field`` to the thing, and ``can_edit``."""

    def __init__(self, model: type[models.Model], field: str) -> None:
        self.model = model
        self.field = field
        self._granted: OrderedDict[tuple[str, str], None] = OrderedDict()
        self._lock = threading.Lock()

    def _links(self) -> Any:
        return self.model._default_manager

    def note_granted(self, device_secret: str, thing_id: str) -> None:
        """Remember that this device may change the thing (the database said so)."""
        self._remember(digest(device_secret), thing_id)

    def _remember(self, device: str, thing_id: str) -> None:
        with self._lock:
            self._granted[device, thing_id] = None
            self._granted.move_to_end((device, thing_id))
            while len(self._granted) > RIGHTS_REMEMBERED:
                self._granted.popitem(last=False)

    def granted_here(self, device_secret: str | None, thing_id: str) -> bool:
        """Whether this process has seen this device hold the right to change the thing
        (no query). True holds for as long as the thing exists; False says nothing."""
        if not device_secret:
            return False
        return self._recall(digest(device_secret), thing_id)

    def _recall(self, device: str, thing_id: str) -> bool:
        """Whether the right is remembered; a right used stays longest (least recently used go first)."""
        with self._lock:
            if (device, thing_id) not in self._granted:
                return False
            self._granted.move_to_end((device, thing_id))
            return True

    def link(self, *, device_secret: str, thing: Thing, can_edit: bool) -> None:
        """Remember that this device made, joined or opened ``thing`` (granting edit only upwards)."""
        device = digest(device_secret)
        link, created = self._links().get_or_create(
            device_digest=device, **{self.field: thing}, defaults={"can_edit": can_edit}
        )
        if not created and can_edit and not link.can_edit:
            link.can_edit = True
            link.save(update_fields=["can_edit"])
        if can_edit or link.can_edit:
            # Only once the link is in the database: a transaction around this that rolls
            # back must not leave this process believing in a right nobody holds.
            thing_id = str(thing.pk)
            transaction.on_commit(lambda: self._remember(device, thing_id))

    def can_edit(self, *, device_secret: str | None, thing: Thing) -> bool:
        """Whether this device holds the right to change ``thing``."""
        if not device_secret:
            return False
        device, thing_id = digest(device_secret), str(thing.pk)
        if self._recall(device, thing_id):
            return True
        granted: bool = self._links().filter(device_digest=device, **{self.field: thing}, can_edit=True).exists()
        if granted:
            self._remember(device, thing_id)
        return granted

    def of_device(self, *, device_secret: str | None, limit: int = 50) -> list[tuple[Thing, bool]]:
        """This device's things, most recently changed first, with whether it may change each."""
        if not device_secret:
            return []
        links = (
            self._links()
            .filter(device_digest=digest(device_secret))
            .select_related(self.field)
            .order_by(f"-{self.field}__updated_at")[:limit]
        )
        return [(getattr(link, self.field), link.can_edit) for link in links]

    def editable(self, thing_ids: Sequence[str], *, device_secret: str | None) -> set[str]:
        """Those of ``thing_ids`` this device may change (one query)."""
        if not device_secret or not thing_ids:
            return set()
        return set(
            self._links()
            .filter(device_digest=digest(device_secret), **{f"{self.field}_id__in": list(thing_ids)}, can_edit=True)
            .values_list(f"{self.field}_id", flat=True)
        )

    def knows(self, device_secret: str) -> bool:
        """Whether this device is linked to any thing of this kind."""
        return bool(self._links().filter(device_digest=digest(device_secret)).exists())

    def forget_all(self) -> None:
        """Forget the rights this process remembers (tests, and nothing else)."""
        with self._lock:
            self._granted.clear()


MATCH_LINKS: DeviceLinks[Match] = DeviceLinks(DeviceMatch, "match")


def device_link(*, device_secret: str, match: Match, can_edit: bool) -> None:
    """Remember that this device created or joined ``match`` (granting edit only upwards)."""
    MATCH_LINKS.link(device_secret=device_secret, thing=match, can_edit=can_edit)


def device_can_edit(*, device_secret: str | None, match: Match) -> bool:
    """Whether this device holds the right to keep score on ``match``."""
    return MATCH_LINKS.can_edit(device_secret=device_secret, thing=match)


def device_matches(*, device_secret: str | None, limit: int = 50) -> list[tuple[Match, bool]]:
    """This device's matches, most recently played first, with whether it may edit each."""
    return MATCH_LINKS.of_device(device_secret=device_secret, limit=limit)
