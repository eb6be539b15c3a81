"""Pickomino (Heckmeck am Bratwurmeck), by Reiner Knizia: the rules as a pure package.

No Django, no I/O, no randomness here; an import-linter contract keeps it so.
"""

from .dice import DICE_COUNT, Face, Keep, TurnDice
from .engine import (
    GRILL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    Action,
    Bust,
    Busted,
    BustReason,
    Claim,
    GameState,
    Options,
    Outcome,
    Source,
    Standing,
    Take,
    Took,
    apply,
    grill_claim,
    legal_claims,
    new_game,
    standings,
    tie_break_decided,
    winners,
)
from .errors import RuleError
from .match import Match, Setup, Step, fold
from .tiles import TILE_BANDS, TILES, TOTAL_WORMS, worms_on

__all__ = [
    "DICE_COUNT",
    "GRILL",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "TILES",
    "TILE_BANDS",
    "TOTAL_WORMS",
    "Action",
    "Bust",
    "BustReason",
    "Busted",
    "Claim",
    "Face",
    "GameState",
    "Keep",
    "Match",
    "Options",
    "Outcome",
    "RuleError",
    "Setup",
    "Source",
    "Standing",
    "Step",
    "Take",
    "Took",
    "TurnDice",
    "apply",
    "fold",
    "grill_claim",
    "legal_claims",
    "new_game",
    "standings",
    "tie_break_decided",
    "winners",
    "worms_on",
]
