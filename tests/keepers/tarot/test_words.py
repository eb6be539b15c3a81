"""What Tarot says of each action and of each refusal, in English and in French: the log, the
bar, the band, and every reason the engine and the schemas give, each in its own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from marquoir.games.tarot import Chelem, Contract, Deal, End, Match, Options, Outcome, Pass, Poignee, Setup, Side
from marquoir.games.tarot import PoigneeSize as Size
from marquoir.keepers.tarot.keeper import KEEPER
from marquoir.keepers.tarot.narration import (
    deal_status,
    describe,
    describe_short,
    describe_undo,
    describe_undo_short,
    points_text,
)
from marquoir.tables.messages import message_for

NBSP = "\u00a0"
MINUS = "\u2212"
FOUR = ("Ada", "Ben", "Cy", "Dee")
FIVE = (*FOUR, "Eve")
GENERIC = ("This request is not valid.", "Cette requête n’est pas valide.")
TAROT = Path(__file__).resolve().parents[3] / "marquoir" / "games" / "tarot"


def outcomes(*actions: Deal | Pass | End, players: int = 4, options: Options | None = None) -> list[Outcome]:
    return list(Match.replay(Setup(players, 0, options or Options()), actions).outcomes)


def test_a_made_deal_is_told_as_the_issue_writes_it():
    (outcome,) = outcomes(Deal(taker=0, contract=Contract.GARDE, bouts=2, points=47))

    assert describe_short(outcome, FOUR) == f"Ada’s garde made by 6: +186; Ben, Cy, Dee {MINUS}62"
    assert describe(outcome, FOUR) == f"Deal 1, dealt by Ada: Ada’s garde made by 6: +186; Ben, Cy, Dee {MINUS}62."
    with translation.override("fr"):
        assert describe_short(outcome, FOUR) == f"Ada passe de 6 en garde{NBSP}: +186{NBSP}; Ben, Cy, Dee {MINUS}62"


def test_a_failed_deal_with_extras_names_them():
    deal = Deal(
        taker=1,
        contract=Contract.GARDE_SANS,
        bouts=1,
        points=48,
        petit_au_bout=Side.DEFENCE,
        poignees=(Poignee(Side.DEFENCE, Size.SIMPLE),),
    )
    (outcome,) = outcomes(deal)

    assert describe(outcome, FOUR) == (
        f"Deal 1, dealt by Ada: Ben’s garde sans failed by 3: {MINUS}516; Ada, Cy, Dee +172. "
        "With petit au bout for the defence, a simple handful by the defence."
    )
    with translation.override("fr"):
        assert describe(outcome, FOUR) == (
            f"Donne 1, distribuée par Ada{NBSP}: Ben chute de 3 en garde sans{NBSP}: {MINUS}516{NBSP}; "
            "Ada, Cy, Dee +172. Avec petit au bout pour la défense, une poignée simple de la défense."
        )


def test_five_players_name_the_partner_or_say_the_taker_was_alone():
    with_partner, alone = outcomes(
        Deal(taker=0, contract=Contract.PETITE, partner=1, bouts=1, points=55),
        Deal(taker=0, contract=Contract.PETITE, partner=0, bouts=1, points=55, chelem=Chelem.MADE),
        players=5,
    )

    assert (
        describe_short(with_partner, FIVE)
        == f"Ada’s petite with Ben made by 4: Ada +58, Ben +29; Cy, Dee, Eve {MINUS}29"
    )
    assert describe_short(alone, FIVE) == f"Ada’s petite alone made by 4: +916; Ben, Cy, Dee, Eve {MINUS}229"
    assert "chelem made, not announced" in describe(alone, FIVE)
    with translation.override("fr"):
        assert describe_short(with_partner, FIVE).startswith("Ada et Ben passent de 4 en petite")
        assert describe_short(alone, FIVE).startswith("Ada passe de 4 en petite, sans partenaire")


def test_a_pass_the_end_and_undo_in_words():
    scored, passed, ended = outcomes(Deal(taker=0, contract=Contract.GARDE, bouts=2, points=41), Pass(), End())

    assert describe_short(scored, FOUR) == f"Ada’s garde just made: +150; Ben, Cy, Dee {MINUS}50"
    assert describe(passed, FOUR) == "Deal 2, dealt by Ben: everyone passed; Cy deals next."
    assert describe_short(passed, FOUR) == "Everyone passed · Cy deals"
    assert describe(ended, FOUR) == "The players stopped after 1 deal. Ada wins with 150."
    assert describe_undo(scored, FOUR).startswith("Deal 1 taken back (Ada’s garde just made")
    assert describe_undo_short(passed, FOUR) == "Deal 2 taken back"
    with translation.override("fr"):
        assert describe(passed, FOUR) == (
            f"Donne 2, distribuée par Ben{NBSP}: tout le monde a passé{NBSP}; Cy distribue la suivante."
        )
        assert describe(ended, FOUR) == "Les joueurs se sont arrêtés après 1 donne. Ada gagne avec 150."


def test_the_last_agreed_deal_says_the_game_is_over():
    (outcome,) = outcomes(Deal(taker=0, contract=Contract.GARDE, bouts=2, points=47), options=Options(deals=1))

    assert describe(outcome, FOUR).endswith("That was the last deal: the game is over. Ada wins with 186.")


def test_the_band_says_the_deal_who_deals_and_how_many_are_left():
    assert deal_status(3, "Ben", None) == "Deal 3 · Ben deals"
    assert deal_status(3, "Ben", 1) == "Deal 3 · Ben deals · 1 to go"
    with translation.override("fr"):
        assert deal_status(3, "Ben", 4) == "Donne 3 · Ben distribue · encore 4"
        assert points_text(40.5) == "40,5"
    assert points_text(40.5) == "40.5"
    assert points_text(47) == "47"


def _engine_reasons() -> set[str]:
    """Every reason the engine and the keeper raise, read from their sources."""
    sources = [*TAROT.glob("*.py"), *(TAROT.parents[1] / "keepers" / "tarot").glob("*.py")]
    found: set[str] = set()
    for source in sources:
        found |= set(re.findall(r'RuleError\(\s*INVALID,\s*"([a-z_]+)"', source.read_text(encoding="utf-8")))
    return found


def test_the_sources_raise_the_reasons_this_test_knows():
    assert {"points_for_bouts", "partner_not_allowed", "too_many_poignees", "bad_deals", "points_digits"} <= (
        _engine_reasons()
    )


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_reason_of_the_engine_is_worded_by_the_keeper(language: str):
    reasons = _engine_reasons() | {"no_deal", "match_over"}
    params = {"side": "taker", "count": 3, "max": 2, "bouts": 2, "points": 4, "min": 9, "player_count": 4, "index": 0}
    with translation.override(language):
        for reason in sorted(reasons):
            assert reason in KEEPER.wordings, reason
            message = message_for("invalid", reason, params, FOUR, KEEPER.wordings)
            assert message not in GENERIC, reason
            assert "%(" not in message, reason
            if language == "fr":
                assert re.search(r"[^\u00a0«][:;?!]", message.replace("://", "")) is None, (reason, message)
