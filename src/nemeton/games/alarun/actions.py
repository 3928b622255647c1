"""Alarún's actions, each built once (interned) and reused.

- ``swap <hand card> <-> <centre card>``: exchange one hand card with a face-up centre card;
- ``pass``;
- ``swap all and pass``: exchange the whole hand with the three face-up centre cards (a pass);
- ``flip``: 2 players only: discard the face-up centre cards, turn the face-down ones up;
- ``place <card> at (x,y)``: end of round: put one hand card on a cell of the square
  (offsets from the druid, x to the right, y downwards).

Cards are named as in RULINGS.md (``dragon_eggs:blue``, ``centum_auri``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...engine import Action, RecordError
from .components import CARD_IDS, CARD_NAMES
from .square import CELL_XY, ORIGIN, SIDE


@dataclass(frozen=True, slots=True)
class Swap(Action):
    kind: ClassVar[str] = "swap"
    give: str  # the hand card that goes to the centre
    take: str  # the face-up centre card that comes to the hand

    def __str__(self) -> str:
        return f"swap {self.give} <-> {self.take}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    kind: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class SwapAllAndPass(Action):
    kind: ClassVar[str] = "swap_all"

    def __str__(self) -> str:
        return "swap all and pass"


@dataclass(frozen=True, slots=True)
class Flip(Action):
    kind: ClassVar[str] = "flip"

    def __str__(self) -> str:
        return "flip: discard the face-up centre, turn the face-down cards up"


def _signed(v: int) -> str:
    return f"{v:+d}" if v else "0"


@dataclass(frozen=True, slots=True)
class Place(Action):
    kind: ClassVar[str] = "place"
    card: str
    x: int  # offset from the druid, to the right
    y: int  # offset from the druid, downwards

    def __str__(self) -> str:
        return f"place {self.card} at ({_signed(self.x)},{_signed(self.y)})"


PASS = Pass()
SWAP_ALL = SwapAllAndPass()
FLIP = Flip()
# SWAPS[give][take] (None where give == take: swapping identical cards changes nothing)
SWAPS: tuple[tuple[Swap | None, ...], ...] = tuple(
    tuple(Swap(CARD_NAMES[g], CARD_NAMES[t]) if g != t else None for t in range(50)) for g in range(50))
# PLACES[card][cell] (None at the druid's cell)
PLACES: tuple[tuple[Place | None, ...], ...] = tuple(
    tuple(Place(CARD_NAMES[c], *CELL_XY[i]) if i != ORIGIN else None for i in range(SIDE * SIDE))
    for c in range(50))

_INTERNED: dict[Action, Action] = {PASS: PASS, SWAP_ALL: SWAP_ALL, FLIP: FLIP}
for _row in SWAPS + PLACES:
    for _a in _row:
        if _a is not None:
            _INTERNED[_a] = _a
ACTION_CLASSES = (Swap, Pass, SwapAllAndPass, Flip, Place)


def intern_action(action: Action) -> Action:
    """The canonical instance of ``action``; RecordError if no such action exists. A lookup
    only: the table holds every action of the game, built once above, and decoding (records,
    clients) never adds to it."""
    canonical = _INTERNED.get(action)
    if canonical is not None:
        return canonical
    fields = {k: getattr(action, k) for k in getattr(action, "__dataclass_fields__", {})}
    for key in ("give", "take", "card"):
        if key in fields and fields[key] not in CARD_IDS:
            raise RecordError(f"{action.kind}: unknown card {fields[key]!r}; a card is "
                              f"'<ingredient>:<colour>' or 'centum_auri'")
    if isinstance(action, Place):
        raise RecordError(f"place: no cell ({action.x},{action.y}); x and y run from -4 to 4, "
                          f"and (0,0) is the druid")
    raise RecordError(f"{action} does not exist (a swap needs two different cards)")
