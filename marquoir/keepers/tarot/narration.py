"""What each deal did, in plain words, in the page's language.

A played deal is told as the table would say it: "Ada’s garde made by 6: +186; Ben, Cy,
Dee −62". Negative numbers take the true minus sign (U+2212), half points the language's
decimal mark (40.5, 40,5).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from marquoir.games.tarot import (
    Chelem,
    Contract,
    DealPassed,
    DealScored,
    Ended,
    EndReason,
    Outcome,
    PlayedDeal,
    PoigneeSize,
    Side,
)
from marquoir.tables.kit import (
    LogWords,
    end_taken_back,
    game_over_short,
    game_over_text,
    result_text,
    total_text,
    undo_text,
)


def signed_text(value: int) -> str:
    """A deal's score: ``+186``, ``−62``, ``0``."""
    if value > 0:
        return f"+{value}"
    return total_text(value)


def points_text(value: float) -> str:
    """Card points: ``47``, ``40.5`` (``40,5`` in French)."""
    if float(value).is_integer():
        return str(int(value))
    return formats.number_format(value, decimal_pos=1, use_l10n=True)


def contract_name(contract: Contract | str) -> str:
    """The contract as players say it: petite, garde, garde sans, garde contre."""
    names = {
        Contract.PETITE: _("petite"),
        Contract.GARDE: _("garde"),
        Contract.GARDE_SANS: _("garde sans"),
        Contract.GARDE_CONTRE: _("garde contre"),
    }
    return names[Contract(contract)]


def contract_label(contract: Contract | str) -> str:
    """The contract on a button: Petite, Garde, Garde sans, Garde contre."""
    name = contract_name(contract)
    return name[:1].upper() + name[1:]


def size_name(size: PoigneeSize | str) -> str:
    names = {PoigneeSize.SIMPLE: _("simple"), PoigneeSize.DOUBLE: _("double"), PoigneeSize.TRIPLE: _("triple")}
    return names[PoigneeSize(size)]


def chelem_text(chelem: Chelem) -> str:
    texts = {
        Chelem.ANNOUNCED_MADE: _("chelem announced and made"),
        Chelem.MADE: _("chelem made, not announced"),
        Chelem.ANNOUNCED_FAILED: _("chelem announced and failed"),
    }
    return texts[chelem]


def _head(deal: PlayedDeal, players: Sequence[str]) -> str:
    """Who took, what, with whom, and by how much it was made or failed."""
    values = {
        "name": players[deal.taker],
        "contract": contract_name(deal.contract),
        "gap": deal.score.gap,
        "partner": players[deal.teammate] if deal.teammate is not None else "",
    }
    alone = deal.partner is not None and deal.teammate is None
    if deal.teammate is not None:
        if not deal.made:
            return _("%(name)s’s %(contract)s with %(partner)s failed by %(gap)s") % values
        if deal.score.gap == 0:
            return _("%(name)s’s %(contract)s with %(partner)s just made") % values
        return _("%(name)s’s %(contract)s with %(partner)s made by %(gap)s") % values
    if alone:
        if not deal.made:
            return _("%(name)s’s %(contract)s alone failed by %(gap)s") % values
        if deal.score.gap == 0:
            return _("%(name)s’s %(contract)s alone just made") % values
        return _("%(name)s’s %(contract)s alone made by %(gap)s") % values
    if not deal.made:
        return _("%(name)s’s %(contract)s failed by %(gap)s") % values
    if deal.score.gap == 0:
        return _("%(name)s’s %(contract)s just made") % values
    return _("%(name)s’s %(contract)s made by %(gap)s") % values


def deal_sentence(deal: PlayedDeal, players: Sequence[str]) -> str:
    """``Ada’s garde made by 6: +186; Ben, Cy, Dee −62``: the deal and what each side got."""
    scores = deal.scores
    if deal.teammate is None:
        takers = signed_text(scores[deal.taker])
    else:
        # Translators: one player's score of a deal, "Ada +124".
        takers = ", ".join(
            _("%(name)s %(score)s") % {"name": players[player], "score": signed_text(scores[player])}
            for player in (deal.taker, deal.teammate)
        )
    defenders = [player for player in range(len(players)) if player not in (deal.taker, deal.teammate)]
    # Translators: a deal told in words: "Ada’s garde made by 6: +186; Ben, Cy, Dee −62".
    return _("%(head)s: %(takers)s; %(defenders)s %(score)s") % {
        "head": _head(deal, players),
        "takers": takers,
        "defenders": ", ".join(players[player] for player in defenders),
        "score": signed_text(-deal.score.per_defender),
    }


def extras_text(deal: PlayedDeal) -> str:
    """The extras of a deal in words (empty if none): petit au bout, handfuls, chelem."""
    parts = []
    if deal.petit_au_bout is Side.TAKER:
        parts.append(_("petit au bout for the taker’s side"))
    elif deal.petit_au_bout is Side.DEFENCE:
        parts.append(_("petit au bout for the defence"))
    for poignee in deal.poignees:
        if poignee.side is Side.TAKER:
            parts.append(_("a %(size)s handful by the taker’s side") % {"size": size_name(poignee.size)})
        else:
            parts.append(_("a %(size)s handful by the defence") % {"size": size_name(poignee.size)})
    if deal.chelem is not None:
        parts.append(chelem_text(deal.chelem))
    return ", ".join(parts)


def deal_status(number: int, dealer: str, left: int | None) -> str:
    """The band's line while the game goes on: the deal, who deals it, how many are left."""
    if left is None:
        return _("Deal %(number)s · %(dealer)s deals") % {"number": number, "dealer": dealer}
    return ngettext(
        "Deal %(number)s · %(dealer)s deals · %(left)s to go",
        "Deal %(number)s · %(dealer)s deals · %(left)s to go",
        left,
    ) % {"number": number, "dealer": dealer, "left": left}


def describe(outcome: Outcome, players: Sequence[str]) -> str:
    """One or two sentences telling what an action did (the log)."""
    if isinstance(outcome, DealScored):
        deal = outcome.deal
        text = _("Deal %(number)s, dealt by %(dealer)s: %(deal)s.") % {
            "number": deal.number,
            "dealer": players[deal.dealer],
            "deal": deal_sentence(deal, players),
        }
        extras = extras_text(deal)
        if extras:
            text += " " + _("With %(extras)s.") % {"extras": extras}
        if outcome.game_over:
            text += " " + _("That was the last deal: the game is over.") + " "
            text += result_text(outcome.leaders, outcome.totals, players)
        return text
    if isinstance(outcome, DealPassed):
        return _("Deal %(number)s, dealt by %(dealer)s: everyone passed; %(next)s deals next.") % {
            "number": outcome.deal.number,
            "dealer": players[outcome.deal.dealer],
            "next": players[outcome.next_dealer],
        }
    stopped = ngettext(
        "The players stopped after %(count)s deal.", "The players stopped after %(count)s deals.", outcome.played
    ) % {"count": outcome.played}
    return stopped + " " + result_text(outcome.winners, outcome.totals, players)


def describe_short(outcome: Outcome, players: Sequence[str]) -> str:
    """The few words under the thumb after an action."""
    if isinstance(outcome, DealScored):
        sentence = deal_sentence(outcome.deal, players)
        if outcome.game_over:
            return _("%(deal)s · Game over") % {"deal": sentence}
        return sentence
    if isinstance(outcome, DealPassed):
        return _("Everyone passed · %(next)s deals") % {"next": players[outcome.next_dealer]}
    return game_over_short(outcome.winners, outcome.totals, players)


def describe_undo(undone: Outcome | None, players: Sequence[str]) -> str:
    """The log line of an undo."""
    if isinstance(undone, DealScored):
        return _("Deal %(number)s taken back (%(deal)s).") % {
            "number": undone.deal.number,
            "deal": deal_sentence(undone.deal, players),
        }
    if isinstance(undone, DealPassed):
        return _("Deal %(number)s taken back (everyone had passed).") % {"number": undone.deal.number}
    if isinstance(undone, Ended):
        return end_taken_back()
    return undo_text()


def describe_undo_short(undone: Outcome | None, players: Sequence[str]) -> str:
    """The few words after an undo: ``Deal 3 taken back``."""
    if isinstance(undone, DealScored | DealPassed):
        return _("Deal %(number)s taken back") % {"number": undone.deal.number}
    if isinstance(undone, Ended):
        return end_taken_back(short=True)
    return undo_text()


def end_reason_text(reason: EndReason | None) -> str:
    if reason is EndReason.DEALS:
        return _("That was the last deal: the game is over.")
    return game_over_text()


LOG_WORDS = LogWords(describe, describe_short, describe_undo, describe_undo_short)
