"""What the table screen shows, worked out from a match view (no template logic beyond loops)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.pickomino import (
    GRILL,
    TILES,
    BustReason,
    Claim,
    Face,
    GameState,
    standings,
    tie_break_decided,
    winners,
    worms_on,
)
from marquoir.tables.kit import (
    Correction,
    LineChart,
    MatchView,
    SeatMark,
    StandingRow,
    Standings,
    TableWords,
    correcting_entry,
    join_names,
    last_words,
    line_chart,
    message_for,
    started_mark,
)

from .assistant import AdviceView, advice_for, face_name, tile_pad_advice
from .messages import WORDINGS
from .narration import LOG_WORDS, bust_reason_text
from .state import worms_over_time
from .turn import DICE_PAD, PADS, TILE_PAD, TurnEntry, carries_entry, preferred_pad, read_turn


@dataclass(frozen=True)
class GrillSlot:
    """One of the 16 places of the grill; ``claim`` is the button's value when a tap may take it."""

    tile: int
    worms: int
    place: str  # "up", "down" or "held"
    holder: str | None = None
    claim: str | None = None
    label: str = ""
    # A total or dice narrowed the choice and this face-up tile is not among it.
    excluded: bool = False


@dataclass(frozen=True)
class PlayerCard:
    index: int
    name: str
    worms: int
    top: int | None
    top_worms: int
    tiles: int
    current: bool
    # The value of the steal button on this player's top tile, when a tap may steal it.
    claim: str | None = None
    claim_label: str = ""
    mark: SeatMark | None = None

    @property
    def score(self) -> int:
        """What the band shows: Pickomino counts worms."""
        return self.worms

    @property
    def score_unit(self) -> str:
        """The band's unit for a screen reader: "1 worm", "3 worms"."""
        return ngettext("worm", "worms", self.worms)


def _chart(view: MatchView) -> LineChart:
    """Each player's worms after every action in force."""
    series = worms_over_time(view)
    steps = max(len(series[0]) - 1, 1)
    caption = ngettext(
        "Worms of each player over %(turns)s turn", "Worms of each player over %(turns)s turns", steps
    ) % {"turns": steps}
    return line_chart(series, view.row.players, caption=caption)


def _result_text(view: MatchView) -> tuple[str, str | None]:
    """The winner sentence, and the tie-break explained when it decided."""
    state, names = view.engine.state, view.row.players
    won = winners(state)
    table = standings(state)
    if len(won) > 1:
        together = join_names([names[p] for p in won])
        return _("%(names)s share the win.") % {"names": together}, _("Tied players with no tile share the win.")
    leader = table[0]
    headline = ngettext("%(name)s wins with %(count)s worm.", "%(name)s wins with %(count)s worms.", leader.worms) % {
        "name": names[leader.player],
        "count": leader.worms,
    }
    if not tie_break_decided(state):
        return headline, None
    tied = [row for row in table if row.worms == leader.worms]
    explanation = _(
        "%(names)s are tied on worms; %(winner)s holds the highest tile, %(tile)s, and wins the tie-break."
    ) % {
        "names": join_names([names[row.player] for row in tied]),
        "winner": names[leader.player],
        "tile": leader.best_tile,
    }
    return headline, explanation


def _claim_value(total: int, claim: Claim) -> str:
    """What a claim button sends: the total recorded and where the tile comes from."""
    return f"{total}:{claim.source}"


def _offered_claims(turn: TurnEntry | None, state: GameState) -> dict[tuple[int, str], str]:
    """The claim buttons the pad offers, by (tile, source), with the value each one sends.

    On the bare tile pad every tile that some total could claim is a button, recorded
    with that exact total: each face-up grill tile and each opponent's top tile (never
    the player's own). Once a total is typed or dice are kept, only what it claims.
    """
    # A refused entry falls back to the bare pad (read_turn clears it): its tiles stay buttons.
    if turn is None or turn.bust_reason is not None:
        return {}
    if turn.pad == TILE_PAD and not turn.has_total:
        offered: dict[tuple[int, str], str] = {(tile, GRILL): f"{tile}:{GRILL}" for tile in state.face_up}
        for player, stack in enumerate(state.stacks):
            if player != state.current and stack:
                offered[(stack[-1], str(player))] = f"{stack[-1]}:{player}"
        return offered
    total = turn.claim_total
    if total is None:
        return {}
    return {(claim.tile, str(claim.source)): _claim_value(total, claim) for claim in turn.claims}


def _grill(state: GameState, names: list[str], offered: dict[tuple[int, str], str], narrowed: bool) -> list[GrillSlot]:
    holders = {tile: index for index, stack in enumerate(state.stacks) for tile in stack}
    slots = []
    for tile in TILES:
        place = "up" if tile in state.face_up else "down" if tile in state.face_down else "held"
        claim = offered.get((tile, GRILL))
        slots.append(
            GrillSlot(
                tile,
                worms_on(tile),
                place,
                names[holders[tile]] if tile in holders else None,
                claim,
                _("Take %(tile)s from the grill") % {"tile": tile} if claim else "",
                excluded=narrowed and place == "up" and claim is None,
            )
        )
    return slots


def _players(
    state: GameState, names: list[str], offered: dict[tuple[int, str], str], first: int | None = None
) -> list[PlayerCard]:
    players = []
    for index, name in enumerate(names):
        top = state.top(index)
        claim = offered.get((top, str(index))) if top is not None else None
        players.append(
            PlayerCard(
                index=index,
                name=name,
                worms=state.worms(index),
                top=top,
                top_worms=worms_on(top) if top is not None else 0,
                tiles=len(state.stacks[index]),
                current=index == state.current and not state.over,
                claim=claim,
                claim_label=_("Steal %(tile)s from %(name)s") % {"tile": top, "name": name} if claim else "",
                mark=started_mark() if index == first else None,
            )
        )
    return players


def _pad_prompt(turn: TurnEntry, names: list[str], state: GameState) -> str:
    """The one line above the pad that says what a tap does now."""
    name = names[state.current]
    if turn.pad == TILE_PAD and not turn.has_total:
        return _("Tap the tile %(name)s takes.") % {"name": name}
    if turn.bust_reason is not None:
        return _bust_verdict(turn)
    if turn.pad == TILE_PAD or turn.claims:
        return ngettext(
            "With %(total)s, %(name)s may take this tile:",
            "With %(total)s, %(name)s may take one of these tiles:",
            len(turn.claims),
        ) % {"total": turn.claim_total, "name": name}
    if turn.roll_complete:
        return _("Tap the face %(name)s keeps.") % {"name": name}
    if turn.dice.keeps and not turn.dice.has_worm and not turn.roll:
        return _("No worm kept yet: roll the other dice.")
    if turn.dice.keeps and not turn.roll:
        return _("Nothing to take with %(total)s yet: roll on.") % {"total": turn.dice.total}
    return ngettext(
        "Tap each die of the roll: %(left)s die to enter.",
        "Tap each die of the roll: %(left)s dice to enter.",
        turn.dice.dice_left - len(turn.roll),
    ) % {"left": turn.dice.dice_left - len(turn.roll)}


def _bust_verdict(turn: TurnEntry) -> str:
    if turn.bust_reason == BustReason.NO_NEW_FACE:
        return _("No new face in this roll: the turn is a bust.")
    if turn.bust_reason == BustReason.NO_WORM:
        return _("Bust: no worm was kept, so no tile can be claimed.")
    return _("Bust: no face-up tile on the grill at or below %(total)s, and no opponent’s top tile is %(total)s.") % {
        "total": turn.claim_total
    }


def _dice_pad(turn: TurnEntry, advice: AdviceView | None) -> dict[str, Any]:
    """The dice pad's links: a face button adds one die to the roll; a keep button keeps a face."""
    base = {"seq": turn.seq, "pad": DICE_PAD, "dice": turn.dice_code}
    faces = []
    roll_open = not turn.dice.is_finished and not turn.roll_complete
    for face in Face:
        grown = (*turn.roll, face)
        faces.append(
            {
                "key": face.key,
                "label": _("A die shows a worm")
                if face is Face.WORM
                else _("A die shows %(face)s") % {"face": int(face)},
                "query": "?"
                + urlencode({**base, "roll": ",".join(f"{f.key}:{grown.count(f)}" for f in Face if f in grown)})
                if roll_open
                else None,
            }
        )
    keeps = [
        {
            "key": face.key,
            "count": count,
            "label": _("Keep %(dice)s") % {"dice": face_name(face, count)},
            "query": "?" + urlencode({**base, "roll": turn.roll_code, "keep": face.key}),
            "advised": advice is not None and advice.best_keep == face.key,
        }
        for face, count in turn.roll_keeps
    ]
    return {
        "faces": faces,
        "keeps": keeps,
        "clear_query": "?" + urlencode(base) if turn.roll else None,
        "restart_query": "?" + urlencode({"seq": turn.seq, "pad": DICE_PAD}) if turn.dice.keeps or turn.roll else None,
    }


def _turn_context(view: MatchView, turn: TurnEntry, names: list[str], state: GameState) -> dict[str, Any]:
    context: dict[str, Any] = {"pad_prompt": _pad_prompt(turn, names, state)}
    advice: AdviceView | None = None
    if view.row.assistant and turn.error is None:
        if turn.pad == DICE_PAD and turn.bust_reason is None:
            advice = advice_for(turn, state, names)
        elif turn.pad == TILE_PAD and turn.bust_reason is None:
            advice = tile_pad_advice(turn, state, names)
    context["assistant_view"] = advice
    if turn.pad == DICE_PAD:
        context["dice_pad"] = _dice_pad(turn, advice)
    if turn.bust_reason is not None:
        context["bust_now"] = {"reason": turn.bust_reason.value, "label": bust_reason_text(turn.bust_reason)}
    context["bust_reasons"] = [
        {"reason": reason.value, "label": label}
        for reason, label in (
            (BustReason.NO_NEW_FACE, _("The roll showed no new face")),
            (BustReason.NO_WORM, _("Stopped without a worm")),
            (BustReason.NOTHING_TO_CLAIM, _("No tile to take with the total")),
        )
    ]
    if turn.error is not None:
        context["turn_error"] = message_for(turn.error.code, turn.error.reason, turn.error.params, names, WORDINGS)
    return context


def board_context(
    view: MatchView,
    query: Mapping[str, str],
    *,
    can_edit: bool,
    pad: str = TILE_PAD,
    state: GameState | None = None,
) -> dict[str, Any]:
    """Everything pickomino/table.html needs: for the match as it is, or as ``state`` (the
    table before a turn being corrected: its grill and stacks, whose turn it was)."""
    state = view.engine.state if state is None else state
    names = list(view.row.players)
    turn = read_turn(query, state, view.row.seq, pad=pad) if can_edit and not state.over else None
    offered = _offered_claims(turn, state)
    narrowed = turn is not None and (turn.has_total or turn.pad == DICE_PAD)
    players = _players(state, names, offered, view.row.first)
    context: dict[str, Any] = {
        "grill": _grill(state, names, offered, narrowed),
        "players": players,
        "steals": [player for player in players if player.claim],
        "current_name": names[state.current],
        "turn": turn,
        "face_up_count": len(state.face_up),
        "claims_offered": bool(offered),
        "words": TableWords(
            title=_("Pickomino table"),
            watching=_("You are watching this match. Only the devices keeping score can record turns."),
            watch=_("Follows the table live; cannot record turns."),
            keep=_("Lets that phone record turns and undo: show it only at the table."),
            stylesheets=("pickomino/pickomino.css",),
        ),
    }
    if turn is not None:
        context.update(_turn_context(view, turn, names, state))
        if turn.overtaken:
            context["notice"] = _(
                "The table changed on another phone (%(what)s): the turn being entered here was dropped."
            ) % {"what": last_words(view, LOG_WORDS) or _("an undo")}
        elif turn.dropped:
            context["notice"] = _(
                "This address holds a turn that was not entered on this table as it is now: it was dropped."
            )
    if state.over:
        headline, tie_break = _result_text(view)
        won = set(winners(state))
        context.update(
            status_text=headline,
            standings=Standings(
                rows=tuple(
                    StandingRow(
                        rank=row.rank,
                        name=names[row.player],
                        winner=row.player in won,
                        cells=(str(row.worms), str(row.best_tile) if row.best_tile else "–"),
                    )
                    for row in standings(state)
                ),
                columns=(_("Worms"), _("Highest tile")),
                tie_break=tie_break,
                # Rank 1 says who won; a badge would squeeze the name between three columns.
                mark_winners=False,
            ),
            chart=_chart(view),
        )
    return context


def _correcting(view: MatchView, query: Mapping[str, str], correction: Correction) -> dict[str, Any]:
    """The tile pad opened on a past turn, on the table as it was before it: the turn's total
    typed in (the tiles it could claim offered, to tap again), or no total for a bust."""
    engine = view.engine
    before: GameState = engine.state_before(correction.step)
    values = correction.values
    entry = {name: values[name] for name in ("total", "worm") if values.get(name)}
    # The address that opened the correction carries no seq: the turn as it stands. One the
    # pad made since does (a total cleared, another typed): the entry as it is now.
    shown = query if carries_entry(query) or "seq" in query else {"seq": str(view.row.seq), **entry}
    context = board_context(view, shown, can_edit=True, pad=TILE_PAD, state=before)
    context["entry_dropped"] = False
    return context


PAD_COOKIE = "marquoir_pad"
PAD_COOKIE_AGE = 365 * 24 * 3600


def table_context(request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool) -> dict[str, Any]:
    """Everything pickomino/table.html needs, with the pad this device chose last."""
    correction = correcting_entry(request) if can_edit else None
    if correction is not None:
        return _correcting(view, query, correction)
    pad = preferred_pad(query, request.COOKIES.get(PAD_COOKIE))
    context = board_context(view, query, can_edit=can_edit, pad=pad)
    if query.get("pad") in PADS:
        # The pad chosen stays this device's choice for the next turns (the address goes bare).
        context["cookies"] = {PAD_COOKIE: (query["pad"], PAD_COOKIE_AGE)}
    turn = context.get("turn")
    context["entry_dropped"] = turn is not None and turn.dropped
    return context
