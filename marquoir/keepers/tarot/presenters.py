"""What Tarot's table screen shows, worked out from a match view (no template logic beyond
loops): the band with the dealer, the deal pad with its preview, the deals so far, the end."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.tarot import (
    BASE,
    CheckedDeal,
    Chelem,
    Contract,
    GameState,
    PlayedDeal,
    PoigneeSize,
    Side,
    leaders,
    points_needed,
    standings,
    winners,
)
from marquoir.tables.kit import (
    MINUS,
    Correction,
    GridRow,
    LineChart,
    MatchView,
    ScoreGrid,
    TableWords,
    band_in_points,
    correcting_entry,
    dealer_mark,
    lead_text,
    line_chart,
    message_for,
    result_text,
    score_grid,
    standings_by_total,
    total_text,
)

from .actions import DEAL
from .entry import POINTS, DealEntry, carries_entry, read_entry
from .messages import WORDINGS
from .narration import (
    chelem_text,
    contract_label,
    contract_name,
    deal_sentence,
    deal_status,
    extras_text,
    points_text,
    signed_text,
    size_name,
)
from .state import remaining_deals


@dataclass(frozen=True)
class Choice:
    """A button of the pad: a link that adds one choice to the entry in the address."""

    label: str
    href: str
    detail: str = ""
    chosen: bool = False


@dataclass(frozen=True)
class Option:
    """A radio button of the points form (``counted``, the extras)."""

    name: str
    value: str
    label: str
    checked: bool


# --- the pad


def _players_choices(entry: DealEntry, names: Sequence[str], name: str, **extra: object) -> list[Choice]:
    return [
        Choice(player, entry.query(**{name: index}, **extra), chosen=entry.values.get(name) == str(index))
        for index, player in enumerate(names)
    ]


def _chips(entry: DealEntry, names: Sequence[str]) -> list[Choice]:
    """The choices made so far, each a link back to change it (the others are kept)."""
    chips = []
    if entry.taker is not None:
        # Another taker may change who the partner can be: the partner goes too.
        chips.append(Choice(names[entry.taker], entry.query(taker=None, partner=None), _("Change the taker")))
    if entry.contract is not None:
        chips.append(Choice(contract_label(entry.contract), entry.query(contract=None), _("Change the contract")))
    if entry.partner is not None and entry.taker is not None:
        label = _("alone") if entry.partner == entry.taker else _("with %(name)s") % {"name": names[entry.partner]}
        chips.append(Choice(label, entry.query(partner=None), _("Change the partner")))
    if entry.bouts is not None:
        label = ngettext("%(count)s bout", "%(count)s bouts", entry.bouts) % {"count": entry.bouts}
        chips.append(Choice(label, entry.query(bouts=None), _("Change the bouts")))
    return chips


def _prompt(entry: DealEntry, names: Sequence[str]) -> str:
    taker = names[entry.taker] if entry.taker is not None else ""
    step = entry.step
    if step == "taker":
        return _("Who took?")
    if step == "contract":
        return _("%(name)s took: which contract?") % {"name": taker}
    if step == "partner":
        return _("Which player did %(name)s call? (the king’s holder)") % {"name": taker}
    if step == "bouts":
        return _("How many bouts did %(name)s’s side take?") % {"name": taker}
    return _("How many card points did %(name)s’s side take?") % {"name": taker}


def _breakdown(checked: CheckedDeal, entry: DealEntry, names: Sequence[str]) -> list[str]:
    """The numbers behind a deal's score, line by line."""
    score = checked.score
    taker = names[checked.taker]
    lines = []
    if entry.counted == Side.DEFENCE:
        lines.append(
            _("The defence took %(defence)s, so %(name)s’s side has 91 − %(defence)s = %(points)s.")
            % {"defence": points_text(91 - score.points), "name": taker, "points": points_text(score.points)}
        )
    lines.append(
        ngettext(
            "With %(bouts)s bout %(name)s’s side needs %(needed)s and has %(points)s.",
            "With %(bouts)s bouts %(name)s’s side needs %(needed)s and has %(points)s.",
            checked.bouts,
        )
        % {"bouts": checked.bouts, "name": taker, "needed": score.needed, "points": points_text(score.points)}
    )
    sign = "" if score.made else MINUS
    lines.append(
        _("Contract: %(sign)s(%(base)s + %(gap)s) × %(multiplier)s = %(points)s")
        % {
            "sign": sign,
            "base": BASE,
            "gap": score.gap,
            "multiplier": score.multiplier,
            "points": signed_text(score.contract_points),
        }
    )
    if score.petit_au_bout:
        lines.append(_("Petit au bout: %(points)s") % {"points": signed_text(score.petit_au_bout)})
    if score.poignees:
        lines.append(_("Handfuls: %(points)s") % {"points": signed_text(score.poignees)})
    if score.chelem:
        lines.append(_("Chelem: %(points)s") % {"points": signed_text(score.chelem)})
    if score.per_defender >= 0:
        lines.append(_("Each defender pays %(points)s.") % {"points": score.per_defender})
    else:
        lines.append(_("Each defender gets %(points)s.") % {"points": -score.per_defender})
    return lines


def _preview(entry: DealEntry, state: GameState, names: Sequence[str]) -> dict[str, Any]:
    """The deal's score before it is recorded, or why it cannot be, or what is missing."""
    if entry.checked is not None:
        checked = entry.checked
        # The preview's sentence is the one the bar says after: the same deal, told the same way.
        deal = PlayedDeal(
            number=state.deal_count + 1,
            dealer=state.dealer,
            taker=checked.taker,
            contract=checked.contract,
            partner=checked.partner,
            bouts=checked.bouts,
            points=checked.points,
            petit_au_bout=checked.petit_au_bout,
            poignees=checked.poignees,
            chelem=checked.chelem,
            score=checked.score,
        )
        return {
            "sentence": deal_sentence(deal, names),
            "made": checked.score.made,
            "extras": extras_text(deal),
            "breakdown": _breakdown(checked, entry, names),
        }
    if entry.error is not None:
        return {"refusal": message_for(entry.error.code, entry.error.reason, entry.error.params, names, WORDINGS)}
    bouts = entry.bouts or 0
    return {
        "hint": ngettext(
            "With %(bouts)s bout the taker’s side needs %(needed)s.",
            "With %(bouts)s bouts the taker’s side needs %(needed)s.",
            bouts,
        )
        % {"bouts": bouts, "needed": points_needed(bouts)}
    }


def _points_form(entry: DealEntry, names: Sequence[str]) -> dict[str, Any]:
    taker = names[entry.taker] if entry.taker is not None else ""
    teammate = entry.partner if entry.partner != entry.taker else None
    takers = {entry.taker, teammate}
    counted = [
        Option("counted", Side.TAKER.value, _("%(name)s’s side") % {"name": taker}, entry.counted != Side.DEFENCE),
        Option("counted", Side.DEFENCE.value, _("The defence"), entry.counted == Side.DEFENCE),
    ]
    petit = entry.values.get("petit", "")
    petits = [
        Option("petit", "", _("No"), not petit),
        Option("petit", Side.TAKER.value, _("%(name)s’s side") % {"name": taker}, petit == Side.TAKER),
        Option("petit", Side.DEFENCE.value, _("The defence"), petit == Side.DEFENCE),
    ]
    handfuls = []
    for index, name in enumerate(names):
        size = entry.values.get(f"poignee_{index}", "")
        options = [Option(f"poignee_{index}", "", _("None"), not size)]
        options += [
            Option(f"poignee_{index}", member.value, size_name(member).capitalize(), size == member)
            for member in PoigneeSize
        ]
        side = _("taker’s side") if index in takers else _("defence")
        handfuls.append({"index": index, "name": name, "side": side, "options": options})
    chelem = entry.values.get("chelem", "")
    chelems = [Option("chelem", "", _("No"), not chelem)]
    chelems += [Option("chelem", member.value, chelem_text(member).capitalize(), chelem == member) for member in Chelem]
    hidden = [
        (name, value) for name, value in entry.values.items() if name in {"taker", "contract", "partner", "bouts"}
    ]
    if entry.correct is not None:
        hidden.append(("correct", str(entry.correct)))
    return {
        "counted": counted,
        "petit": petits,
        "handfuls": handfuls,
        "chelem": chelems,
        "hidden": hidden,
        "extras_open": entry.has_extras,
    }


def _entry_context(entry: DealEntry, state: GameState, names: Sequence[str]) -> dict[str, Any]:
    context: dict[str, Any] = {
        "entry": entry,
        "prompt": _prompt(entry, names),
        "chips": _chips(entry, names),
        "step": entry.step,
        "has_entry": carries_entry(entry.values),
    }
    step = entry.step
    if step == "taker":
        context["choices"] = _players_choices(entry, names, "taker")
    elif step == "contract":
        context["choices"] = [
            Choice(contract_label(contract), entry.query(contract=contract.value), f"×{contract.multiplier}")
            for contract in Contract
        ]
    elif step == "partner":
        taker = entry.taker if entry.taker is not None else 0  # the step comes after the taker's
        choices = _players_choices(entry, names, "partner")
        context["choices"] = [choice for index, choice in enumerate(choices) if index != taker] + [
            Choice(_("%(name)s alone") % {"name": names[taker]}, entry.query(partner=taker))
        ]
    elif step == "bouts":
        context["choices"] = [
            Choice(str(count), entry.query(bouts=count), _("needs %(points)s") % {"points": points_needed(count)})
            for count in range(4)
        ]
    if step == POINTS:
        context["points_form"] = _points_form(entry, names)
        context["preview"] = _preview(entry, state, names)
        number = state.deal_count + 1
        context["record_label"] = (
            _("Save deal %(number)s") if entry.correct is not None else _("Record deal %(number)s")
        ) % {"number": number}
    return context


def _correcting(
    context: dict[str, Any], request: HttpRequest, view: MatchView, query: Mapping[str, str], correction: Correction
) -> dict[str, Any]:
    """The pad opened on a past deal, as the table was before it: its entry, refilled from
    the deal as it stands, then as the taps change it (each address carries the correction)."""
    names, seq = list(view.row.players), view.row.seq
    before: GameState = view.engine.state_before(correction.step)
    number = before.deal_count + 1
    context.update(
        status_text=deal_status(number, names[before.dealer], remaining_deals(before)),
        deal_number=number,
        dealer_name=names[before.dealer],
    )
    shown = _posted_entry(request, seq) or query
    # The address that opened the correction carries no seq: the deal as it stands. One the
    # pad made since does ("Start over" empties the entry): the entry as it is now.
    if not carries_entry(shown) and "seq" not in shown:
        shown = {"seq": str(seq), **{name: value for name, value in correction.values.items() if name != "type"}}
    entry = read_entry(shown, seq, len(names))
    entry.correct = correction.seq
    context.update(_entry_context(entry, before, names))
    context["entry_dropped"] = entry.dropped
    return context


def _posted_entry(request: HttpRequest, seq: int) -> Mapping[str, str] | None:
    """What a refused deal form sent, to show it again: only a deal posted on the table as
    it still is (a recorded one moved the seq; one made on an older table is dropped)."""
    if request.method != "POST":
        return None
    posted = request.POST
    if posted.get("type") != DEAL or posted.get("expected_seq") != str(seq):
        return None
    return {"seq": str(seq), **{name: str(value) for name, value in posted.items()}}


# --- the sheet of deals and the end


def grid(state: GameState, names: Sequence[str], entries: Sequence[int] = ()) -> ScoreGrid:
    """The deals as on a paper pad: each deal's taker and contract beside its number;
    ``entries``: the seq of each action in force, a deal's own to correct it."""
    rows = []
    for index, deal in enumerate(state.deals):
        entry = entries[index] if index < len(entries) else None
        if isinstance(deal, PlayedDeal):
            title = f"{names[deal.taker]} · {contract_name(deal.contract)}"
            cells = tuple(signed_text(score) for score in deal.scores)
            rows.append(GridRow(number=deal.number, cells=cells, title=title, failed=not deal.made, correct=entry))
        else:
            rows.append(GridRow(number=deal.number, passed=_("Everyone passed"), correct=entry))
    return score_grid(
        title=_("The deals"),
        corner=_("Deal"),
        empty=_("No deal yet."),
        names=names,
        rows=rows,
        totals=state.totals,
        ranks={standing.player: standing.rank for standing in standings(state)},
        leaders=set(leaders(state)) if state.played_count else set(),
        number=total_text,
        lead=lead_text(leaders(state), state.totals, names) if state.played_count and not state.over else None,
    )


def chart(state: GameState, names: Sequence[str]) -> LineChart:
    """Each player's total after every deal."""
    totals = state.totals_by_deal()
    series = [[step[player] for step in totals] for player in range(state.player_count)]
    deals = max(len(totals) - 1, 1)
    caption = ngettext(
        "Totals deal by deal, over %(deals)s deal", "Totals deal by deal, over %(deals)s deals", deals
    ) % {"deals": deals}
    return line_chart(series, names, caption=caption, number=total_text)


def table_context(request: HttpRequest, view: MatchView, query: Mapping[str, str], *, can_edit: bool) -> dict[str, Any]:
    """Everything tarot/table.html needs."""
    state, names = view.engine.state, list(view.row.players)
    seq = view.row.seq
    totals = state.totals
    context: dict[str, Any] = {
        "players": band_in_points(names, totals, marked=state.dealer, mark=dealer_mark()),
        "grid": grid(state, names, view.slots),
        "words": TableWords(
            title=_("French Tarot"),
            watching=_("You are watching this match. Only the devices keeping score can record deals."),
            watch=_("Follows the match live; cannot record deals."),
            keep=_("Lets that phone record deals and undo: show it only at the table."),
            stylesheets=("css/grid.css", "tarot/tarot.css"),
        ),
        "entry_dropped": False,
        "dealer_name": names[state.dealer],
    }
    correction = correcting_entry(request) if can_edit else None
    if correction is not None:
        return _correcting(context, request, view, query, correction)
    if state.over:
        won = winners(state)
        context.update(
            status_text=result_text(won, totals, names),
            standings=standings_by_total(
                ((standing.rank, standing.player, standing.score) for standing in standings(state)),
                names,
                won,
                number=total_text,
            ),
            chart=chart(state, names),
        )
        return context
    number = state.deal_count + 1
    context.update(
        status_text=deal_status(number, names[state.dealer], remaining_deals(state)),
        deal_number=number,
    )
    if not can_edit:
        return context
    entry = read_entry(_posted_entry(request, seq) or query, seq, len(names))
    context.update(_entry_context(entry, state, names))
    context["entry_dropped"] = entry.dropped
    if entry.overtaken:
        context["notice"] = _("The table changed on another phone: the deal being entered here was dropped.")
    elif entry.dropped:
        context["notice"] = _(
            "This address holds a deal that was not entered on this table as it is now: it was dropped."
        )
    if state.played_count:
        context["end_now"] = result_text(leaders(state), totals, names)
    return context
