"""Tally's keeper: only the members a game must write (``Keeper.REQUIRED``); every other one
is the kit's default."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field

from marquoir.tables.kit import ActionBody, Keeper, LogWords, Match, MatchSummary, MatchView, OutSchema

from .engine import META, Add, Added, Setup, TallyMatch


class AddIn(ActionBody):
    """The current player adds points."""

    type: Literal["add"]
    points: int = Field(..., ge=0, le=9)

    @classmethod
    def engine_action(cls, payload: Mapping[str, Any]) -> Add:
        return Add(payload["points"])


class TallyStateOut(OutSchema):
    id: str
    game: Literal["tally"]
    seq: int
    totals: list[int]
    current: int
    over: bool
    winners: list[int]


def _added(outcome: Added | None, players: Sequence[str]) -> str:
    return "Undo." if outcome is None else f"{players[outcome.player]} +{outcome.points}"


class TallyKeeper(Keeper):
    meta = META
    action_models = (AddIn,)
    state_schema = TallyStateOut
    log_words = LogWords(_added, _added, _added, _added)

    def start(self, row: Match) -> TallyMatch:
        return TallyMatch.start(Setup(len(row.players), row.first))

    def state_json(self, view: MatchView) -> dict[str, Any]:
        state = view.engine.state
        return {
            "id": view.row.id,
            "game": view.row.game,
            "seq": view.row.seq,
            "totals": list(state.totals),
            "current": state.current,
            "over": state.over,
            "winners": list(state.winners),
        }

    def summarise(self, view: MatchView) -> MatchSummary:
        state = view.engine.state
        return MatchSummary(
            scores=state.totals,
            ranks=tuple(1 + sum(other > total for other in state.totals) for total in state.totals),
            winners=state.winners,
            over=state.over,
        )

    def table_context(
        self, request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool
    ) -> dict[str, Any]:
        return {"match": view.row, "state": view.engine.state}


KEEPER = TallyKeeper()
