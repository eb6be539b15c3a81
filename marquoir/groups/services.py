"""Every write to a group goes through here, for the pages and the API alike.

Refusals are ``tables.outcome.ServiceError`` with a code and a reason, worded by
``groups.messages`` in the reader's language, exactly as a match's are. The rights (the
group's key, the devices that may change it) are the match core's capabilities, under a
salt and a link table of the group's own; the names follow the one name policy.

A group's plays follow their matches: a match taken into a history is followed
(``match_followed``), and every action or undo written on it, once committed, brings its
play's summary up to date (``follow_match``, told by the match core's ``follow_writes``),
so reading a group never writes.
"""

from __future__ import annotations

import contextlib
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from datetime import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from marquoir.tables.capabilities import (
    MATCH_LINKS,
    DeviceLinks,
    device_can_edit,
    edit_token_matches,
    key_for,
    key_matches,
)
from marquoir.tables.fold import MatchView
from marquoir.tables.keepers import keeper_for
from marquoir.tables.models import Match
from marquoir.tables.names import check_name_free, clean_names, name_keys, readable, unprintable
from marquoir.tables.outcome import ServiceError
from marquoir.tables.ratelimit import Allowance, peek, spend
from marquoir.tables.selectors import find_match, keeper_of, match_view
from marquoir.tables.services import match_followed
from marquoir.tables.summary import MatchSummary, summary_to_json

from .models import DeviceGroup, Group, Member, Play
from .records import GROUP_NAME_MAX_LENGTH, MAX_MEMBERS

GROUP_KEY_SALT = "marquoir.groups.edit-key"
MAX_PLAYS = 5_000
"""A group's history holds at most this many matches (years of weekly play): its stats stay
quick to draw, and its export (at most 12.7 MB) imports back (as many as a file may hold)."""


# The budgets of costly work per client address, counted in the process's memory (no
# query): history pages and stats per minute (a table refreshing its stats every second
# stays well below), exports (megabytes to send, taken now and then) and imports (counted
# before the file is read: a refused file of megabytes costs as much to read as a good one).
_REASONS = {"read": "too_many_reads", "export": "too_many_exports", "import": "too_many_imports"}


def _budget(kind: str) -> tuple[int, int]:
    """The budget's limit and window in seconds, read from the settings at each request."""
    if kind == "read":
        return settings.GROUP_READ_LIMIT, 60
    if kind == "export":
        return settings.GROUP_EXPORT_LIMIT, settings.GROUP_EXPORT_WINDOW_SECONDS
    return settings.GROUP_IMPORT_LIMIT, settings.GROUP_IMPORT_WINDOW_SECONDS


def _refused(kind: str, allowance: Allowance) -> ServiceError:
    wait = allowance.retry_after
    return ServiceError("rate_limited", _REASONS[kind], seconds=wait, minutes=allowance.minutes, retry_after=wait)


def _spend(kind: str, address: str) -> None:
    limit, window = _budget(kind)
    allowance = spend(f"group-{kind}:{address}", limit=limit, window_seconds=window)
    if not allowance.allowed:
        raise _refused(kind, allowance)


def spend_costly_read(address: str) -> None:
    """Count one history page or stats read for this client address: ServiceError
    (rate_limited) once its budget is spent."""
    _spend("read", address)


def spend_export(address: str) -> None:
    """Count one export for this client address: ServiceError(rate_limited) once spent."""
    _spend("export", address)


def spend_import(address: str) -> None:
    """Count one import tried from this client address, before its file is read."""
    _spend("import", address)


def import_budget_spent(address: str) -> ServiceError | None:
    """The refusal an import from this address would get now, before its file is read;
    None while it has budget left (counting stays ``spend_import``'s)."""
    limit, window = _budget("import")
    allowance = peek(f"group-import:{address}", limit=limit, window_seconds=window)
    return None if allowance.allowed else _refused("import", allowance)


IMPORT_BUSY_RETRY_SECONDS = 5
_reading_an_import = threading.Lock()


@contextlib.contextmanager
def one_import_at_a_time() -> Iterator[None]:
    """Read at most one imported file at a time in this process: reading one of megabytes
    takes a core for a second or more, and twenty at once would take every thread's share of
    the interpreter from the tables playing meanwhile (make bench-abuse). A second import
    while one is read is refused at once (503, try again in a few seconds), not queued."""
    if not _reading_an_import.acquire(blocking=False):
        raise ServiceError("unavailable", "import_busy", retry_after=IMPORT_BUSY_RETRY_SECONDS)
    try:
        yield
    finally:
        _reading_an_import.release()


GROUP_LINKS: DeviceLinks[Group] = DeviceLinks(DeviceGroup, "group")


def group_key_for(group_id: str) -> str:
    """The group's edit key: an HMAC of its id under the site's secret key, never stored
    (like a match's edit token, under a salt of its own, so neither opens the other)."""
    return key_for(group_id, salt=GROUP_KEY_SALT)


def group_key_matches(group_id: str, key: str | None) -> bool:
    """Whether ``key`` is the group's edit key, compared in constant time."""
    return key_matches(group_id, key, salt=GROUP_KEY_SALT)


def clean_group_name(name: object) -> str:
    """The group's name trimmed: 1 to 60 visible characters."""
    if not isinstance(name, str):
        raise ServiceError("invalid", "group_name_empty")
    cleaned = unicodedata.normalize("NFC", name).strip()
    if not cleaned:
        raise ServiceError("invalid", "group_name_empty")
    if len(cleaned) > GROUP_NAME_MAX_LENGTH:
        raise ServiceError("invalid", "group_name_too_long", limit=GROUP_NAME_MAX_LENGTH)
    if any(unprintable(char) for char in cleaned) or not readable(cleaned):
        raise ServiceError("invalid", "group_name_characters")
    return cleaned


def check_new_group(*, name: object, players: object) -> tuple[str, list[str]]:
    """The group's name and players, cleaned, or ServiceError saying what is wrong."""
    return clean_group_name(name), clean_names(players, least=1, most=MAX_MEMBERS)


def group_create(*, name: object, players: object) -> tuple[Group, str]:
    """A new group with its members (in the order given) and its edit key."""
    group_name, names = check_new_group(name=name, players=players)
    with transaction.atomic():
        group = Group.objects.create(name=group_name)
        Member.objects.bulk_create(
            Member(group=group, name=member, position=position) for position, member in enumerate(names)
        )
    return group, group_key_for(group.id)


def _member_of(group: Group, member_id: object) -> Member:
    if not isinstance(member_id, int) or isinstance(member_id, bool):
        raise ServiceError("not_found", "no_such_member")
    member = Member.objects.filter(group=group, pk=member_id).first()
    if member is None:
        raise ServiceError("not_found", "no_such_member")
    return member


def _name_free(group: Group, name: str, *, but: int | None = None) -> None:
    members = Member.objects.filter(group=group)
    check_name_free(name, (members if but is None else members.exclude(pk=but)).values_list("name", flat=True))


def member_rename(*, group: Group, member_id: object, name: object) -> Member:
    """Rename a member: every play keeps pointing at them, so their history follows; and
    every match of the group seats them under the new name (the log keeps seats, not names,
    so it stays as it was: only the tables' display follows the group)."""
    member = _member_of(group, member_id)
    cleaned = clean_names([name], least=1, most=1)[0]
    _name_free(group, cleaned, but=member.pk)
    now = timezone.now()
    with transaction.atomic():
        member.name = cleaned
        member.save(update_fields=["name"])
        Group.objects.filter(pk=group.pk).update(updated_at=now)
        _rename_on_matches(group, member.pk, cleaned)
    return member


def _rename_on_matches(group: Group, member_id: int, name: str) -> None:
    """The member's seat of each of the group's matches named anew. Its time stays (the
    match was played when it was): a server that last saw the old names finds out at its next
    write, whose compare and swap reads the names (services._TurnWrites.COMPARED)."""
    plays = Play.objects.filter(group=group, match__isnull=False).select_related("match")
    for play in plays:
        match = play.match
        if match is None or member_id not in play.seats:
            continue
        players = list(match.players)
        for seat, seated in enumerate(play.seats):
            if seated == member_id and seat < len(players):
                players[seat] = name
        if players != match.players:
            Match.objects.filter(pk=match.pk).update(players=players)


def member_add(*, group: Group, name: object) -> Member:
    """A new member at the end of the group."""
    cleaned = clean_names([name], least=1, most=1)[0]
    with transaction.atomic():
        members = list(Member.objects.select_for_update().filter(group=group))
        if len(members) >= MAX_MEMBERS:
            raise ServiceError("invalid", "too_many_members", limit=MAX_MEMBERS)
        _name_free(group, cleaned)
        position = max((member.position for member in members), default=-1) + 1
        member = Member.objects.create(group=group, name=cleaned, position=position)
        Group.objects.filter(pk=group.pk).update(updated_at=timezone.now())
        return member


def _seat_members(group: Group, names: Sequence[str]) -> list[int]:
    """The member at each seat, by name ignoring case and look-alike letters (``name_keys``);
    a name the group does not know yet becomes a new member (someone joined the table)."""
    present = list(Member.objects.filter(group=group))
    members: dict[str, Member] = {}  # by each of their names' keys
    for member in present:
        members.update(dict.fromkeys(name_keys(member.name), member))

    def known(name: str) -> Member | None:
        return next((members[key] for key in name_keys(name) if key in members), None)

    newcomers = [name for name in names if known(name) is None]
    if len(present) + len(newcomers) > MAX_MEMBERS:
        raise ServiceError("invalid", "too_many_members", limit=MAX_MEMBERS)
    position = max((member.position for member in present), default=-1) + 1
    for offset, name in enumerate(newcomers):
        newcomer = Member.objects.create(group=group, name=name, position=position + offset)
        members.update(dict.fromkeys(name_keys(name), newcomer))
    return [member.pk for member in map(known, names) if member is not None]


def summarise(match: Match) -> MatchSummary:
    """The match's summary, from its log as it is now."""
    return keeper_of(match).summarise(match_view(match))


def play_fields(match: Match, summary: MatchSummary) -> dict[str, object]:
    """What a play holds of its match, as of ``summary`` (made at the match's seq)."""
    return {
        # A user's own game changed since keeps one history and one line of stats: its plays
        # are of the game, whichever version each kept (the match says which).
        "game": keeper_of(match).game_family,
        "game_name": summary.title or "",
        "first": match.first,
        "started_at": match.created_at,
        "ended_at": match.updated_at,
        "summary": summary_to_json(summary),
        "summary_seq": match.seq,
        "over": summary.over,
    }


def may_write_match(match: Match, *, match_token: str | None = None, device_secret: str | None = None) -> bool:
    """Whether the request holds ``match``'s own write right: its edit token, or a device
    that keeps score on it. A match's id is only the right to watch: it sits in QR codes,
    shared links and the BG Stats link, so it must never let anyone take the match into a
    group (and from there delete it) nor squat it so that its owners' group cannot."""
    return edit_token_matches(match, match_token) or device_can_edit(device_secret=device_secret, match=match)


def play_attach(
    *, group: Group, match_id: object, match_token: str | None = None, device_secret: str | None = None
) -> Play:
    """Add a match to the group's history (one started elsewhere, or from the group); the
    request must hold the match's write right (``may_write_match``) besides the group's."""
    match = find_match(match_id)
    if match is None or keeper_for(match.game) is None:
        # The group is there; what the body names is not (422, not 404: the address is right).
        raise ServiceError("invalid", "no_such_match")
    if not may_write_match(match, match_token=match_token, device_secret=device_secret):
        raise ServiceError("forbidden", "match_write_needed")
    if Play.objects.filter(match=match).exists():
        raise ServiceError("conflict", "already_in_group")
    if Play.objects.filter(group=group).count() >= MAX_PLAYS:
        raise ServiceError("invalid", "history_full", limit=MAX_PLAYS)
    with transaction.atomic():
        seats = _seat_members(group, list(match.players))
        try:
            with transaction.atomic():
                play = Play.objects.create(
                    group=group, match=match, seats=seats, **play_fields(match, summarise(match))
                )
        except IntegrityError:  # attached by another request in between
            raise ServiceError("conflict", "already_in_group") from None
        match_followed(match_id=match.pk)  # its writes are told to the play from now on
        Group.objects.filter(pk=group.pk).update(updated_at=timezone.now())
    return play


def follow_match(view: MatchView) -> None:
    """A match moved on (an action, an undo, committed): the play that holds it, if any,
    takes its summary as it now is. Two writes' followers may run in either order, so a
    summary only ever moves to a later seq."""
    row = view.row
    found = list(Play.objects.filter(match_id=row.pk).order_by().values_list("pk", flat=True)[:1])
    if not found:
        return
    play = found[0]
    fields = play_fields(row, keeper_of(row).summarise(view))
    Play.objects.filter(Q(summary_seq__isnull=True) | Q(summary_seq__lt=row.seq), pk=play).update(**fields)


def writable_matches(match_ids: Sequence[str], *, device_secret: str | None) -> set[str]:
    """Those of ``match_ids`` this device keeps score on (one query)."""
    return MATCH_LINKS.editable(match_ids, device_secret=device_secret)


def play_delete(*, group: Group, play_id: object, device_secret: str | None = None) -> bool:
    """Take a play out of the group's history. Its match is deleted with it (its log too)
    only if this device keeps score on it: the group's key is no right over a match, whose
    owners may keep it elsewhere. True if the match went too."""
    play = Play.objects.filter(group=group, uuid=play_id).first() if isinstance(play_id, str) else None
    if play is None:
        raise ServiceError("not_found", "no_such_play")
    match_goes = play.match_id is not None and play.match_id in writable_matches(
        [play.match_id], device_secret=device_secret
    )
    with transaction.atomic():
        Play.objects.filter(pk=play.pk).delete()
        if match_goes:
            Match.objects.filter(pk=play.match_id).delete()  # its log goes with it
        elif play.match_id is not None:
            match_followed(match_id=play.match_id, followed=False)
        Group.objects.filter(pk=group.pk).update(updated_at=timezone.now())
    return match_goes


def group_delete(*, group: Group, device_secret: str | None = None) -> int:
    """Delete the group, its members and its plays. Of its matches, those this device keeps
    score on are deleted with their logs; the others stay with whoever keeps their score.
    Returns how many matches went."""
    with transaction.atomic():
        match_ids = list(Play.objects.filter(group=group, match__isnull=False).values_list("match_id", flat=True))
        going = writable_matches(match_ids, device_secret=device_secret)
        group.delete()
        Match.objects.filter(pk__in=going).delete()
        Match.objects.filter(pk__in=match_ids).update(followed=False)  # those that stay
    return len(going)


def import_group(
    *,
    name: str,
    members: Sequence[str],
    plays: Sequence[tuple[str, str, str, datetime, datetime, Sequence[int], int, MatchSummary]],
) -> tuple[Group, str]:
    """A new group from an export: ``plays`` as (id, game, game_name, started_at, ended_at,
    seats as indexes into ``members``, first, summary). Imported plays have no match."""
    group_name = clean_group_name(name)
    names = clean_names(list(members), least=1, most=MAX_MEMBERS)
    with transaction.atomic():
        group = Group.objects.create(name=group_name)
        rows = Member.objects.bulk_create(
            Member(group=group, name=member, position=position) for position, member in enumerate(names)
        )
        if any(row.pk is None for row in rows):  # a database that gives no ids back on bulk insert
            rows = list(Member.objects.filter(group=group).order_by("position"))
        ids = [row.pk for row in rows]
        Play.objects.bulk_create(
            (
                Play(
                    uuid=play_id,
                    group=group,
                    game=game,
                    game_name=game_name,
                    seats=[ids[index] for index in seats],
                    first=first,
                    started_at=started_at,
                    ended_at=ended_at,
                    summary=summary_to_json(summary),
                    over=summary.over,
                )
                for play_id, game, game_name, started_at, ended_at, seats, first, summary in plays
            ),
            batch_size=500,
        )
    return group, group_key_for(group.id)


def device_group_link(*, device_secret: str, group: Group, can_edit: bool) -> None:
    """Remember that this device made or opened ``group`` (granting edit only upwards)."""
    GROUP_LINKS.link(device_secret=device_secret, thing=group, can_edit=can_edit)


def known_device(device_secret: str) -> bool:
    """Whether this server gave out this device secret (it keeps or made a match or a group)."""
    return MATCH_LINKS.knows(device_secret) or GROUP_LINKS.knows(device_secret)


def device_can_edit_group(*, device_secret: str | None, group: Group) -> bool:
    """Whether this device holds the right to change ``group``."""
    return GROUP_LINKS.can_edit(device_secret=device_secret, thing=group)


def device_groups(*, device_secret: str | None, limit: int = 50) -> list[tuple[Group, bool]]:
    """This device's groups, most recently changed first, with whether it may change each."""
    return GROUP_LINKS.of_device(device_secret=device_secret, limit=limit)
