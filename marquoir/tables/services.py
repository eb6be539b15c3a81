"""Every write to a match goes through here, for the pages and the API alike.

``match_act`` locks the match row, checks ``action_id`` (a retried request gets its first
answer) and ``expected_seq`` (a stale page is told, not obeyed), applies the action through
the engine, appends it to the log and commits, all in one transaction.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import threading
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils.crypto import salted_hmac

from marquoir.games.pickomino import MAX_PLAYERS, MIN_PLAYERS, RuleError
from marquoir.games.pickomino.errors import INVALID, NOTHING_TO_UNDO

from . import live
from .actions import ActionRequest, engine_action
from .models import DeviceMatch, LogEntry, Match
from .selectors import LoggedEntry, MatchView, match_view, state_json

NAME_MAX_LENGTH = 40
KNOWN_OPTIONS = ("shorter_game", "flip_without_return")
SUPPORTED_GAMES = ("pickomino",)


class ServiceError(Exception):
    """A refused request, with the API's code and the details to word the message."""

    def __init__(self, code: str, reason: str | None = None, **params: Any) -> None:
        self.code = code
        self.reason = reason or code
        self.params = params
        super().__init__(self.reason)

    @classmethod
    def from_rule(cls, error: RuleError) -> ServiceError:
        return cls(error.code, error.reason, **error.params)


@dataclass(frozen=True)
class ActResult:
    """The outcome of an accepted request: the entry, the match after it, the State answered."""

    view: MatchView | None
    entry: LogEntry
    state: dict[str, Any]
    replayed: bool = False


def digest(secret: str) -> str:
    """The SHA-256 digest of a secret, as stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


EDIT_TOKEN_SALT = "marquoir.tables.edit-token"  # noqa: S105 (a salt, public by design)


def edit_token_for(match_id: str, *, secret: str | bytes | None = None) -> str:
    """The edit token of a match: an HMAC of its id under the site's secret key.

    Nothing about it is stored, so a copy of the database gives no right to keep score,
    while a device that may keep score can be shown the token again (the "keep score too"
    link). Rotating SECRET_KEY (with the old one in SECRET_KEY_FALLBACKS) keeps old tokens.
    """
    mac = salted_hmac(EDIT_TOKEN_SALT, match_id, secret=secret, algorithm="sha256")
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def edit_token_matches(match: Match, token: str | None) -> bool:
    """Whether ``token`` is the match's edit token, compared in constant time."""
    if not token or not isinstance(token, str):
        return False
    keys = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    return any(hmac.compare_digest(token.encode(), edit_token_for(match.id, secret=key).encode()) for key in keys)


# Joiners shape Persian, Indic and emoji names; other format characters (bidi overrides
# among them) only hide or reorder text, so they are refused with the control characters.
_ALLOWED_FORMAT_CHARACTERS = {"\u200c", "\u200d"}


def _unprintable(char: str) -> bool:
    category = unicodedata.category(char)
    if category == "Cf":
        return char not in _ALLOWED_FORMAT_CHARACTERS
    return category in {"Cc", "Cs", "Co", "Cn"}


def clean_player_names(names: object) -> list[str]:
    """Names trimmed, 1 to 40 characters, any script, unique ignoring case; 2 to 7 of them."""
    if not isinstance(names, Sequence) or isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise ServiceError(INVALID, "bad_players")
    cleaned = [unicodedata.normalize("NFC", name).strip() for name in names]
    if not MIN_PLAYERS <= len(cleaned) <= MAX_PLAYERS:
        raise ServiceError(INVALID, "player_count", count=len(cleaned))
    seen: set[str] = set()
    for name in cleaned:
        if not name:
            raise ServiceError(INVALID, "name_empty")
        if len(name) > NAME_MAX_LENGTH:
            raise ServiceError(INVALID, "name_too_long", name=name[:NAME_MAX_LENGTH], limit=NAME_MAX_LENGTH)
        if any(_unprintable(char) for char in name):
            raise ServiceError(INVALID, "name_characters", name=name)
        if name.casefold() in seen:
            raise ServiceError(INVALID, "name_twice", name=name)
        seen.add(name.casefold())
    return cleaned


def clean_options(options: object) -> dict[str, bool]:
    """The two table options, each a boolean; missing ones are off."""
    if options is None:
        return dict.fromkeys(KNOWN_OPTIONS, False)
    if not isinstance(options, Mapping):
        raise ServiceError(INVALID, "bad_options")
    unknown = [key for key in options if key not in KNOWN_OPTIONS]
    if unknown:
        raise ServiceError(INVALID, "unknown_option", option=str(unknown[0]))
    if not all(isinstance(value, bool) for value in options.values()):
        raise ServiceError(INVALID, "bad_options")
    return {key: bool(options.get(key, False)) for key in KNOWN_OPTIONS}


def match_create(
    *, game: str, players: object, first: object = 0, options: object = None, assistant: bool = False
) -> tuple[Match, str]:
    """A new match and its edit token (derived from the id, never stored)."""
    if game not in SUPPORTED_GAMES:
        raise ServiceError(INVALID, "unknown_game", game=game)
    names = clean_player_names(players)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(names):
        raise ServiceError(INVALID, "first_player", first=first)
    match = Match.objects.create(
        game=game, players=names, first=first, options=clean_options(options), assistant=assistant
    )
    return match, edit_token_for(match.id)


def device_link(*, device_secret: str, match: Match, can_edit: bool) -> None:
    """Remember that this device created or joined ``match`` (granting edit only upwards)."""
    link, created = DeviceMatch.objects.get_or_create(
        device_digest=digest(device_secret), match=match, defaults={"can_edit": can_edit}
    )
    if not created and can_edit and not link.can_edit:
        link.can_edit = True
        link.save(update_fields=["can_edit"])


def device_can_edit(*, device_secret: str | None, match: Match) -> bool:
    """Whether this device holds the right to keep score on ``match``."""
    if not device_secret:
        return False
    return DeviceMatch.objects.filter(device_digest=digest(device_secret), match=match, can_edit=True).exists()


def device_matches(*, device_secret: str | None, limit: int = 50) -> list[tuple[Match, bool]]:
    """This device's matches, most recently played first, with whether it may edit each."""
    if not device_secret:
        return []
    links = (
        DeviceMatch.objects.filter(device_digest=digest(device_secret))
        .select_related("match")
        .order_by("-match__updated_at")[:limit]
    )
    return [(link.match, link.can_edit) for link in links]


def match_set_assistant(*, match_id: str, on: bool) -> Match:
    """Switch the turn assistant on or off for a table (not a game action: no seq, no log)."""
    updated = Match.objects.filter(pk=match_id).update(assistant=on)
    if not updated:
        raise ServiceError("not_found")
    return Match.objects.get(pk=match_id)


# SQLite lets one writer in at a time and makes the others sleep and retry (up to 100 ms a
# step, in no order), which shows as long tail latencies; queueing this process's writers
# on a lock first leaves SQLite only the other processes to arbitrate. PostgreSQL's row
# lock already queues writers in order.
_sqlite_writers = threading.Lock()


def _writer_turn() -> contextlib.AbstractContextManager[object]:
    return _sqlite_writers if connection.vendor == "sqlite" else contextlib.nullcontext()


def match_act(*, match_id: str, request: ActionRequest) -> ActResult:
    """Apply ``request`` to the match, once, under the match's lock; ServiceError if refused."""
    try:
        with _writer_turn(), transaction.atomic():
            return _act_locked(match_id, request)
    except IntegrityError:
        # Two requests with one action_id raced past the check on a database that does
        # not serialise them; the first is committed, so answer as a replay.
        existing = LogEntry.objects.filter(match_id=match_id, action_id=request.action_id).first()
        if request.action_id and existing is not None and existing.response is not None:
            return ActResult(None, existing, existing.response, replayed=True)
        raise


def _act_locked(match_id: str, request: ActionRequest) -> ActResult:
    try:
        match = Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise ServiceError("not_found") from None
    if request.action_id:
        earlier = match.entries.filter(action_id=request.action_id).first()
        if earlier is not None and earlier.response is not None:
            return ActResult(None, earlier, earlier.response, replayed=True)
    if request.expected_seq is not None and request.expected_seq != match.seq:
        raise ServiceError("conflict", expected=request.expected_seq, seq=match.seq)
    view = match_view(match)
    new_seq = match.seq + 1
    undoes: int | None = None
    try:
        if request.kind == LogEntry.Kind.UNDO:
            in_force = [logged.entry for logged in view.log if logged.outcome is not None and not logged.undone]
            if not in_force:
                raise RuleError(NOTHING_TO_UNDO)
            undoes = in_force[-1].seq
            engine_after = view.engine.undo()
        else:
            engine_after = view.engine.apply(engine_action(request.payload))
    except RuleError as error:
        raise ServiceError.from_rule(error) from None
    if undoes is not None:
        LogEntry.objects.filter(match=match, seq=undoes).update(undone_by=new_seq)
    entry = LogEntry(
        match=match,
        seq=new_seq,
        kind=request.kind,
        payload=request.payload,
        undoes=undoes,
        action_id=request.action_id,
    )
    # The match after the action, from the fold already made: the log is not read back.
    outcome = engine_after.steps[-1].outcome if undoes is None else None
    log = tuple(
        LoggedEntry(logged.entry, logged.outcome, logged.undone or logged.entry.seq == undoes) for logged in view.log
    )
    after = MatchView(match, engine_after, (*log, LoggedEntry(entry, outcome, False)))
    match.seq = new_seq
    match.over = engine_after.state.over
    match.save(update_fields=["seq", "over", "updated_at"])
    state = state_json(after)
    entry.response = state
    entry.save(force_insert=True)
    live.announce_in_transaction(match.id, new_seq)
    transaction.on_commit(lambda: live.nudge_after_commit(match.id, new_seq))
    return ActResult(after, entry, state)
