"""Plain-text rendering of an Edora view: a map with its paths, the board's fixed features, and
each player's boards, within 80 columns.

``render(view)`` fits a screen (80 columns, about 50 lines): the map (sanctuaries with the
dice, stones and druids on them, fire pits between them, paths drawn with ``- | / \\``, ``~``
a dark-forest crossing, ``#`` a stair crossing), then one line each for the start spaces,
the open fire pits and their rewards, the glades and portals and the lines of four (tablets
T3, T10, T12, T13 depend on them), the dolmens, the oracle site, and each player's boards.
Help that only matters for one decision (the free spaces of the sanctuaries within reach
when moving, tablet conditions, the effects of the herbs to choose from) is shown while that
decision is yours; a potion's effect is in its brew action.
``render(view, full=True)`` adds the key to the symbols, every sanctuary with its spaces and
who holds them, every fire pit with the sanctuaries around it, and each player's whole
sickle track.

Players are named by seat markers (:func:`~nemeton.engine.log.seat_ref`), rendered with the
players' names when ``names`` is given ("seat 1" otherwise); the letter after the name
(``Bob [B]``) is how their dice and figures appear on the map. Components use the names of the rulebook ("the forest-leap
herb", "3 prestige"); space codes (``FD``, ``KN2``, ``MI2P1``...) are spelled out in the key.

Every word comes from the game's catalogue (``edora.render.*`` and the game's terms, as the log
names them) in ``lang``: English, Italian or Spanish; codes (``S01``, ``T3``, ``VP``) as they are.
"""

from __future__ import annotations

import textwrap
from typing import Any, Mapping

from ...engine.log import Names, render_text, seat_ref
from ...i18n import msg, render as render_message
from .board import board_from_text
from .components import HERB_EFFECTS
from .public import RUNE_REWARD
from .steps import (ACTIVATE_HERB, ARRANGE_HERBS, CHOOSE_START, END_TURN, FLIP_HERB, KEEP_TABLET, MOVE,
                    STEP_NAMES, TAKE_DIE, TAKE_HERB, TAKE_TABLET)

LETTERS = "ABCD"
WIDTH = 80
CELL = 10          # map columns per grid step
MARGIN = 2



def _t(lang: str, id: str, **args: Any) -> str:
    """Message ``id`` in ``lang``, seats left as markers (rendered with the names at the end)."""
    return render_message(msg(id, **args), lang)


def seat_name(p: int) -> str:
    return f"{seat_ref(p)} [{LETTERS[p]}]"


def _short_herb(herb: str | None, lang: str = "en") -> str:
    return "?" if herb is None else _t(lang, f"edora.herb_short.{herb}") if herb in HERB_EFFECTS else herb


def _tablet(code: str, lang: str) -> str:
    return f"{code} {_t(lang, f'edora.tablet.{code}')}"


def _you(lang: str) -> str:
    return " " + _t(lang, "edora.render.you")


def _wrapped(title: str, items: list[str], joiner: str = " · ") -> list[str]:
    """``title`` and the items in lines of at most WIDTH columns, never breaking an item
    (unless it is longer than a line by itself); later lines are indented by two."""
    lines: list[str] = []
    line = title
    for k, item in enumerate(items):
        sep = "" if k == 0 else joiner
        room = WIDTH - (len(joiner.rstrip()) if k < len(items) - 1 else 0)
        if len(line) + len(sep) + len(item) <= room or not line.strip():
            line += sep + item
        else:
            lines.append(line + sep.rstrip())
            line = "  " + item
    lines.append(line)
    out = []
    for line in lines:
        out += textwrap.wrap(line, WIDTH, subsequent_indent="  ", break_on_hyphens=False) or [line]
    return out


def _decision(view: Mapping[str, Any]) -> int | None:
    """The kind of decision on top of the stack, or None when the game is over."""
    if view["terminal"] or not view["stack"]:
        return None
    return view["stack"][-1][0]


def is_emergency_turn(view: Mapping[str, Any]) -> bool:
    """An emergency turn waits only for its die: nothing is left of the turn below it."""
    stack = view["stack"]
    return (not view["terminal"] and len(stack) == 2 and stack[-1][0] == TAKE_DIE
            and stack[0][0] == END_TURN)


def winners(view: Mapping[str, Any]) -> list[int]:
    """The winners of a finished game from its view: the best score; on a tie the player
    behind on the knowledge track, then lower in the stack there (§5, Q15)."""
    boards = view["boards"]
    keys = [(view["scores"][p], -b["knowledge"], -b["knowledge_stack"]) for p, b in enumerate(boards)]
    best = max(keys)
    return [p for p, k in enumerate(keys) if k == best]


# ----- the map -----------------------------------------------------------------------------------

class _Canvas:
    def __init__(self, height: int, width: int):
        self.rows = [[" "] * width for _ in range(height)]

    def put(self, row: int, col: int, text: str) -> None:
        line = self.rows[row]
        for k, ch in enumerate(text):
            if 0 <= col + k < len(line):
                line[col + k] = ch

    def get(self, row: int, col: int) -> str:
        return self.rows[row][col]

    def lines(self) -> list[str]:
        return ["".join(r).rstrip() for r in self.rows]


def _col(x: int) -> int:
    return MARGIN + CELL * x


def _draw_path(cv: _Canvas, a: tuple[int, int], b: tuple[int, int], dark: int) -> None:
    (x1, y1), (x2, y2) = sorted((a, b), key=lambda p: (p[1], p[0]))
    if y1 == y2:                                   # horizontal, on the name line
        if x1 > x2:
            x1, x2 = x2, x1
        start, end = _col(x1) + 3, _col(x2) - 2
        while cv.get(3 * y1, start) != " ":       # after the name and figures
            start += 1
        start += 1
        for c in range(start, end + 1):
            cv.put(3 * y1, c, "-")
        if dark:
            cv.put(3 * y1, (start + end) // 2 - 2, "~")
    elif x1 == x2:                                 # vertical, through the cell between
        col = _col(x1) + 1
        mid = y1 + 1
        for row in (3 * y1 + 2, 3 * mid, 3 * mid + 1, 3 * mid + 2):
            if cv.get(row, col) == " ":
                cv.put(row, col, "|")
        if dark:
            cv.put(3 * mid + 1, col + 1, "~")
    else:                                          # diagonal, on the connector line
        left, right = sorted((x1, x2))
        col = (_col(left) + _col(right)) // 2 + 1
        cv.put(3 * y1 + 2, col, "\\" if x2 > x1 else "/")
        if dark:
            cv.put(3 * y1 + 2, col + 1, "~")


def _board_map(view: Mapping[str, Any], board) -> list[str]:
    figures: dict[str, str] = {}
    for p, pl in enumerate(view["boards"]):
        if pl["figure"]:
            figures[pl["figure"]] = figures.get(pl["figure"], "") + LETTERS[p]
    width = 1 + max(x for x, _ in board.xy + board.pit_xy)
    height = 1 + max(y for _, y in board.xy + board.pit_xy)
    cv = _Canvas(3 * height, MARGIN + CELL * width + 8)
    for s, entry in enumerate(view["sanctuaries"]):
        x, y = board.xy[s]
        name = entry["id"]
        cv.put(3 * y, _col(x), name + ("*" + figures[name] if name in figures else ""))
        dice = "".join(f"{d[1]}{LETTERS[d[0]]}" for d in entry["dice"] if d)
        stones = entry["standing_stones"] + entry["rune_stones"]
        cv.put(3 * y + 1, _col(x), (dice + (f"^{stones}" if stones else "")) or "-")
    for k, pit in enumerate(board.pit_names):
        x, y = board.pit_xy[k]
        owner = view["fire_pits"][pit]
        cv.put(3 * y + 1, _col(x) + 2, pit if owner < 0 else f"{pit}:{LETTERS[owner]}")
    stair_cells = set()
    for pair in board.stairs.values():
        (a, b), _ = pair
        (x1, y1), (x2, y2) = board.xy[board.index[a]], board.xy[board.index[b]]
        stair_cells.add(((x1 + x2) // 2, (y1 + y2) // 2))
    for a, b, dark in board.edges:
        _draw_path(cv, board.xy[a], board.xy[b], dark)
    for x, y in stair_cells:
        cv.put(3 * y, _col(x) + 1, "#")
    lines = cv.lines()
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


# ----- the board's fixed features ----------------------------------------------------------------

# Tablets whose condition depends on the start sanctuaries, the glades and portals, or the
# lines of four.
START_TABLETS = {"T2"}
GLADE_TABLETS = {"T10", "T12", "T13"}
LINE_TABLETS = {"T3"}


def _features(view: Mapping[str, Any], board, full: bool, lang: str) -> list[str]:
    # the start sanctuaries, glades and lines of four matter for tablets T2, T3, T10, T12, T13:
    # shown whenever such a tablet is in play for this viewer (held, offered, drawn), during
    # setup (start spaces), and always on the full map
    seat = view.get("seat")
    tablets = set(view["boards"][seat]["tablets"]) if seat is not None else set()
    if seat is not None and _decision(view) in (TAKE_TABLET, KEEP_TABLET) and seat in view["acting"]:
        tablets |= {t for t in view["oracle_slots"] if t} | set(view.get("draft_hand") or ())
    setup = any(pl["figure"] is None for pl in view["boards"])
    out = []
    if full or setup or tablets & START_TABLETS:
        starts = {pl["start"]: LETTERS[p] for p, pl in enumerate(view["boards"]) if pl["start"]}
        out += _wrapped(_t(lang, "edora.render.start_spaces") + " ", [f"{st}>{board.names[s]}" + (f" ({starts[board.names[s]]})"
                                                                       if board.names[s] in starts else "")
                                           for st, s in zip(board.start_names, board.start_sanctuary)])
    open_pits = [f"{pit} {'+'.join(_pit_rewards(board, k))}"
                 for k, pit in enumerate(board.pit_names) if view["fire_pits"][pit] < 0]
    out += _wrapped(_t(lang, "edora.render.open_pits") + " ", open_pits or [_t(lang, "edora.render.none")])
    if full or tablets & GLADE_TABLETS:
        glades = [f"{g}{'*' if board.portal[i] else ''} {' '.join(board.names[s] for s in board.glade_members[i])}"
                  for i, g in enumerate(board.glade_names)]
        out += _wrapped(_t(lang, "edora.render.glades") + " ", glades)
    if full or tablets & LINE_TABLETS:
        out += _wrapped(_t(lang, "edora.render.lines") + " ", ["-".join(board.names[s] for s in line) for line in board.lines_of_four])
    return out


def _pit_rewards(board, k: int) -> list[str]:
    from .board import REWARDS
    return [REWARDS[r] for r in board.pit_rewards[k]]


def _dolmens_and_oracle(view: Mapping[str, Any], board, lang: str) -> list[str]:
    ends: dict[str, list[str]] = {}
    for s, c in zip(board.ring, view["dolmen_ring"]):
        ends.setdefault(c, []).append(board.names[s])
    pairs = []
    for c in sorted(ends):
        owner = view["dolmen_owner"].get(c, -1)
        dolmen = f"{c.lower()} {'+'.join(ends[c])}"
        pairs.append(_t(lang, "edora.render.dolmen_linked", dolmen=dolmen, player=LETTERS[owner]) if owner >= 0 else dolmen)
    out = _wrapped(_t(lang, "edora.render.dolmens") + " ", pairs)
    sides = []
    stones = view["oracle_stones"]
    for side in range(6):
        tabs = " ".join(t or "--" for t in view["oracle_slots"][2 * side:2 * side + 2])
        sides.append(f"{side} {stones[side]}+{stones[(side + 1) % 6]} {tabs}")
    out += _wrapped(_t(lang, "edora.render.oracle") + " ", sides + [_t(lang, "edora.render.deck", count=view["deck_size"])])
    out += _wrapped(_t(lang, "edora.render.potions_left") + " ", view["potions_left"] or [_t(lang, "edora.render.none")], " ")
    return out


# ----- the players -------------------------------------------------------------------------------

def _player(view: Mapping[str, Any], board, p: int, pl: Mapping[str, Any], full: bool, lang: str) -> list[str]:
    you = view.get("seat") == p
    mult = board.knowledge_multiplier[pl["knowledge"]]
    herbs = pl["herb_state"]
    up = [_short_herb(h, lang) for h, s in herbs.items() if s == "active"]
    down = [_short_herb(h, lang) for h, s in herbs.items() if s == "inactive"]
    circles = pl["herbs"]
    pairs = []
    for k, pos in enumerate(board.herb_pairs_at):
        pair = [h for h in circles[2 * k:2 * k + 2] if h is None or herbs[h] == "board"]
        if pair:
            pairs.append(f"{pos}:{'+'.join(_short_herb(h, lang) for h in pair)}")
    track = pairs if full else pairs[:1]
    rows = [_t(lang, f"edora.row.{r}") if r in ("SUN", "MOON", "STAR") else r for r in board.amulet_rows]
    am = pl["amulet"]
    amulet = " ".join(f"{rows[r]}[{_gem(am[2 * r])},{_gem(am[2 * r + 1])}]" for r in range(3))
    stones = (pl["standing_stones"], [_t(lang, f"edora.reward.{RUNE_REWARD[s]}") for s in pl["rune_stones"]])
    placed = (_t(lang, "edora.render.stones", standing=" ".join(stones[0]) or "-", rune=" ".join(stones[1]) or "-")
              if any(stones) else "-")
    lines = [
        _t(lang, "edora.render.player.you" if you else "edora.render.player", seat=seat_name(p), prestige=pl["prestige"],
           provisions=pl["provisions"], mistletoe=pl["mistletoe"], tablets=" ".join(pl["tablets"]) or "-"),
        "  " + _t(lang, "edora.render.player.tracks", knowledge=pl["knowledge"], multiplier=mult, sickle=pl["sickle"],
                  reserve=" ".join(map(str, pl["reserve"])) or "-", overview=" ".join(map(str, pl["overview"])) or "-",
                  placed=pl["placed"]),
        "  " + _t(lang, "edora.render.player.herbs_full" if full else "edora.render.player.herbs", up=", ".join(up) or "-",
                  down=", ".join(down) or "-", track=" ".join(track) or "-", potions=" ".join(pl["potions"]) or "-"),
        "  " + _t(lang, "edora.render.player.amulet", amulet=amulet, stones=placed, dolmens=pl["dolmens"],
                  beige=pl["beige_dolmens"]),
    ]
    if you and pl["tablets"]:
        lines.append("  " + _t(lang, "edora.render.your_tablets") + " "
                     + "; ".join(_tablet(t, lang) for t in sorted(set(pl["tablets"]), key=_num)))
    out = []
    for line in lines:
        out += textwrap.wrap(line, WIDTH, subsequent_indent="    ", break_on_hyphens=False)
    return out


def _gem(code: str | None) -> str:
    return "-" if code is None else code


def _num(code: str) -> int:
    return int("".join(ch for ch in code if ch.isdigit()))


# ----- the whole map on request ------------------------------------------------------------------

def _full_listing(view: Mapping[str, Any], board, lang: str) -> list[str]:
    n = view["players"]
    out = _t(lang, "edora.render.key").split("\n")
    out.append(_t(lang, "edora.render.sanctuaries", count=n))
    for s, entry in enumerate(view["sanctuaries"]):
        spaces = []
        for i in range(n):
            die = entry["dice"][i]
            holder = f"={die[1]}{LETTERS[die[0]]}" if die else ""
            spaces.append(f"{board.spaces[s][i]}{holder}")
        glade = board.glade_names[board.glade_of[s]]
        stones = entry["standing_stones"] + entry["rune_stones"]
        extra = ", " + _t(lang, "edora.render.stones_count", count=stones) if stones else ""
        out += textwrap.wrap(f"  {entry['id']} ({glade}{'*' if board.portal[board.glade_of[s]] else ''}"
                             f"{extra}): {'  '.join(spaces)}", WIDTH, subsequent_indent="      ")
    out.append(_t(lang, "edora.render.pits"))
    for k, pit in enumerate(board.pit_names):
        owner = view["fire_pits"][pit]
        closed = " - " + _t(lang, "edora.render.pit_closed", seat=seat_name(owner)) if owner >= 0 else ""
        around = " ".join(board.names[s] for s in board.pit_around[k])
        out.append(f"  {pit} {around}: {' '.join(_pit_rewards(board, k))}{closed}")
    return out


# ----- help for the decision at hand -------------------------------------------------------------

def _decision_help(view: Mapping[str, Any], board, lang: str) -> list[str]:
    seat = view.get("seat")
    kind = _decision(view)
    if seat is None or seat not in view["acting"]:
        return []
    if kind in (TAKE_TABLET, KEEP_TABLET):
        shown = view.get("draft_hand") or [t for t in view["oracle_slots"] if t]
        return _wrapped(_t(lang, "edora.render.tablets") + " ", [_tablet(t, lang) for t in sorted(set(shown), key=_num)])
    if kind in (ACTIVATE_HERB, FLIP_HERB, TAKE_HERB, ARRANGE_HERBS):
        mine = view["boards"][seat]
        if kind == ACTIVATE_HERB:
            k = view["stack"][-1][1]
            herbs = mine["herbs"][2 * k:2 * k + 2]
        elif kind == ARRANGE_HERBS:
            herbs = [h for h in HERB_EFFECTS if h not in mine["herbs"]]
        else:
            wanted = "inactive" if kind == FLIP_HERB else "board"
            herbs = [h for h, state in mine["herb_state"].items() if state == wanted]
        return _wrapped(_t(lang, "edora.render.herbs") + " ",
                        [f"{_short_herb(h, lang)}: {_t(lang, f'edora.herb_effect.{h}')}" for h in herbs])
    if kind == MOVE:
        return _destinations(view, board, seat, lang)
    return []


def _destinations(view: Mapping[str, Any], board, seat: int, lang: str) -> list[str]:
    """The free spaces of every sanctuary the seat can walk to and still pay its cheapest die
    (the die herb aside), with the cost of the walk."""
    n = view["players"]
    me = view["boards"][seat]
    here = board.index[me["figure"]]
    cheapest = min(me["reserve"], default=None)
    if cheapest is None:
        return _wrapped("", [_t(lang, "edora.render.no_die")])
    budget = me["provisions"] - max(1, cheapest - (2 if me["herb_state"]["H_DIE"] == "active" else 0))
    free = []
    for s, e in enumerate(view["sanctuaries"]):
        cost = board.dist[here][s]
        if s == here or cost > budget:
            continue
        if any(d and d[0] == seat for d in e["dice"]) and not view["options"]["revisit_sanctuaries"]:
            continue
        codes = [board.spaces[s][i] for i in range(n) if e["dice"][i] is None]
        if codes:
            free.append(f"{e['id']}({cost}) {' '.join(codes)}")
    if not free:
        return _wrapped("", [_t(lang, "edora.render.no_reach")])
    return _wrapped(_t(lang, "edora.render.reach") + " ", free)


# ----- the whole screen --------------------------------------------------------------------------

def _header(view: Mapping[str, Any], lang: str) -> list[str]:
    sp = view["start_player"]
    n = view["players"]
    seat = view.get("seat")
    out = [_t(lang, "edora.render.header", round=view["round"], player=seat_name(sp))
           + (" " + _t(lang, "edora.render.last_round") if view["ending"] and not view["terminal"] else "")]
    if seat is not None:
        out[0] += " " + _t(lang, "edora.render.you_are", seat=seat_name(seat))
    kind = _decision(view)
    if kind is None:
        best = winners(view)
        score = view["scores"][best[0]]
        if len(best) == 1 and best[0] == seat:
            out.append(_t(lang, "edora.render.game_over.you", name=seat_name(seat), count=score))
        else:
            names = [seat_name(p) + (_you(lang) if p == seat else "") for p in best]
            out.append(_t(lang, "edora.render.game_over.many" if len(best) > 1 else "edora.render.game_over",
                          names=names[0] if len(names) == 1 else _and(names, lang), count=score))
        return out
    acting = ", ".join(seat_name(p) + (_you(lang) if p == seat else "") for p in view["acting"])
    if is_emergency_turn(view):
        out.append(_t(lang, "edora.render.emergency", acting=acting))
    else:
        step = msg(f"edora.step.{kind}") if kind in STEP_NAMES else ""
        out.append(_t(lang, "edora.render.to_act", acting=acting, step=step))
    if kind == CHOOSE_START:
        order = ", ".join(seat_name((sp - 1 - j) % n) for j in range(n))
        out.append(_t(lang, "edora.render.start_order", order=order))
    return [w for line in out for w in textwrap.wrap(line, WIDTH, subsequent_indent="  ")]


def _and(names: list[str], lang: str) -> str:
    """Players' names joined as the language lists them ("a, b and c")."""
    from ...i18n import format_list
    return format_list(names, lang)


def _final(view: Mapping[str, Any], lang: str) -> list[str]:
    out = [_t(lang, "edora.render.final")]
    for p, f in enumerate(view["final"]):
        out.append(f"  {seat_name(p)}: {f['prestige']} + {f['leftovers']} + {f['sickle']} + "
                   f"{f['tablets']} + {f['amulet']} + {f['sanctuaries']} "
                   f"({f['collected']} x{f['multiplier']}) = {f['total']}")
    return out


def render(view: Mapping[str, Any], full: bool = False, names: Names | None = None, *, lang: str = "en") -> str:
    """The screen for ``view`` in 80 columns: about 50 lines, or with ``full`` the key, every
    sanctuary's spaces, every fire pit and each player's whole sickle track as well. Players
    are named by ``names`` (a sequence or a callable seat -> name; "seat n" without it); the
    words are ``lang``'s (English, Italian or Spanish)."""
    board = board_from_text(view["options"].get("board"))
    out = _header(view, lang)
    out += _board_map(view, board)
    if full or not view["terminal"]:      # at the end only the map, the boards and the sums matter
        out += _features(view, board, full, lang)
        out += _dolmens_and_oracle(view, board, lang)
    if view.get("draft_hand"):
        out.append(_t(lang, "edora.render.drawn") + " " + " ".join(view["draft_hand"]))
    for p, pl in enumerate(view["boards"]):
        out += _player(view, board, p, pl, full, lang)
    if full:
        out += _full_listing(view, board, lang)
    out += _decision_help(view, board, lang)
    if view.get("final"):
        out += _final(view, lang)
    return _fit(render_text("\n".join(out), names, view["players"], lang))


def _fit(text: str) -> str:
    """Lines that names made longer than the screen wrapped again (indented under their start)."""
    out = []
    for line in text.split("\n"):
        if len(line) <= WIDTH:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        out += textwrap.wrap(line, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or [line]
    return "\n".join(out)
