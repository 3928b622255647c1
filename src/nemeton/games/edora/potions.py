"""The 18 potions (§4.6): brewed only during a mistletoe action, resolved at once.

Each potion either acts immediately or pushes the decision(s) its effect needs onto the
turn's stack (a standing stone to choose, a tablet, a gem and row, dice to raise...).
A potion whose effect is impossible may still be brewed; it then does nothing (Q11).
"""

from __future__ import annotations

from .components import H_AMULET, H_KNOW, H_SICKLE, HERBS_PER_PLAYER, POTIONS
from .steps import D_FLIP, D_GEM, D_RAISE, D_RUNE, D_STONE, D_TABLET, D_TAKE_HERB


def brew(state, p: int, k: int) -> None:
    """Resolve potion k for player p (mistletoe already paid)."""
    name = POTIONS[k]
    hs = state.herb_state
    push = state.stack.append
    if name == "P1a":                       # standing-stone action here (herbs apply)
        push((D_STONE, 0, 0))
    elif name == "P1b":                     # flip an inactive herb face up
        push((D_FLIP, 0, 0))
    elif name == "P1c":                     # one own die to 6, new competition (Q2)
        push((D_RAISE, 1, 0))
    elif name == "P2a":                     # an unreleased herb, active
        push((D_TAKE_HERB, 1, 0))
    elif name == "P2b":
        state.provisions[p] += 6
        state.take_dice(p, 1)
    elif name == "P2c":
        state.advance_sickle(p, 3 + (2 if hs[HERBS_PER_PLAYER * p + H_SICKLE] == 1 else 0))
    elif name == "P3a":
        state.prestige[p] += 10
    elif name == "P3b":                     # rune action as if the die showed 3 (no rune herb, Q3)
        push((D_RUNE, 3, 0))
    elif name == "P3c":
        push((D_TABLET, 1, 0))
    elif name == "P4a":
        state.advance_knowledge(p, 3 + (2 if hs[HERBS_PER_PLAYER * p + H_KNOW] == 1 else 0))
    elif name == "P4b":
        state.provisions[p] += 6
        state.prestige[p] += 5
        state.take_dice(p, 2)
    elif name == "P4c":
        push((D_TAKE_HERB, 2, 0))
    elif name == "P5a":                     # amulet x5, any row (amulet herb applies)
        push((D_GEM, -1, 5 + (1 if hs[HERBS_PER_PLAYER * p + H_AMULET] == 1 else 0)))
    elif name == "P5b":
        push((D_RUNE, 6, 0))
    elif name == "P5c":                     # two standing-stone actions, each fully resolved
        push((D_STONE, 0, 0))
        push((D_STONE, 0, 0))
    elif name == "P6a":                     # up to 3 own dice to 6
        push((D_RAISE, 3, 1))
    elif name == "P6b":                     # two tablet actions, refilling between
        push((D_TABLET, 2, 0))
    else:                                   # P6c
        state.prestige[p] += 25
