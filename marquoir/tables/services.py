"""Every write to a match goes through here, for the pages and the API alike.

``match_act`` checks ``action_id`` (a retried request gets its first answer) and
``expected_seq`` (a stale page is told, not obeyed), applies the action through the engine
in memory, then writes it in one short transaction: the match row moves to the new seq
only if it is still at the seq the action was worked out from, together with the log
entry. If another write came first, the action is worked out again under the row's lock.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import dataclasses
import hashlib
import hmac
import threading
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from marquoir.rules import INVALID, NOTHING_TO_UNDO, RuleError

from . import live
from .actions import ActionRequest, parse_action
from .keepers import ScoreKeeper, keeper_for
from .models import DeviceMatch, LogEntry, Match, is_match_id
from .names import MAX_MARKS_ON_A_LETTER, name_keys, readable, too_many_marks, unprintable
from .selectors import Folded, LoggedEntry, MatchView, fold_cache, fold_log, folded, in_force, keeper_of, log_rows

NAME_MAX_LENGTH = 40

# The most entries a match's log may hold, undos included (each is an entry): beyond, every
# action is refused (``log_full``) and the table starts a new match. The longest real games
# hold a few hundred entries in force (a sheet has at most 200 rounds, one entry each; a
# Tarot match at most 300 deals; Yahtzee 13 per player, 104 at 8 players; a Pickomino game
# of 7 players ends in well under 200 turns), so 5,000 leaves room for every undo a table
# makes (ten times over) while bounding what one match stores (a 20-player sheet's round
# is ~0.2 kB, so ~1 MB at most) and what a table page folds and shows. docs/api.md says it.
MAX_LOG_ENTRIES = 5_000


class ServiceError(Exception):
    """A refused request, with the API's code and the details to word the message."""

    def __init__(
        self,
        code: str,
        reason: str | None = None,
        *,
        players: Sequence[str] = (),
        keeper: ScoreKeeper | None = None,
        **params: Any,
    ) -> None:
        self.code = code
        self.reason = reason or code
        self.params = params
        self.players = list(players)  # the match's seats, to name them in the message
        self.keeper = keeper  # the match's game, to word its own refusals
        super().__init__(self.reason)

    @classmethod
    def from_rule(
        cls, error: RuleError, *, players: Sequence[str] = (), keeper: ScoreKeeper | None = None
    ) -> ServiceError:
        return cls(error.code, error.reason, players=players, keeper=keeper, **error.params)


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


def edit_token_for(match_id: str, *, secret: str | bytes | None = None, salt: str = EDIT_TOKEN_SALT) -> str:
    """The edit token of a match: an HMAC of its id under the site's secret key.

    Nothing about it is stored, so a copy of the database gives no right to keep score,
    while a device that may keep score can be shown the token again (the "keep score too"
    link). Rotating SECRET_KEY (with the old one in SECRET_KEY_FALLBACKS) keeps old tokens.
    """
    mac = salted_hmac(salt, match_id, secret=secret, algorithm="sha256")
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def edit_token_matches(match: Match | str, token: str | None, *, salt: str = EDIT_TOKEN_SALT) -> bool:
    """Whether ``token`` is the edit token of ``match`` (a row or an id), compared in constant
    time. Needs no database: the token is derived from the id. (A group's key is made the
    same way, under its own ``salt``.)"""
    if not token or not isinstance(token, str):
        return False
    match_id = match if isinstance(match, str) else match.id
    keys = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    return any(
        hmac.compare_digest(token.encode(), edit_token_for(match_id, secret=key, salt=salt).encode()) for key in keys
    )


def clean_player_names(names: object, keeper: ScoreKeeper) -> list[str]:
    """Names trimmed, 1 to 40 characters, any script, unique ignoring case; as many as the game takes."""
    return clean_names(names, least=keeper.min_players, most=keeper.max_players)


def clean_names(names: object, *, least: int, most: int) -> list[str]:
    """Names trimmed, 1 to 40 characters, any script, unique ignoring case; ``least`` to ``most`` of them."""
    if not isinstance(names, Sequence) or isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise ServiceError(INVALID, "bad_players")
    cleaned = [unicodedata.normalize("NFC", name).strip() for name in names]
    if not least <= len(cleaned) <= most:
        raise ServiceError(INVALID, "player_count", count=len(cleaned), least=least, most=most)
    seen: dict[str, str] = {}
    for name in cleaned:
        check_name(name)
        keys = name_keys(name)
        other = next((seen[key] for key in keys if key in seen), None)
        if other is not None:
            # The same name, or one that looks the same at the table (another script's
            # letters, fullwidth forms, a hidden joiner): the players could not tell them apart.
            if other.casefold() == name.casefold():
                raise ServiceError(INVALID, "name_twice", name=name)
            raise ServiceError(INVALID, "name_lookalike", name=name, other=other)
        seen.update(dict.fromkeys(keys, name))
    return cleaned


def check_name(name: str) -> None:
    """ServiceError unless ``name`` (trimmed, NFC) is 1 to 40 visible characters."""
    if not name:
        raise ServiceError(INVALID, "name_empty")
    if len(name) > NAME_MAX_LENGTH:
        raise ServiceError(INVALID, "name_too_long", name=name[:NAME_MAX_LENGTH], limit=NAME_MAX_LENGTH)
    if any(unprintable(char) for char in name):
        raise ServiceError(INVALID, "name_characters", name=name)
    if not readable(name):
        raise ServiceError(INVALID, "name_invisible")
    if too_many_marks(name):
        raise ServiceError(INVALID, "name_marks", limit=MAX_MARKS_ON_A_LETTER)


@dataclass(frozen=True)
class NewMatch:
    """A match's set-up, checked: what ``match_create`` writes."""

    game: str
    players: list[str]
    first: int
    options: dict[str, Any]


def check_new_match(*, game: object, players: object, first: object = 0, options: object = None) -> NewMatch:
    """The set-up, cleaned, or ServiceError saying what is wrong (nothing is written)."""
    keeper = keeper_for(game)
    if keeper is None:
        raise ServiceError(INVALID, "unknown_game", game=str(game)[:40])
    try:
        names = clean_player_names(players, keeper)
    except ServiceError as error:
        error.keeper = keeper  # the game words the player count its own way
        raise
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(names):
        raise ServiceError(INVALID, "first_player", first=str(first)[:40])
    try:
        cleaned_options = keeper.clean_options(options)
    except RuleError as error:
        raise ServiceError.from_rule(error, keeper=keeper) from None
    return NewMatch(keeper.key, names, first, cleaned_options)


def match_create(
    *, game: object, players: object, first: object = 0, options: object = None, assistant: bool = False
) -> tuple[Match, str]:
    """A new match and its edit token (derived from the id, never stored)."""
    setup = check_new_match(game=game, players=players, first=first, options=options)
    match = Match.objects.create(
        game=setup.game, players=setup.players, first=setup.first, options=setup.options, assistant=assistant
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
    updated = Match.objects.filter(pk=match_id).update(assistant=on) if is_match_id(match_id) else 0
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


@dataclass(frozen=True)
class _Prepared:
    """An action checked and applied in memory, ready to be written."""

    row: Match  # as read, before the action
    after: MatchView
    action_ids: Mapping[str, int]  # those of the log after the action
    entry: LogEntry
    state: dict[str, Any]

    def remember(self) -> ActResult:
        """Once written: keep the fold after the action for the match's next request, and
        wake this process's streams once committed (others hear it from the database)."""
        fold_cache.put(self.after.row, Folded(self.after.engine, self.after.log, self.action_ids))
        match_id, seq = self.row.pk, self.after.row.seq
        transaction.on_commit(lambda: live.nudge_after_commit(match_id, seq))
        return self.result

    @property
    def result(self) -> ActResult:
        return ActResult(self.after, self.entry, self.state)


def match_act(*, match_id: str, request: ActionRequest | None = None, body: object = None) -> ActResult:
    """Apply ``request`` to the match, once; ServiceError if refused.

    The action is worked out first from the match as last committed, without holding any
    lock, and then written in a short transaction that only succeeds if the match is still
    at the seq it was worked out from (compare and swap on ``seq``). On SQLite, where one
    writer holds the whole database, this keeps the write lock for three statements
    instead of the whole fold. If another write came in between, the action is worked out
    again under the match's row lock, exactly as a locking service would.

    Give the ``request`` parsed, or its ``body`` (decoded JSON): the body is then parsed by
    the match's game once its row is read, so an API action reads the database once.
    """
    try:
        prepared = _prepare(match_id, request, body, locked=False)
        if isinstance(prepared, ActResult):
            return prepared
        with _writer_turn(), transaction.atomic():
            swapped = _swap(prepared)
        if swapped:
            return prepared.remember()
        with _writer_turn(), transaction.atomic():
            prepared = _prepare(match_id, request, body, locked=True)
            if isinstance(prepared, ActResult):
                return prepared
            if not _swap(prepared):  # cannot happen while the row is locked
                raise ServiceError("conflict", expected=prepared.row.seq, seq=prepared.row.seq)
        return prepared.remember()
    except IntegrityError:
        # Two requests with one action_id raced past the check on a database that does
        # not serialise them; the first is committed, so answer as a replay.
        action_id = (
            request.action_id if request is not None else body.get("action_id") if isinstance(body, dict) else None
        )
        existing = LogEntry.objects.filter(match_id=match_id, action_id=action_id).first() if action_id else None
        if existing is not None:
            row = Match.objects.get(pk=match_id)
            return ActResult(None, existing, answer_of(row, existing), replayed=True)
        raise


def answer_of(row: Match, entry: LogEntry, current: Folded | None = None) -> dict[str, Any]:
    """The State answered when ``entry`` was accepted, for a retried ``action_id``.

    Entries written before migration 0006 kept the State they answered, and give it back
    as it was. Later ones store only their action: the answer is made again by folding
    the log up to the entry, with the row as it stood then (its ``seq`` was the entry's;
    ``over`` and everything else in the State comes from the fold; the players, who
    starts and the options never change once a match exists). The fold up to an entry
    is the match exactly as it was at that seq (which entries an undo took back is worked
    out from the log itself, see ``fold_log``), so the answer is the first one, key order
    included. ``current``: the match's fold at ``row.seq``, reused when the retry is of
    the latest entry (the usual case: the answer to the last tap was lost).
    """
    if entry.response is not None:
        stored: dict[str, Any] = entry.response
        return stored
    then = copy.copy(row)
    then.seq = entry.seq
    keeper = keeper_of(row)
    if current is not None and entry.seq == row.seq:
        return keeper.state_json(MatchView(then, current.engine, current.log))
    return keeper.state_json(fold_log(then, log_rows(then)))


def _prepare(match_id: str, request: ActionRequest | None, body: object, *, locked: bool) -> _Prepared | ActResult:
    """The action checked against the match and applied in memory, or the stored answer of
    a retried request. ``locked``: inside a transaction, with the match's row locked."""
    if not is_match_id(match_id):
        raise ServiceError("not_found")
    rows = Match.objects.select_for_update() if locked else Match.objects
    try:
        row = rows.get(pk=match_id)
    except Match.DoesNotExist:
        raise ServiceError("not_found") from None
    keeper = keeper_of(row)
    if request is None:
        try:
            request = parse_action(body, keeper)
        except RuleError as error:
            raise ServiceError.from_rule(error, players=row.players, keeper=keeper) from None
    view = folded(row)
    if request.action_id and request.action_id in view.action_ids:
        stored = LogEntry.objects.get(match_id=row.pk, seq=view.action_ids[request.action_id])
        return ActResult(None, stored, answer_of(row, stored, view), replayed=True)
    if request.expected_seq is not None and request.expected_seq != row.seq:
        raise ServiceError("conflict", players=row.players, expected=request.expected_seq, seq=row.seq)
    if row.seq >= MAX_LOG_ENTRIES:
        # row.seq counts every entry, so the bound costs no query.
        raise ServiceError("log_full", players=row.players, limit=MAX_LOG_ENTRIES)
    new_seq = row.seq + 1
    undoes: int | None = None
    try:
        if request.is_undo:
            takes_and_busts = in_force(view.log)
            if not takes_and_busts:
                raise RuleError(NOTHING_TO_UNDO)
            undoes = takes_and_busts[-1]
            engine_after = view.engine.undo()
        else:
            engine_after = view.engine.apply(keeper.engine_action(request.payload))
    except RuleError as error:
        raise ServiceError.from_rule(error, players=row.players, keeper=keeper) from None
    # The match after the action, from the fold already made: the log is not read back.
    after_row = copy.copy(row)
    after_row.seq, after_row.over, after_row.updated_at = new_seq, engine_after.state.over, timezone.now()
    outcome = engine_after.steps[-1].outcome if undoes is None else None
    logged = tuple(dataclasses.replace(logged, undone=True) if logged.seq == undoes else logged for logged in view.log)
    kind = LogEntry.Kind.UNDO if request.is_undo else LogEntry.Kind.ACTION
    after = MatchView(after_row, engine_after, (*logged, LoggedEntry(new_seq, kind, outcome, undoes, False)))
    state = keeper.state_json(after)
    entry = LogEntry(
        match=after_row,
        seq=new_seq,
        kind=kind,
        payload=request.payload,
        undoes=undoes,
        action_id=request.action_id,
        # No State stored: a retry's answer is folded again from the log (``answer_of``).
        response=None,
    )
    action_ids = {**view.action_ids, request.action_id: new_seq} if request.action_id else view.action_ids
    return _Prepared(row, after, action_ids, entry, state)


def _swap(prepared: _Prepared) -> bool:
    """Write the prepared action if the match is still where it was read; False otherwise.
    Runs inside a transaction: the match row moves, the entry an undo takes back is marked,
    the new entry is appended, and (on PostgreSQL) the new seq is announced, which the
    database delivers to every server process's listener at commit."""
    after = prepared.after
    moved = Match.objects.filter(pk=prepared.row.pk, seq=prepared.row.seq).update(
        seq=after.row.seq, over=after.row.over, updated_at=after.row.updated_at
    )
    if not moved:
        return False
    if prepared.entry.undoes is not None:
        LogEntry.objects.filter(match_id=prepared.row.pk, seq=prepared.entry.undoes).update(undone_by=after.row.seq)
    prepared.entry.save(force_insert=True)
    live.announce(prepared.row.pk, after.row.seq)
    return True
