"""A player's magic square while it grows (rulebook "Round 1" / "Round 2-8", ruling A2).

The druid apprentice sits at the origin. A cell is named by its offset from the druid,
``(x, y)``: x grows to the right, y grows downwards (as the square lies in front of its
owner). Every offset lies in -4..4, so a cell is also an index into a 9x9 board,
``(y + 4) * 9 + (x + 4)``, and sets of cells are bit masks.

A new card must touch (orthogonally) the druid or a card already placed, and the occupied
cells must always fit in a 5x5 box. The box is connected, so while the square is not full
some empty cell of a 5x5 box around it touches an occupied one: a legal cell always exists,
and after 24 cards the square is exactly 5x5.
"""

from __future__ import annotations

from .components import DRUID, EMPTY

SIDE = 9
REACH = 4                      # offsets run from -REACH to +REACH
ORIGIN = REACH * SIDE + REACH  # the druid's cell index
BOX = 5                        # the finished square is BOX x BOX


def cell_index(x: int, y: int) -> int:
    return (y + REACH) * SIDE + (x + REACH)


CELL_XY: tuple[tuple[int, int], ...] = tuple((i % SIDE - REACH, i // SIDE - REACH) for i in range(SIDE * SIDE))


def _neighbours(i: int) -> int:
    x, y = CELL_XY[i]
    mask = 0
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if -REACH <= x + dx <= REACH and -REACH <= y + dy <= REACH:
            mask |= 1 << cell_index(x + dx, y + dy)
    return mask


NEIGHBOURS: tuple[int, ...] = tuple(_neighbours(i) for i in range(SIDE * SIDE))


def _span(lo: int, hi: int, axis: int) -> int:
    """Mask of the cells whose x (axis 0) or y (axis 1) lies in lo..hi."""
    return sum(1 << i for i in range(SIDE * SIDE) if lo <= CELL_XY[i][axis] <= hi)


# COLUMNS_BETWEEN[lo + 4][hi + 4]: the cells with lo <= x <= hi (ROWS_BETWEEN likewise for y).
COLUMNS_BETWEEN = tuple(tuple(_span(lo, hi, 0) for hi in range(-REACH, REACH + 1)) for lo in range(-REACH, REACH + 1))
ROWS_BETWEEN = tuple(tuple(_span(lo, hi, 1) for hi in range(-REACH, REACH + 1)) for lo in range(-REACH, REACH + 1))

_CELLS_OF_MASK: dict[int, tuple[int, ...]] = {}


def cells_of(mask: int) -> tuple[int, ...]:
    """The cell indices in ``mask``, ascending (memoised: squares repeat a lot)."""
    cells = _CELLS_OF_MASK.get(mask)
    if cells is None:
        out = []
        m = mask
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        cells = tuple(out)
        if len(_CELLS_OF_MASK) > 200_000:
            _CELLS_OF_MASK.clear()
        _CELLS_OF_MASK[mask] = cells
    return cells


class MagicSquare:
    """The cards of one square on the 9x9 board around the druid, with the cells where the
    next card may go (``open``) kept up to date."""

    __slots__ = ("cells", "occupied", "frontier", "open", "min_x", "max_x", "min_y", "max_y")

    def __init__(self) -> None:
        self.cells = [EMPTY] * (SIDE * SIDE)
        self.cells[ORIGIN] = DRUID
        self.occupied = 1 << ORIGIN
        self.frontier = NEIGHBOURS[ORIGIN]  # empty cells touching a card
        self.min_x = self.max_x = self.min_y = self.max_y = 0
        self.open = self.frontier           # frontier cells that keep the square within 5x5

    def place(self, card: int, cell: int) -> None:
        """Put ``card`` on ``cell`` (assumed open)."""
        self.cells[cell] = card
        occupied = self.occupied | (1 << cell)
        self.occupied = occupied
        self.frontier = (self.frontier | NEIGHBOURS[cell]) & ~occupied
        x, y = CELL_XY[cell]
        if x < self.min_x:
            self.min_x = x
        elif x > self.max_x:
            self.max_x = x
        if y < self.min_y:
            self.min_y = y
        elif y > self.max_y:
            self.max_y = y
        self.open = (self.frontier
                     & COLUMNS_BETWEEN[self.max_x - BOX + 1 + REACH][self.min_x + BOX - 1 + REACH]
                     & ROWS_BETWEEN[self.max_y - BOX + 1 + REACH][self.min_y + BOX - 1 + REACH])

    def open_cells(self) -> tuple[int, ...]:
        return cells_of(self.open)

    def is_open(self, x: int, y: int) -> bool:
        return -REACH <= x <= REACH and -REACH <= y <= REACH and bool(self.open >> cell_index(x, y) & 1)

    def card_at(self, x: int, y: int) -> int:
        return self.cells[cell_index(x, y)]

    def placed(self) -> list[tuple[int, int]]:
        """(cell, card) of every card placed (the druid excluded), by cell index."""
        return [(i, c) for i, c in enumerate(self.cells) if c != EMPTY and i != ORIGIN]

    def count(self) -> int:
        return self.occupied.bit_count()

    def grid(self) -> list[int]:
        """The 5x5 window from the top-left occupied corner, row by row (EMPTY where no card)."""
        cells = self.cells
        out = []
        for y in range(self.min_y, self.min_y + BOX):
            base = (y + REACH) * SIDE + REACH
            for x in range(self.min_x, self.min_x + BOX):
                out.append(cells[base + x])  # min_x, min_y <= 0: the window stays on the board
        return out

    def copy(self) -> "MagicSquare":
        twin = MagicSquare.__new__(MagicSquare)
        twin.cells = self.cells[:]
        twin.occupied = self.occupied
        twin.frontier = self.frontier
        twin.open = self.open
        twin.min_x, twin.max_x, twin.min_y, twin.max_y = self.min_x, self.max_x, self.min_y, self.max_y
        return twin

    @classmethod
    def from_cards(cls, placed: list[tuple[int, int]]) -> "MagicSquare":
        """A square holding these (cell, card) pairs (any order gives the same square)."""
        square = cls()
        for cell, card in placed:
            square.place(card, cell)
        return square
