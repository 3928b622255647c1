"""The 18 potions (§4.6): brewed only during a mistletoe action, resolved at once.

Each potion either acts immediately or pushes the decision(s) its effect needs onto the
turn's stack (a standing stone to choose, a tablet, a gem and row, dice to raise...).
A potion whose effect is impossible may still be brewed; it then does nothing (Q11).
"""

from __future__ import annotations

from .components import HERBS_PER_PLAYER, HERB_AMULET, HERB_KNOW, HERB_SICKLE, POTIONS
from .steps import (FLIP_HERB, PLACE_RUNE_STONE, PLACE_STANDING_STONE, RAISE_DIE, TAKE_GEM, TAKE_HERB,
                    TAKE_TABLET)


def brew(state, p: int, k: int) -> None:
    """Resolve potion k for player p (mistletoe already paid)."""
    name = POTIONS[k]
    hs = state.herb_state
    push = state.stack.append
    if name == "P1a":                       # standing-stone action here (herbs apply)
        push((PLACE_STANDING_STONE, 0, 0))
    elif name == "P1b":                     # flip an inactive herb face up
        push((FLIP_HERB, 0, 0))
    elif name == "P1c":                     # one own die to 6, new competition (Q2)
        push((RAISE_DIE, 1, 0))
    elif name == "P2a":                     # an unreleased herb, active
        push((TAKE_HERB, 1, 0))
    elif name == "P2b":
        state.provisions[p] += 6
        state.take_dice(p, 1)
    elif name == "P2c":
        state.advance_sickle(p, 3 + (2 if hs[HERBS_PER_PLAYER * p + HERB_SICKLE] == 1 else 0))
    elif name == "P3a":
        state.prestige[p] += 10
    elif name == "P3b":                     # rune action as if the die showed 3 (no rune herb, Q3)
        push((PLACE_RUNE_STONE, 3, 0))
    elif name == "P3c":
        push((TAKE_TABLET, 1, 0))
    elif name == "P4a":
        state.advance_knowledge(p, 3 + (2 if hs[HERBS_PER_PLAYER * p + HERB_KNOW] == 1 else 0))
    elif name == "P4b":
        state.provisions[p] += 6
        state.prestige[p] += 5
        state.take_dice(p, 2)
    elif name == "P4c":
        push((TAKE_HERB, 2, 0))
    elif name == "P5a":                     # amulet x5, any row (amulet herb applies)
        push((TAKE_GEM, -1, 5 + (1 if hs[HERBS_PER_PLAYER * p + HERB_AMULET] == 1 else 0)))
    elif name == "P5b":
        push((PLACE_RUNE_STONE, 6, 0))
    elif name == "P5c":                     # two standing-stone actions, each fully resolved
        push((PLACE_STANDING_STONE, 0, 0))
        push((PLACE_STANDING_STONE, 0, 0))
    elif name == "P6a":                     # up to 3 own dice to 6
        push((RAISE_DIE, 3, 1))
    elif name == "P6b":                     # two tablet actions, refilling between
        push((TAKE_TABLET, 2, 0))
    else:                                   # P6c
        state.prestige[p] += 25
