"""Every write to a match goes through here, for the pages and the API alike.

``match_act`` takes what a request sent (a page's form or an API body, the device that sent
it, its action budget) and says what came of it in an ``Outcome``: applied, replayed (a
retried ``action_id`` gets its first answer) or refused, with the reason. It checks
``action_id`` and ``expected_seq`` (a stale page is told, not obeyed), applies the action
through the engine in memory, then writes it in one short transaction: the match row moves
to the new seq only if it is still exactly as the action was worked out from (compare and
swap), together with the log entry. If another write came first, the action is worked out
again under the row's lock.

The action is first worked out from the match as this process last saw it (its fold cache),
without reading anything: on a table played from one server, a turn is then its write
alone. Whatever that cannot settle (a refusal, a retried key, another process's write in
between) is settled by reading the match, once.

Writes are published once committed to the live streams, and to those that follow the match
(``follow_writes``, ``match_followed``: a group's history).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, cast

from django.db import IntegrityError, connection, transaction
from django.db.models import DateTimeField, Exists, Field, JSONField, OuterRef
from django.utils import timezone

from marquoir.rules import INVALID, RuleError

from . import live
from .actions import ActionRequest, form_body, parse_action
from .capabilities import MATCH_LINKS, device_link, digest, edit_token_for
from .fold import Folded, MatchView, fold_cache, fold_log, folded, log_rows
from .keepers import ScoreKeeper, keeper_for
from .models import DeviceMatch, LogEntry, Match, is_match_id
from .names import clean_player_names
from .outcome import GameRefusal, Outcome, ServiceError, Status, refused
from .ratelimit import Allowance
from .schemas import CORRECT, REDO, UNDO
from .selectors import keeper_of

# Capabilities live in ``capabilities``: ``device_link``, ``digest`` and ``edit_token_for``
# are reached through here by tests and benchmarks written before it.
__all__ = [
    "MAX_LOG_ENTRIES",
    "GameRefusal",
    "NewMatch",
    "Outcome",
    "ServiceError",
    "answer_of",
    "check_new_match",
    "check_setup",
    "create_checked",
    "device_link",
    "digest",
    "edit_token_for",
    "follow_writes",
    "match_act",
    "match_create",
    "match_followed",
    "match_set_assistant",
    "match_start",
]

# The most entries a match's log may hold, undos included (each is an entry): beyond, every
# action is refused (``log_full``) and the table starts a new match. The longest real games
# hold a few hundred entries in force (a sheet has at most 200 rounds, one entry each; a
# Tarot match at most 300 deals; Yahtzee 13 per player, 104 at 8 players; a Pickomino game
# of 7 players ends in well under 200 turns), so 5,000 leaves room for every undo a table
# makes (ten times over) while bounding what one match stores (a 20-player sheet's round
# is ~0.2 kB, so ~1 MB at most) and what a table page folds and shows. docs/api.md says it.
MAX_LOG_ENTRIES = 5_000


# --- a new match


@dataclass(frozen=True)
class NewMatch:
    """A match's set-up, checked: what ``create_checked`` writes."""

    game: str
    players: list[str]
    first: int
    options: dict[str, Any]


def check_new_match(*, game: object, players: object, first: object = 0, options: object = None) -> NewMatch:
    """The set-up, cleaned, or ServiceError saying what is wrong (nothing is written); the
    refusals the game words its own way (the names, the options) are ``GameRefusal``."""
    keeper = keeper_for(game)
    if keeper is None:
        raise ServiceError(INVALID, "unknown_game", game=str(game)[:40])
    try:
        names = clean_player_names(players, keeper)
    except ServiceError as error:  # the game words the player count its own way
        raise GameRefusal(error.code, error.reason, **error.params) from None
    return check_setup(keeper, names, first, options)


def check_setup(keeper: ScoreKeeper, names: list[str], first: object, options: object) -> NewMatch:
    """The rest of a set-up whose names are clean (the set-up page's form cleaned them): who
    starts, and the game's options."""
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < len(names):
        raise ServiceError(INVALID, "first_player", first=str(first)[:40])
    try:
        cleaned_options = keeper.clean_options_for(options, len(names))
    except RuleError as error:
        raise GameRefusal.from_rule(error) from None
    return NewMatch(keeper.key, names, first, cleaned_options)


def create_checked(setup: NewMatch, *, assistant: bool = False) -> tuple[Match, str]:
    """A new match of a checked set-up, and its edit token (derived from the id, never stored)."""
    match = Match.objects.create(
        game=setup.game, players=setup.players, first=setup.first, options=setup.options, assistant=assistant
    )
    return match, edit_token_for(match.id)


def match_create(
    *, game: object, players: object, first: object = 0, options: object = None, assistant: bool = False
) -> tuple[Match, str]:
    """A new match from a set-up as given, checked here, and its edit token."""
    return create_checked(
        check_new_match(game=game, players=players, first=first, options=options), assistant=assistant
    )


def match_start(
    *,
    setup: NewMatch,
    assistant: bool,
    device_secret: str,
    spend: Callable[[], Allowance] | None = None,
    within: Callable[[Match], None] | None = None,
) -> Match:
    """A new match started from a page, its set-up checked: the creation budget ``spend``
    is spent first (ServiceError ``rate_limited`` once spent: nothing is written); ``within``
    is told of the match in the transaction that makes it (a group's history takes it in:
    raising refuses the match, and none is left behind); then this device keeps its score."""
    if spend is not None:
        allowance = spend()
        if not allowance.allowed:
            raise ServiceError(
                "rate_limited", "rate_limited", minutes=allowance.minutes, retry_after=allowance.retry_after
            )
    with transaction.atomic():
        match, _token = create_checked(setup, assistant=assistant)
        if within is not None:
            within(match)
    device_link(device_secret=device_secret, match=match, can_edit=True)
    return match


def match_set_assistant(*, match_id: str, on: bool) -> Match:
    """Switch the turn assistant on or off for a table (not a game action: no seq, no log)."""
    updated = Match.objects.filter(pk=match_id).update(assistant=on) if is_match_id(match_id) else 0
    if not updated:
        raise ServiceError("not_found")
    return Match.objects.get(pk=match_id)


# --- those that follow matches

MatchWritten = Callable[[MatchView], None]
_followers: list[MatchWritten] = []


def follow_writes(follower: MatchWritten) -> None:
    """Have ``follower`` told of every action and undo written on a followed match (see
    ``match_followed``), once committed, with the match after it (a group's history keeps
    its plays' summaries this way). A follower that fails is logged and leaves the write,
    and the other followers, as they are."""
    if follower not in _followers:
        _followers.append(follower)


def match_followed(*, match_id: str, followed: bool = True) -> None:
    """Say whether something follows this match's writes (a group's history took it in, or
    let it go): only a followed match's writes are told to the followers. The write's
    compare and swap reads the flag, so a server that last saw the match otherwise reads
    it again before writing."""
    Match.objects.filter(pk=match_id).update(followed=followed)


def _tell_followers(view: MatchView) -> None:
    for follower in list(_followers):
        transaction.on_commit(functools.partial(follower, view), robust=True)


# --- an action


# SQLite lets one writer in at a time and makes the others sleep and retry (up to 100 ms a
# step, in no order), which shows as long tail latencies; queueing this process's writers
# on a lock first leaves SQLite only the other processes to arbitrate. PostgreSQL's row
# lock already queues writers in order.
_sqlite_writers = threading.Lock()


def _writer_turn() -> contextlib.AbstractContextManager[object]:
    return _sqlite_writers if connection.vendor == "sqlite" else contextlib.nullcontext()


@dataclass
class _Asked:
    """What a request sent, read once whichever way it is settled."""

    match_id: str
    body: object
    form: Mapping[str, Any] | None
    parsed: ActionRequest | None
    by_device: bool
    device_secret: str | None
    spend: Callable[[], Allowance] | None
    one_action_per_key: bool
    allowance: Allowance | None = None
    refusal: RuleError | None = field(default=None)

    def may_write_here(self, match_id: str) -> bool | None:
        """Whether this process already knows the request may write (None: ask the database)."""
        if not self.by_device:
            return True
        return True if MATCH_LINKS.granted_here(self.device_secret, match_id) else None

    def spent(self) -> Allowance:
        """The request's action budget, spent once however the action is settled."""
        if self.allowance is None:
            self.allowance = self.spend() if self.spend is not None else Allowance(True)
        return self.allowance

    def action(self, keeper: ScoreKeeper) -> ActionRequest:
        """The action, parsed by the match's game once; RuleError if it is not one."""
        if self.parsed is None and self.refusal is None:
            try:
                source = form_body(self.form, keeper) if self.form is not None else self.body
                self.parsed = parse_action(source, keeper)
            except RuleError as error:
                self.refusal = error
        if self.refusal is not None:
            raise self.refusal
        assert self.parsed is not None  # noqa: S101 (set above)
        return self.parsed


def match_act(
    *,
    match_id: str,
    request: ActionRequest | None = None,
    body: object = None,
    form: Mapping[str, Any] | None = None,
    by_device: bool = False,
    device_secret: str | None = None,
    spend: Callable[[], Allowance] | None = None,
    one_action_per_key: bool = False,
) -> Outcome:
    """Apply an action to the match, once, and say what came of it (never raises a refusal).

    The action is a ``request`` already parsed, an API ``body`` (decoded JSON) or a page's
    ``form``: either is parsed by the match's game. ``by_device``: the request is a page's,
    and the device (its cookie ``device_secret``) must keep score on the match; otherwise the
    caller checked the right (the API's edit token, derived from the id: checked before
    anything is read). ``spend``: the request's action budget, spent once the right is
    known. ``one_action_per_key``: a key used before for another action is refused as a
    conflict (a page's form keys are one per form: it is an old page), where the API answers
    a key with its first answer whatever was sent with it again.

    Checked in this order: the match exists, the right, the budget, the action, a retried
    key, ``expected_seq``, the log's bound, the rules.
    """
    if not is_match_id(match_id):
        return refused(ServiceError("not_found"))
    asked = _Asked(match_id, body, form, request, by_device, device_secret, spend, one_action_per_key)
    try:
        return _act_as_last_seen(asked) or _act(asked)
    except IntegrityError:
        # Two requests with one action_id raced past the check on a database that does
        # not serialise them; the first is committed, so answer as a replay.
        replay = _replay_after_race(asked)
        if replay is None:
            raise
        return replay


def _act_as_last_seen(asked: _Asked) -> Outcome | None:
    """The action applied to the match as this process last folded it, and written if the
    match still is exactly that (no read: the write's compare and swap tells); None for
    anything this cannot settle, which ``_act`` settles from the database."""
    latest = fold_cache.latest(asked.match_id)
    if latest is None or not asked.may_write_here(asked.match_id):
        return None
    row, held = latest
    if not asked.spent().allowed:
        return None  # refused: said with the match as it now is
    keeper = keeper_of(row)
    try:
        action = asked.action(keeper)
    except RuleError:
        return None
    if (action.action_id and action.action_id in held.action_ids) or (
        action.expected_seq is not None and action.expected_seq != row.seq
    ):
        return None
    prepared = _prepare(row, held, keeper, action, asked)
    if not isinstance(prepared, _Prepared):
        return None
    with _writer_turn(), transaction.atomic():
        if not _swap(prepared):
            return None
    return prepared.remember()


def _act(asked: _Asked) -> Outcome:
    """The action settled from the match as the database holds it (one read of its row)."""
    may_write = asked.may_write_here(asked.match_id)
    rows = Match.objects.filter(pk=asked.match_id)
    if may_write is None:  # the device's right, read with the row
        links = DeviceMatch.objects.filter(
            match=OuterRef("pk"), device_digest=digest(asked.device_secret or ""), can_edit=True
        )
        rows = rows.annotate(device_may_edit=Exists(links))
    row = rows.first()
    if row is None:
        return refused(ServiceError("not_found"))
    keeper = keeper_of(row)
    if may_write is None:
        if not (asked.device_secret and getattr(row, "device_may_edit", False)):
            return refused(ServiceError("unauthorized"), keeper=keeper, view=_view_of(row, keeper))
        MATCH_LINKS.note_granted(asked.device_secret, row.pk)
    allowance = asked.spent()
    if not allowance.allowed:
        error = ServiceError("rate_limited", "too_many_actions", seconds=allowance.retry_after)
        return refused(error, keeper=keeper, view=_view_of(row, keeper), retry_after=allowance.retry_after)
    try:
        action = asked.action(keeper)
    except RuleError as error:
        return refused(GameRefusal.from_rule(error), keeper=keeper, view=_view_of(row, keeper))
    prepared = _prepare(row, folded(row, keeper), keeper, action, asked)
    if not isinstance(prepared, _Prepared):
        return prepared
    with _writer_turn(), transaction.atomic():
        swapped = _swap(prepared)
    if swapped:
        return prepared.remember()
    with _writer_turn(), transaction.atomic():
        row = Match.objects.select_for_update().filter(pk=asked.match_id).first()
        if row is None:
            return refused(ServiceError("not_found"))
        prepared = _prepare(row, folded(row, keeper), keeper, action, asked)
        if not isinstance(prepared, _Prepared):
            return prepared
        if not _swap(prepared):  # cannot happen while the row is locked
            conflict = ServiceError("conflict", expected=row.seq, seq=row.seq)
            return refused(conflict, keeper=keeper, view=_view_of(row, keeper))
    return prepared.remember()


def _view_of(row: Match, keeper: ScoreKeeper) -> MatchView:
    return folded(row, keeper).view(row)


def _replay_after_race(asked: _Asked) -> Outcome | None:
    """The first answer of the key another request wrote meanwhile (None: not a key's race)."""
    action = asked.parsed
    action_id = action.action_id if action is not None else None
    existing = LogEntry.objects.filter(match_id=asked.match_id, action_id=action_id).first() if action_id else None
    if existing is None:
        return None
    row = Match.objects.get(pk=asked.match_id)
    keeper = keeper_of(row)
    view = _view_of(row, keeper)
    if asked.one_action_per_key and action is not None and existing.payload != action.payload:
        return refused(ServiceError("conflict"), keeper=keeper, view=view)
    return Outcome(Status.REPLAYED, keeper, view, existing, answer=lambda: answer_of(row, existing))


def answer_of(row: Match, entry: LogEntry, current: Folded | None = None) -> dict[str, Any]:
    """The State answered when ``entry`` was accepted, for a retried ``action_id``.

    Entries written before migration 0006 kept the State they answered, and give it back
    as it was. Later ones store only their action: the answer is made again by folding
    the log up to the entry, with the row as it stood then (its ``seq`` was the entry's;
    ``over`` and everything else in the State comes from the fold; the players, who
    starts and the options never change once a match exists). The fold up to an entry
    is the match exactly as it was at that seq (which entries an undo took back is worked
    out from the log itself, see ``fold.fold_log``), so the answer is the first one, key
    order included. ``current``: the match's fold at ``row.seq``, reused when the retry is
    of the latest entry (the usual case: the answer to the last tap was lost).
    """
    if entry.response is not None:
        stored: dict[str, Any] = entry.response
        return stored
    then = copy.copy(row)
    then.seq = entry.seq
    keeper = keeper_of(row)
    if current is not None and entry.seq == row.seq:
        return keeper.state_json(current.view(then))
    return keeper.state_json(fold_log(then, log_rows(then), keeper))


@dataclass(frozen=True)
class _Prepared:
    """An action checked and applied in memory, ready to be written."""

    row: Match  # as read (or last seen), before the action
    keeper: ScoreKeeper
    folded_after: Folded
    after_row: Match
    entry: LogEntry

    @property
    def after(self) -> MatchView:
        return self.folded_after.view(self.after_row)

    def remember(self) -> Outcome:
        """Once written: keep the fold after the action for the match's next request, and
        once committed wake this process's streams (others hear it from the database) and
        tell those that follow matches."""
        after = self.after
        fold_cache.put(after.row, self.folded_after, own=True)
        match_id, seq = self.row.pk, after.row.seq
        transaction.on_commit(lambda: live.nudge_after_commit(match_id, seq))
        if after.row.followed:
            _tell_followers(after)
        keeper = self.keeper
        return Outcome(Status.APPLIED, keeper, after, self.entry, answer=lambda: keeper.state_json(after))


def _prepare(
    row: Match, held: Folded, keeper: ScoreKeeper, action: ActionRequest, asked: _Asked
) -> _Prepared | Outcome:
    """The action checked against the match and applied in memory; or what else comes of it
    (the stored answer of a retried key, a refusal)."""
    view = held.view(row)
    if action.action_id and action.action_id in held.action_ids:
        stored = LogEntry.objects.get(match_id=row.pk, seq=held.action_ids[action.action_id])
        if asked.one_action_per_key and stored.payload != action.payload:
            return refused(ServiceError("conflict"), keeper=keeper, view=view)
        return Outcome(Status.REPLAYED, keeper, view, stored, answer=lambda: answer_of(row, stored, held))
    if action.expected_seq is not None and action.expected_seq != row.seq:
        return refused(ServiceError("conflict", expected=action.expected_seq, seq=row.seq), keeper=keeper, view=view)
    if row.seq >= MAX_LOG_ENTRIES:
        # row.seq counts every entry, so the bound costs no query.
        return refused(ServiceError("log_full", limit=MAX_LOG_ENTRIES), keeper=keeper, view=view)
    new_seq = row.seq + 1
    kind = _KINDS.get(action.kind, LogEntry.Kind.ACTION)
    # The match after the action, from the fold already made: the log is not read back.
    ledger = held.ledger.copy()
    try:
        ledger.then(new_seq, kind, action.payload, keeper)
    except RuleError as error:
        return refused(GameRefusal.from_rule(error), keeper=keeper, view=view)
    after_row = _copy_row(row)
    after_row.seq, after_row.over, after_row.updated_at = new_seq, ledger.engine.state.over, timezone.now()
    last = ledger.log[-1]
    entry = LogEntry(
        match=after_row,
        seq=new_seq,
        kind=kind,
        payload=action.payload,
        undoes=last.undoes,
        action_id=action.action_id,
        # No State stored: a retry's answer is folded again from the log (``answer_of``).
        response=None,
    )
    action_ids = {**held.action_ids, action.action_id: new_seq} if action.action_id else held.action_ids
    return _Prepared(row, keeper, Folded(ledger, action_ids), after_row, entry)


# The log's kind of each core action type (every game's own action is an ``action``).
_KINDS = {UNDO: LogEntry.Kind.UNDO, REDO: LogEntry.Kind.REDO, CORRECT: LogEntry.Kind.CORRECT}


def _copy_row(row: Match) -> Match:
    """A copy of the row to change (as ``copy.copy`` makes, without the pickling round trip
    it takes through the model's ``__reduce__``: a tenth of a turn)."""
    copied = Match.__new__(Match)
    copied.__dict__.update(row.__getstate__())
    return copied


def _swap(prepared: _Prepared) -> bool:
    """Write the prepared action if the match is still exactly as it was read (or last seen
    here); False otherwise, having written nothing. Runs inside a transaction: the match row
    moves, the entry an undo takes back is marked, the new entry is appended, and (on
    PostgreSQL) the new seq is announced, which the database delivers to every server
    process's listener at commit. The row is compared on its seq and on every field that can
    change without it (the assistant's switch, a group's taking the match in), so a row last
    seen here is known to be current."""
    before, after = prepared.row, prepared.after_row
    if not _TURN_WRITES.move(before, after):
        return False
    entry = prepared.entry
    if entry.undoes is not None:
        LogEntry.objects.filter(match_id=before.pk, seq=entry.undoes).update(undone_by=after.seq)
    elif entry.kind == LogEntry.Kind.REDO:  # the entry it does again holds once more
        redone = prepared.folded_after.ledger.log[-1].redoes
        if redone is not None:
            LogEntry.objects.filter(match_id=before.pk, seq=redone).update(undone_by=None)
    _TURN_WRITES.append(prepared.entry)
    live.announce(before.pk, after.seq)
    return True


class _TurnWrites:
    """The two statements of every turn, as SQL made from the models' own tables, columns
    and value conversions (``Field.get_db_prep_save``), run on the request's connection.

    Why not the ORM's ``filter().update()`` and ``save()``, which say the same: building the
    statements costs more than running them. Measured on SQLite (in-process, a 2-core
    machine): the compare and swap through the ORM 187 µs, as SQL 17 µs; the entry's
    ``save()`` 119 µs, as SQL about 20 µs; a whole ``match_act`` from 505 to about 195 µs,
    a recorded turn from 1.2 to 0.9 ms (``GET /healthz``: 0.25 ms). Everything else (the
    undo's mark, the reads, every other write) stays with the ORM.
    """

    MOVED = ("seq", "over", "updated_at")
    # What a write may change without moving the seq: the assistant's switch, a group taking
    # the match in, a group renaming a player (the names). Not ``updated_at``: a time compared
    # as SQLite's text would refuse for ever a row whose time another tool wrote in another
    # form ("10:00:00.123").
    COMPARED = ("id", "seq", "assistant", "followed", "players")
    ENTRY = ("match", "seq", "kind", "payload", "undone_by", "undoes", "action_id", "response", "created_at")

    @staticmethod
    @cache
    def _sql(vendor: str, returning: bool) -> tuple[str, str]:
        """The two statements for a database (quoting is the backend's), made once each."""
        del vendor  # the cache's key: the connection's quoting and features go with it
        quote = connection.ops.quote_name

        def column(model: type[Match] | type[LogEntry], name: str) -> str:
            field = cast("Field[Any, Any]", model._meta.get_field(name))
            return quote(field.column)

        # Only the models' own names go into the text (no value): the values are parameters.
        move = "UPDATE {table} SET {moved} WHERE {compared}".format(  # noqa: S608
            table=quote(Match._meta.db_table),
            moved=", ".join(f"{column(Match, name)} = %s" for name in _TurnWrites.MOVED),
            compared=" AND ".join(f"{column(Match, name)} = %s" for name in _TurnWrites.COMPARED),
        )
        append = "INSERT INTO {table} ({columns}) VALUES ({values}){returning}".format(  # noqa: S608
            table=quote(LogEntry._meta.db_table),
            columns=", ".join(column(LogEntry, name) for name in _TurnWrites.ENTRY),
            values=", ".join(["%s"] * len(_TurnWrites.ENTRY)),
            returning=f" RETURNING {column(LogEntry, 'id')}" if returning else "",
        )
        return move, append

    @staticmethod
    @cache
    def _fields(model: type[Match] | type[LogEntry], names: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
        """Each field's attribute, and its conversion to the database's value where it has
        one of its own (a date, JSON): the others are the value itself."""
        fields = [model._meta.get_field(name) for name in names]
        return tuple(
            (field.attname, field if isinstance(field, DateTimeField | JSONField) else None)  # type: ignore[union-attr]
            for field in fields
        )

    @staticmethod
    def _values(row: Match | LogEntry, names: tuple[str, ...]) -> list[Any]:
        values: list[Any] = []
        for attname, converting in _TurnWrites._fields(type(row), names):
            value = getattr(row, attname)
            values.append(value if converting is None else converting.get_db_prep_save(value, connection))
        return values

    def move(self, before: Match, after: Match) -> bool:
        """Move the match from ``before`` to ``after`` if it still is exactly ``before``."""
        move, _append = self._sql(connection.vendor, connection.features.can_return_columns_from_insert)
        with connection.cursor() as cursor:
            cursor.execute(move, [*self._values(after, self.MOVED), *self._values(before, self.COMPARED)])
            return bool(cursor.rowcount == 1)

    def append(self, entry: LogEntry) -> None:
        """Insert ``entry`` (its ``created_at`` now), and give it the id the database chose."""
        returning = connection.features.can_return_columns_from_insert
        _move, append = self._sql(connection.vendor, returning)
        entry.created_at = timezone.now()
        with connection.cursor() as cursor:
            cursor.execute(append, self._values(entry, self.ENTRY))
            entry.pk = cursor.fetchone()[0] if returning else cursor.lastrowid
        entry._state.adding = False
        entry._state.db = connection.alias


_TURN_WRITES = _TurnWrites()
