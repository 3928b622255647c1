"""Scoring a magic square (rulebook "Scoring", ruling A8).

A square is given as a *grid*: 25 cells row by row, top to bottom (cards of
:mod:`.cards`, ``DRUID``, ``CENTUM_AURI`` or ``EMPTY`` while a square is unfinished).

- Every row and every column is a potion line. The Centum auri (and an empty cell) splits a
  line. A *stretch* is a run of adjacent cards that all share the colour, or all share the
  ingredient; its strength is the number of *distinct* cards in it (an identical duplicate
  neither breaks nor strengthens it). A line scores the table value of its strongest stretch
  only: 1, 3, 6, 10, 15 for strength 1-5.
- The druid counts as one ingredient of one colour, the same for the whole square, chosen to
  maximise the potion points (a person may impose it instead).
- The Centum auri is worth 10; every card of the secret colour is worth 2 (the druid never).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .components import CENTUM_AURI, COLOUR_OF, DRUID, EMPTY, INGREDIENT_OF, card_name

POINTS = (0, 1, 3, 6, 10, 15)  # potion points by stretch strength
CENTUM_AURI_POINTS = 10
COLOUR_BONUS_POINTS = 2


def line_strength(line: Sequence[int]) -> int:
    """Strength of a line's strongest stretch (0..5). Empty cells, the Centum auri and an
    unassigned druid interrupt stretches."""
    best = 0
    prev_colour = prev_ingredient = -1
    colour_run = ingredient_run = 0  # bit sets of the distinct cards in the current stretches
    for card in line:
        if card < 0 or card >= CENTUM_AURI:
            prev_colour = prev_ingredient = -1
            continue
        bit = 1 << card
        colour = COLOUR_OF[card]
        ingredient = INGREDIENT_OF[card]
        if colour == prev_colour:
            colour_run |= bit
        else:
            prev_colour, colour_run = colour, bit
        if ingredient == prev_ingredient:
            ingredient_run |= bit
        else:
            prev_ingredient, ingredient_run = ingredient, bit
        n = colour_run.bit_count()
        m = ingredient_run.bit_count()
        if n > best:
            best = n
        if m > best:
            best = m
    return best


def strongest_potion(line: Sequence[int]) -> tuple[int, str | None, int]:
    """The line's strongest stretch as people name a potion: (strength, ``"ingredient"`` or
    ``"colour"``, the shared ingredient or colour); among equals the first reached along the
    line, by ingredient first. Below a strength of 2 nothing is shared: (strength, None, -1).
    The same strength as :func:`line_strength` (the same walk, remembering what the best
    stretch shares)."""
    best, by, shared = 0, None, -1
    prev_colour = prev_ingredient = -1
    colour_run = ingredient_run = 0
    for card in line:
        if card < 0 or card >= CENTUM_AURI:
            prev_colour = prev_ingredient = -1
            continue
        bit = 1 << card
        colour = COLOUR_OF[card]
        ingredient = INGREDIENT_OF[card]
        if colour == prev_colour:
            colour_run |= bit
        else:
            prev_colour, colour_run = colour, bit
        if ingredient == prev_ingredient:
            ingredient_run |= bit
        else:
            prev_ingredient, ingredient_run = ingredient, bit
        m = ingredient_run.bit_count()
        if m > best:
            best, by, shared = m, "ingredient", ingredient
        n = colour_run.bit_count()
        if n > best:
            best, by, shared = n, "colour", colour
    return (best, by, shared) if best >= 2 else (best, None, -1)


def line_points(line: Sequence[int]) -> int:
    return POINTS[line_strength(line)]


def rows_of(grid: Sequence[int]) -> list[list[int]]:
    return [list(grid[r * 5:r * 5 + 5]) for r in range(5)]


def columns_of(grid: Sequence[int]) -> list[list[int]]:
    return [list(grid[c::5]) for c in range(5)]


def _stretches_through(line: Sequence[int], pos: int) -> tuple[list[int], list[int]]:
    """For a druid at ``pos``: per colour and per ingredient, the bit set of the cards that a
    druid of that colour (ingredient) would join into one stretch with."""
    by_colour = [0] * 7
    by_ingredient = [0] * 7
    n = len(line)
    for step in (-1, 1):
        j = pos + step
        if not 0 <= j < n:
            continue
        first = line[j]
        if first < 0 or first >= CENTUM_AURI:
            continue
        colour, ingredient = COLOUR_OF[first], INGREDIENT_OF[first]
        k = j
        while 0 <= k < n and 0 <= line[k] < CENTUM_AURI and COLOUR_OF[line[k]] == colour:
            by_colour[colour] |= 1 << line[k]
            k += step
        k = j
        while 0 <= k < n and 0 <= line[k] < CENTUM_AURI and INGREDIENT_OF[line[k]] == ingredient:
            by_ingredient[ingredient] |= 1 << line[k]
            k += step
    return by_colour, by_ingredient


def best_druid(grid: Sequence[int]) -> int | None:
    """The druid value (a card 0..48) that maximises the potion points; the first in card
    order among equals. None if the grid has no druid.

    Only the druid's row and column depend on it: their stretches that avoid the druid are
    fixed, and the stretch through it depends only on the runs of its neighbours."""
    try:
        pos = list(grid).index(DRUID)
    except ValueError:
        return None
    r, c = divmod(pos, 5)
    return druid_lines(grid[r * 5:r * 5 + 5], c, grid[c::5], r)[0]


# CARDS_OF_COLOUR[c], CARDS_OF_INGREDIENT[i]: bit sets of the 49 coloured ingredient cards.
CARDS_OF_COLOUR = tuple(sum(1 << (i * 7 + c) for i in range(7)) for c in range(7))
CARDS_OF_INGREDIENT = tuple(sum(1 << (i * 7 + c) for c in range(7)) for i in range(7))
ALL_CARDS = (1 << 49) - 1
_BITS = tuple(tuple(b for b in range(7) if m >> b & 1) for m in range(128))


def _cards_in(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def druid_lines(row: Sequence[int], in_row: int, column: Sequence[int], in_column: int) -> tuple[int, int]:
    """(best druid value, potion points of the druid's row and column) for a druid at
    ``row[in_row]`` = ``column[in_column]`` (lines of any length, empty cells allowed); the
    first value in card order among equals.

    The 49 values fall into classes: a value sharing neither its colour nor its ingredient
    with a neighbouring stretch is a stretch of 1 in both lines (alone); one sharing only its
    colour c scores by c's stretches, one more card unless it is already in them; likewise
    for an ingredient; the few sharing both are tried one by one."""
    base_row = line_strength(row)        # the unassigned druid interrupts: stretches avoiding it
    base_column = line_strength(column)
    row_colour, row_ingredient = _stretches_through(row, in_row)
    col_colour, col_ingredient = _stretches_through(column, in_column)
    alone = POINTS[max(base_row, 1)] + POINTS[max(base_column, 1)]
    colours = ingredients = 0
    for c in range(7):
        if row_colour[c] | col_colour[c]:
            colours |= 1 << c
        if row_ingredient[c] | col_ingredient[c]:
            ingredients |= 1 << c
    if not colours:  # no neighbour card: every value is alone; the first is card 0
        return 0, alone
    no_colour = no_ingredient = ALL_CARDS  # values sharing no colour (no ingredient)
    for c in _BITS[colours]:
        no_colour &= ~CARDS_OF_COLOUR[c]
    for i in _BITS[ingredients]:
        no_ingredient &= ~CARDS_OF_INGREDIENT[i]
    best, best_points = 99, -1
    lone = no_colour & no_ingredient
    if lone:
        best, best_points = (lone & -lone).bit_length() - 1, alone
    # (stretch masks of the row, of the column, the values of the class): by colour, by ingredient
    classes = [(row_colour[c], col_colour[c], CARDS_OF_COLOUR[c] & no_ingredient) for c in _BITS[colours]]
    classes += [(row_ingredient[i], col_ingredient[i], CARDS_OF_INGREDIENT[i] & no_colour) for i in _BITS[ingredients]]
    for r, k, members in classes:
        if not members:
            continue
        inside = members & (r | k)
        fresh = members ^ inside
        if fresh:
            d = (fresh & -fresh).bit_length() - 1
            points = POINTS[max(base_row, r.bit_count() + 1)] + POINTS[max(base_column, k.bit_count() + 1)]
            if points > best_points or (points == best_points and d < best):
                best, best_points = d, points
        for d in _cards_in(inside):
            bit = 1 << d
            points = POINTS[max(base_row, (r | bit).bit_count())] + POINTS[max(base_column, (k | bit).bit_count())]
            if points > best_points or (points == best_points and d < best):
                best, best_points = d, points
    for c in _BITS[colours]:  # values sharing both their colour and their ingredient
        rc, cc = row_colour[c], col_colour[c]
        for i in _BITS[ingredients]:
            ri, ci = row_ingredient[i], col_ingredient[i]
            d = i * 7 + c
            bit = 1 << d
            points = (POINTS[max(base_row, (rc | bit).bit_count(), (ri | bit).bit_count())]
                      + POINTS[max(base_column, (cc | bit).bit_count(), (ci | bit).bit_count())])
            if points > best_points or (points == best_points and d < best):
                best, best_points = d, points
    return best, best_points


@dataclass(frozen=True)
class ScoreBreakdown:
    """Every part of a square's score (rows top to bottom, columns left to right)."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    potions: int
    centum_auri: int
    colour_bonus: int
    total: int
    druid: int | None  # the card the druid counted as

    def to_json(self) -> dict:
        return {"rows": list(self.rows), "columns": list(self.columns), "potions": self.potions,
                "centum_auri": self.centum_auri, "colour_bonus": self.colour_bonus,
                "total": self.total, "druid": None if self.druid is None else card_name(self.druid)}


def score_grid(grid: Sequence[int], secret_colour: int | None, druid: int | None = None) -> ScoreBreakdown:
    """The full score of a (possibly unfinished) square. ``druid``: the card the druid counts
    as; None = the best choice. ``secret_colour``: None = no colour bonus (unknown)."""
    if druid is None:
        druid = best_druid(grid)
    cells = [druid if x == DRUID else x for x in grid] if druid is not None else list(grid)
    rows = tuple(POINTS[line_strength(cells[r * 5:r * 5 + 5])] for r in range(5))
    columns = tuple(POINTS[line_strength(cells[c::5])] for c in range(5))
    potions = sum(rows) + sum(columns)
    centum = CENTUM_AURI_POINTS if CENTUM_AURI in grid else 0
    bonus = 0
    if secret_colour is not None:
        bonus = COLOUR_BONUS_POINTS * sum(1 for x in grid if 0 <= x < CENTUM_AURI and COLOUR_OF[x] == secret_colour)
    return ScoreBreakdown(rows, columns, potions, centum, bonus, potions + centum + bonus, druid)


__all__ = ["POINTS", "ScoreBreakdown", "best_druid", "columns_of", "druid_lines", "line_points", "line_strength",
           "rows_of", "score_grid", "strongest_potion", "EMPTY"]
