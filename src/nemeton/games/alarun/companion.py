"""The scoring companion: score a finished square of the physical game, typed in by a person.

The input is JSON::

    {"square": [[5 cells] x 5 rows], "secret_colour": "red", "druid": "dragon_eggs:blue"}

Rows run top to bottom, cells left to right. A cell is ``"<ingredient>:<colour>"``,
``"druid"`` or ``"centum_auri"``. ``druid`` (what the druid counts as) is optional: omitted,
the best value is chosen. Every mistake raises :class:`InputError` naming the cell (``row 2,
column 4: unknown colour 'purple'; colours: ...``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ...engine import InputError
from ...engine.companion import Companion, ScoreSheet
from .components import CENTUM_AURI, COLOURS, COPIES, DRUID, INGREDIENTS, make_card, card_name, short_name
from .scoring import ScoreBreakdown, score_grid

KEYS = ("square", "secret_colour", "druid")
_CARD_FORM = "'<ingredient>:<colour>' (e.g. 'dragon_eggs:blue'), 'druid' or 'centum_auri'"


@dataclass(frozen=True)
class SquareToScore:
    grid: tuple[int, ...]       # 25 cells, row by row
    secret_colour: int
    druid: int | None           # None: choose the best

    def score(self) -> ScoreBreakdown:
        return score_grid(self.grid, self.secret_colour, self.druid)


def _ingredient_card(text: str, where: str) -> int:
    """An ingredient card from '<ingredient>:<colour>'."""
    ingredient, sep, colour = text.partition(":")
    if not sep:
        if where == "druid":
            raise InputError(f"druid: {text!r} is not an ingredient card; the druid counts as "
                             f"'<ingredient>:<colour>', e.g. 'dragon_eggs:blue'")
        raise InputError(f"{where}: {text!r} is not a card; a cell is {_CARD_FORM}")
    if ingredient not in INGREDIENTS:
        raise InputError(f"{where}: unknown ingredient {ingredient!r}; ingredients: {', '.join(INGREDIENTS)}")
    if colour not in COLOURS:
        raise InputError(f"{where}: unknown colour {colour!r}; colours: {', '.join(COLOURS)}")
    return make_card(INGREDIENTS.index(ingredient), COLOURS.index(colour))


def parse_cell(value: Any, where: str) -> int:
    if not isinstance(value, str):
        raise InputError(f"{where}: a cell is text, {_CARD_FORM}; got {json.dumps(value)}")
    text = value.strip().lower()
    if text == "druid":
        return DRUID
    if text == "centum_auri":
        return CENTUM_AURI
    return _ingredient_card(text, where)


def _parse_grid(square: Any) -> tuple[int, ...]:
    if not isinstance(square, list) or len(square) != 5:
        got = f"{len(square)} rows" if isinstance(square, list) else json.dumps(square)[:40]
        raise InputError(f"'square' must be a list of 5 rows of 5 cells (top to bottom); got {got}")
    cells: list[int] = []
    first_seen: dict[int, list[str]] = {}
    for r, row in enumerate(square, 1):
        if not isinstance(row, list) or len(row) != 5:
            got = f"{len(row)} cells" if isinstance(row, list) else json.dumps(row)[:40]
            raise InputError(f"row {r}: a row must be a list of 5 cells (left to right); got {got}")
        for c, value in enumerate(row, 1):
            where = f"row {r}, column {c}"
            card = parse_cell(value, where)
            seen = first_seen.setdefault(card, [])
            if card == DRUID and seen:
                raise InputError(f"{where}: a second druid (the first is at {seen[0]}); a square has exactly one")
            if card == CENTUM_AURI and seen:
                raise InputError(f"{where}: a second centum_auri (the first is at {seen[0]}); "
                                 f"the game has only one")
            if len(seen) >= COPIES:
                raise InputError(f"{where}: a third {card_name(card)} (also at {seen[0]} and {seen[1]}); "
                                 f"each ingredient card exists only {COPIES} times")
            seen.append(where)
            cells.append(card)
    if DRUID not in cells:
        raise InputError("the square has no druid; exactly one cell must be 'druid' (your druid apprentice)")
    return tuple(cells)


def parse_square(data: Any) -> SquareToScore:
    """Validate the decoded JSON of a square file."""
    if not isinstance(data, dict):
        raise InputError("the file must hold one JSON object: "
                         '{"square": [[5 cells] x 5 rows], "secret_colour": "red", "druid": "..." (optional)}')
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise InputError(f"unknown key {unknown[0]!r}; allowed keys: {', '.join(KEYS)}")
    if "square" not in data:
        raise InputError("missing 'square': 5 rows of 5 cells, top to bottom")
    grid = _parse_grid(data["square"])
    if "secret_colour" not in data or data["secret_colour"] is None:
        raise InputError(f"missing 'secret_colour' (your Alarún colour card); colours: {', '.join(COLOURS)}")
    colour = data["secret_colour"]
    if not isinstance(colour, str) or colour.strip().lower() not in COLOURS:
        raise InputError(f"secret_colour: unknown colour {json.dumps(colour)}; colours: {', '.join(COLOURS)}")
    druid = data.get("druid")
    if druid is not None:
        if not isinstance(druid, str):
            raise InputError(f"druid: expected '<ingredient>:<colour>'; got {json.dumps(druid)}")
        druid = _ingredient_card(druid.strip().lower(), "druid")
    return SquareToScore(grid, COLOURS.index(colour.strip().lower()), druid)


def parse_square_text(text: str) -> SquareToScore:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise InputError("not a square: the JSON is nested far too deep") from None
    except ValueError as exc:  # e.g. a number with thousands of digits
        raise InputError(f"not JSON that Nemeton reads: {str(exc)[:80]}") from None
    return parse_square(data)


def score_square_text(text: str) -> ScoreBreakdown:
    """Parse, validate and score a square file's text."""
    return parse_square_text(text).score()


def score_sheet(text: str, lang: str = "en") -> ScoreSheet:
    """The score sheet of a square typed in as JSON text (``nemeton alarun score``), its words
    in ``lang`` (alarun.companion.*; the cards' 4-letter codes and the JSON stay as they are)."""
    from ...i18n import msg, render
    from .events import card_message, colour_message

    def T(id: str, **args: Any) -> str:
        return render(msg(f"alarun.companion.{id}", **args), lang)

    square = parse_square_text(text)
    result = square.score()
    cells = list(square.grid)
    rows = tuple((T("row", n=r + 1), *[short_name(x) for x in cells[r * 5:r * 5 + 5]], str(result.rows[r]))
                 for r in range(5))
    rows += ((T("column_points"), *[str(p) for p in result.columns], ""),)
    druid = card_message(result.to_json()["druid"])
    lines = (T("druid_chosen" if square.druid is None else "druid_set", card=druid),
             T("potions", rows=sum(result.rows), columns=sum(result.columns), total=result.potions),
             T("centum_auri", points=result.centum_auri),
             T("colour_bonus", colour=colour_message(COLOURS[square.secret_colour]), points=result.colour_bonus))
    return ScoreSheet(title=T("title"),
                      columns=("", *[T("column", n=c + 1) for c in range(5)], T("row_points")), rows=rows, lines=lines,
                      total=T("total", points=result.total),
                      data={**result.to_json(), "secret_colour": COLOURS[square.secret_colour]})


COMPANION = Companion(
    summary="Score a finished 5x5 square: rows, columns, Centum auri, colour bonus, total.",
    input_help='JSON file ("-" = standard input): {"square": [[5 cells] x 5 rows], "secret_colour": "red", '
               '"druid": "dragon_eggs:blue" (optional)}. A cell is "<ingredient>:<colour>", "druid" or "centum_auri".',
    score=score_sheet)
