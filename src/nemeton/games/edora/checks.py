"""Checks of a state JSON or a view read back (files, the network): every field has its type,
size and range, and the parts agree with each other as the rules need them to (13 dice per
player, two copies of each tablet, a turn stack the rules can continue, herb layouts that are
whole once arranged...). Anything else raises :class:`RecordError` naming the field, so a state
that loads is a game that can be played on, never one that fails later.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from ...engine.errors import RecordError, snippet
from .board import REWARDS
from .components import (DOLMEN_COLOURS, HERB_STATES, HERBS, HERBS_PER_PLAYER, POTIONS, TABLET_COPIES,
                         TABLETS)
from .events import EVENT_KINDS
from .steps import (D_ARRANGE, D_BREW, D_DRAFT, D_FIRE_AGAIN, D_FLIP, D_FOOD, D_GEM, D_PLACE, D_RAISE,
                    D_RELEASE, D_RUNE, D_STAND_AGAIN, D_START, D_STONE, D_TABLET, D_TAKE_DIE, D_TAKE_HERB,
                    D_TURN, W_ACTION, W_BEGIN, W_COMPETE, W_DOLMEN, W_END_TURN, W_FIRE, W_HERBS)

BIG = 10 ** 6           # bound of counters that only grow (prestige, provisions, stamps)
DICE_PER_PLAYER = 13
FINAL_FIELDS = ("prestige", "leftovers", "sickle", "tablets", "amulet", "collected", "multiplier",
                "sanctuaries", "total")


def fail(path: str, message: str) -> None:
    raise RecordError(f"{path}: {message}")


def field(data: Any, key: str, path: str) -> Any:
    if not isinstance(data, dict):
        fail(path, f"must be a JSON object, got {snippet(data)}")
    if key not in data:
        fail(path, f"missing {key!r}")
    return data[key]


def integer(value: Any, low: int, high: int, path: str) -> int:
    if type(value) is not int or not low <= value <= high:
        fail(path, f"must be an integer from {low} to {high}, got {snippet(value)}")
    return value


def boolean(value: Any, path: str) -> bool:
    if type(value) is not bool:
        fail(path, f"must be true or false, got {snippet(value)}")
    return value


def items(value: Any, path: str, size: int | None = None, most: int = 10_000) -> list:
    if type(value) is not list or (size is not None and len(value) != size) or len(value) > most:
        want = f"{size} entries" if size is not None else f"at most {most} entries"
        fail(path, f"must be a list of {want}, got {snippet(value)}")
    return value


def name(value: Any, allowed, path: str, none: bool = False) -> Any:
    if value is None and none:
        return None
    if type(value) is not str or value not in allowed:
        fail(path, f"unknown {snippet(value)}")
    return value


def names(value: Any, allowed, path: str, most: int, distinct: bool = False) -> list:
    out = [name(v, allowed, f"{path}[{k}]") for k, v in enumerate(items(value, path, most=most))]
    if distinct and len(set(out)) != len(out):
        fail(path, "names one item twice")
    return out


# ----- the turn stack -------------------------------------------------------------------------------

def _step_ranges(n: int, board) -> dict[int, tuple[tuple[int, int], tuple[int, int]]]:
    """For each step, the allowed (low, high) of its two parameters."""
    zero = (0, 0)
    seat = (0, n - 1)
    return {
        D_START: (seat, zero), D_DRAFT: (seat, zero), D_ARRANGE: (zero, zero), D_TURN: (zero, zero),
        D_PLACE: (zero, zero), D_FOOD: (zero, zero), D_TAKE_DIE: ((1, 3 * DICE_PER_PLAYER), zero),
        D_TABLET: ((0, 2), zero), D_BREW: ((0, 9), zero), D_GEM: ((-1, 2), (0, 12)),
        D_STONE: ((0, 1), zero), D_STAND_AGAIN: ((0, 63), zero), D_RUNE: ((0, 12), (0, 1)),
        D_FIRE_AGAIN: ((0, len(board.pit_names) - 1), zero), D_RAISE: ((0, 3), (0, 1)),
        D_FLIP: (zero, zero), D_TAKE_HERB: ((0, 2), (0, 2)), D_RELEASE: ((0, len(board.herb_pairs_at) - 1), zero),
        W_COMPETE: ((0, board.size - 1), zero), W_ACTION: ((0, board.size - 1), (0, n - 1)),
        W_FIRE: ((0, board.size - 1), zero), W_DOLMEN: (zero, zero), W_HERBS: (zero, zero),
        W_END_TURN: (zero, zero), W_BEGIN: (zero, zero),
    }


def check_stack(stack: Any, n: int, board, over: bool) -> None:
    ranges = _step_ranges(n, board)
    stack = items(stack, "stack", most=64)
    for k, entry in enumerate(stack):
        path = f"stack[{k}]"
        entry = items(entry, path, size=3)
        kind = entry[0]
        if type(kind) is not int or kind not in ranges:
            fail(path, f"unknown step {snippet(kind)}")
        for j, (low, high) in enumerate(ranges[kind]):
            integer(entry[j + 1], low, high, f"{path}[{j + 1}]")
    if over:
        if stack:
            fail("stack", "a finished game has no step left")
        return
    if not stack or stack[0][0] not in (W_END_TURN, W_BEGIN):
        fail("stack", "a game in progress has its turn's end (or the setup's) at the bottom")
    if any(e[0] in (W_END_TURN, W_BEGIN) for e in stack[1:]):
        fail("stack", "only the bottom step may end a turn or the setup")
    if stack[-1][0] >= W_COMPETE:
        fail("stack", "a decision must be on top (automatic steps run at once)")
    setup = stack[0][0] == W_BEGIN
    if not setup and any(e[0] in (D_START, D_DRAFT, D_ARRANGE) for e in stack):
        fail("stack", "setup decisions only during the setup")
    if setup and any(e[0] not in (D_START, D_DRAFT, D_ARRANGE) for e in stack[1:]):
        fail("stack", "only setup decisions during the setup")


# ----- the table ----------------------------------------------------------------------------------

def check_board_of(pl: Any, p: int, board, n: int, hidden_herbs: bool) -> None:
    path = f"boards[{p}]"
    for key, high in (("provisions", BIG), ("mistletoe", BIG), ("prestige", BIG), ("knowledge_stack", BIG),
                      ("knowledge", board.knowledge_end), ("sickle", board.sickle_end),
                      ("placed", DICE_PER_PLAYER), ("pairs_released", len(board.herb_pairs_at)),
                      ("arranged", HERBS_PER_PLAYER), ("dolmens", len(board.ring)), ("beige_dolmens", 3)):
        integer(field(pl, key, path), 0, high, f"{path}.{key}")
    for key in ("figure", "start"):
        name(field(pl, key, path), board.index, f"{path}.{key}", none=True)
    dice = 0
    for key in ("reserve", "overview"):
        values = items(field(pl, key, path), f"{path}.{key}", most=DICE_PER_PLAYER)
        for k, v in enumerate(values):
            integer(v, 1, 6, f"{path}.{key}[{k}]")
        dice += len(values)
    if dice + pl["placed"] > DICE_PER_PLAYER:
        fail(path, f"more than {DICE_PER_PLAYER} dice")
    names(field(pl, "standing_stones", path), {REWARDS[r] for r in board.standing_row},
          f"{path}.standing_stones", 6, distinct=True)
    names(field(pl, "rune_stones", path), {r.unit for r in board.rune_stones}, f"{path}.rune_stones", 6,
          distinct=True)
    herbs = items(field(pl, "herbs", path), f"{path}.herbs", size=HERBS_PER_PLAYER)
    laid = [name(h, HERBS, f"{path}.herbs[{k}]", none=True) for k, h in enumerate(herbs)]
    arranged = pl["arranged"]
    if hidden_herbs and all(h is None for h in laid):
        pass                                    # another seat's layout, face down (V3)
    elif laid[:arranged].count(None) or laid[arranged:].count(None) != HERBS_PER_PLAYER - arranged \
            or len(set(laid[:arranged])) != arranged:
        fail(f"{path}.herbs", f"must hold {arranged} different herbs, then empty circles")
    states = field(pl, "herb_state", path)
    if not isinstance(states, dict) or set(states) != set(HERBS):
        fail(f"{path}.herb_state", "must give the state of each of the 12 herbs")
    for h, s in states.items():
        name(s, HERB_STATES, f"{path}.herb_state.{h}")
    amulet = items(field(pl, "amulet", path), f"{path}.amulet", size=6)
    gems = [name(g, REWARDS, f"{path}.amulet[{k}]", none=True) for k, g in enumerate(amulet)]
    if len({g for g in gems if g}) != sum(1 for g in gems if g):
        fail(f"{path}.amulet", "holds one gem type twice")
    names(field(pl, "tablets", path), TABLETS, f"{path}.tablets", len(TABLETS) * TABLET_COPIES)
    names(field(pl, "potions", path), POTIONS, f"{path}.potions", len(POTIONS), distinct=True)


def check_table(data: Any, n: int, board, *, over: bool, view: bool) -> None:
    """The public table of a state JSON or of a view (``view``: hidden parts left out)."""
    check_stack(field(data, "stack", "state"), n, board, over)
    integer(field(data, "start_player", "state"), 0, n - 1, "start_player")
    boolean(field(data, "ending", "state"), "ending")
    boolean(field(data, "die_this_round", "state"), "die_this_round")
    integer(field(data, "quiet_rounds", "state"), 0, BIG, "quiet_rounds")
    integer(field(data, "knowledge_counter", "state"), 0, BIG, "knowledge_counter")
    integer(field(data, "links", "state"), 0, len(board.ring) // 2, "links")
    integer(field(data, "closures", "state"), 0, len(board.pit_names), "closures")
    boards = items(field(data, "boards", "state"), "boards", size=n)
    arranging = any(e[0] == D_ARRANGE for e in data["stack"])
    for p, pl in enumerate(boards):
        check_board_of(pl, p, board, n, hidden_herbs=view and arranging)
        if pl["arranged"] < HERBS_PER_PLAYER and not arranging:
            fail(f"boards[{p}].arranged", "herbs are arranged only during the setup (V3)")
    owners = Counter()
    for s, entry in enumerate(items(field(data, "sanctuaries", "state"), "sanctuaries", size=board.size)):
        path = f"sanctuaries[{s}]"
        for i, die in enumerate(items(field(entry, "dice", path), f"{path}.dice", size=n)):
            if die is not None:
                die = items(die, f"{path}.dice[{i}]", size=2)
                owners[integer(die[0], 0, n - 1, f"{path}.dice[{i}][0]")] += 1
                integer(die[1], 1, 6, f"{path}.dice[{i}][1]")
        integer(field(entry, "standing_stones", path), 0, 6 * n, f"{path}.standing_stones")
        integer(field(entry, "rune_stones", path), 0, 6 * n, f"{path}.rune_stones")
    for p, pl in enumerate(boards):
        if owners[p] != pl["placed"]:
            fail(f"boards[{p}].placed", f"{pl['placed']} dice placed but {owners[p]} on the board")
    pits = field(data, "fire_pits", "state")
    if not isinstance(pits, dict) or set(pits) != set(board.pit_names):
        fail("fire_pits", "must give the state of every fire pit of the board")
    for pit, owner in pits.items():
        integer(owner, -1, n - 1, f"fire_pits.{pit}")
    ring = names(field(data, "dolmen_ring", "state"), DOLMEN_COLOURS[:len(board.ring) // 2], "dolmen_ring",
                 len(board.ring))
    counts = Counter(ring)
    if len(ring) != len(board.ring) or any(c != 2 for c in counts.values()):
        fail("dolmen_ring", "must give each colour to two dolmen slots of the ring")
    linked = field(data, "dolmen_owner", "state")
    if not isinstance(linked, dict) or set(linked) != set(counts):
        fail("dolmen_owner", "must say for each dolmen colour who linked it (-1: nobody)")
    for colour, owner in linked.items():
        integer(owner, -1, n - 1, f"dolmen_owner.{colour}")
    names(field(data, "oracle_stones", "state"), REWARDS, "oracle_stones", 6)
    if len(data["oracle_stones"]) != 6:
        fail("oracle_stones", "must list the 6 stones of the hexagon's corners")
    for k, t in enumerate(items(field(data, "oracle_slots", "state"), "oracle_slots", size=12)):
        name(t, TABLETS, f"oracle_slots[{k}]", none=True)
    marks = items(field(data, "deck_marks", "state"), "deck_marks", most=len(TABLETS) * TABLET_COPIES)
    for k, m in enumerate(marks):
        integer(m, -1, n - 1, f"deck_marks[{k}]")
    integer(field(data, "draft_hand_size", "state"), 0, 3, "draft_hand_size")
    left = field(data, "gems_left", "state")
    if not isinstance(left, dict) or set(left) != set(REWARDS):
        fail("gems_left", "must count the gems left of each type")
    for g, count in left.items():
        integer(count, 0, 4, f"gems_left.{g}")
    check_final(field(data, "final", "state"), n, over)
    _check_people(data, boards, n)


def check_final(final: Any, n: int, over: bool) -> None:
    if not over:
        if final is not None:
            fail("final", "only a finished game has final scores")
        return
    for p, entry in enumerate(items(final, "final", size=n)):
        for key in FINAL_FIELDS:
            integer(field(entry, key, f"final[{p}]"), 0, BIG, f"final[{p}].{key}")
        names(field(entry, "tablets_met", f"final[{p}]"), TABLETS, f"final[{p}].tablets_met", 30)


def _check_people(data: Mapping[str, Any], boards: list, n: int) -> None:
    """Where the druids are: all off the board during the setup; after it every player has a
    start space, and the player whose turn it is stands on a sanctuary."""
    stack = data["stack"]
    if not stack:
        return
    if stack[0][0] == W_BEGIN:
        if any(pl["figure"] is not None for pl in boards):
            fail("boards", "no druid is on the board during the setup")
    elif any(pl["start"] is None for pl in boards):
        fail("boards", "after the setup every player has a start space")


def check_tablets(seen: list[str], hidden: int) -> None:
    """Two copies of each tablet: the ones seen plus ``hidden`` unseen (deck, hands)."""
    counts = Counter(seen)
    extra = [t for t, c in counts.items() if c > TABLET_COPIES]
    if extra:
        fail("tablets", f"more than {TABLET_COPIES} copies of {', '.join(sorted(extra))}")
    if len(seen) + hidden != len(TABLETS) * TABLET_COPIES:
        fail("tablets", f"the game has {len(TABLETS) * TABLET_COPIES} tablets, not {len(seen) + hidden}")


def seen_tablets(data: Mapping[str, Any]) -> list[str]:
    out = [t for t in data["oracle_slots"] if t is not None]
    for pl in data["boards"]:
        out += pl["tablets"]
    return out


# ----- the whole state and a view -----------------------------------------------------------------

def check_state(data: Any, n: int, board) -> None:
    over = boolean(field(data, "over", "state"), "over")
    integer(field(data, "round", "state"), 1, BIG, "round")
    integer(field(data, "player", "state"), 0, n - 1, "player")
    seed = field(data, "seed", "state")
    if seed is not None and type(seed) is not int:
        fail("seed", f"must be an integer or null, got {snippet(seed)}")
    check_table(data, n, board, over=over, view=False)
    deck = names(field(data, "deck", "state"), TABLETS, "deck", 30)
    hand = names(field(data, "draft_hand", "state"), TABLETS, "draft_hand", 3)
    if len(deck) != len(data["deck_marks"]):
        fail("deck_marks", "must mark each card of the deck")
    if len(hand) != data["draft_hand_size"]:
        fail("draft_hand_size", "must count the draft hand")
    check_tablets(seen_tablets(data) + deck + hand, 0)
    for k, entry in enumerate(items(field(data, "history", "state"), "history", most=BIG)):
        integer(field(entry, "seat", f"history[{k}]"), 0, n - 1, f"history[{k}].seat")
        field(entry, "action", f"history[{k}]")
    events = field(data, "events", "state")
    if events is not None:
        for k, e in enumerate(items(events, "events", most=10 * BIG)):
            check_event(e, n, f"events[{k}]")


def check_event(e: Any, n: int, path: str) -> None:
    name(field(e, "kind", path), EVENT_KINDS, f"{path}.kind")
    seat = field(e, "seat", path)
    if seat is not None:
        integer(seat, 0, n - 1, f"{path}.seat")
    integer(field(e, "round", path), 0, BIG, f"{path}.round")
    if not isinstance(field(e, "fields", path), dict):
        fail(f"{path}.fields", "must be a JSON object")
    secret = e.get("secret")
    if secret is not None and not isinstance(secret, dict):
        fail(f"{path}.secret", "must be a JSON object or null")
    for k, s in enumerate(items(e.get("seen_by", []), f"{path}.seen_by", most=n)):
        integer(s, 0, n - 1, f"{path}.seen_by[{k}]")


def check_view(view: Any, n: int, board) -> None:
    over = boolean(field(view, "terminal", "view"), "terminal")
    integer(field(view, "round", "view"), 1, BIG, "round")
    seat = view.get("seat")
    check_table(view, n, board, over=over, view=True)
    size = integer(field(view, "deck_size", "view"), 0, 30, "deck_size")
    if size != len(view["deck_marks"]):
        fail("deck_marks", "must mark each card of the deck")
    known = items(field(view, "deck_known", "view"), "deck_known", most=30)
    for k, entry in enumerate(known):
        entry = items(entry, f"deck_known[{k}]", size=2)
        position = integer(entry[0], 0, size - 1, f"deck_known[{k}][0]")
        name(entry[1], TABLETS, f"deck_known[{k}][1]")
        if seat is None or view["deck_marks"][position] != seat:
            fail(f"deck_known[{k}]", "a seat knows only the cards it put under the deck")
    hand = view.get("draft_hand")
    if hand is not None:
        names(hand, TABLETS, "draft_hand", 3)
        if len(hand) != view["draft_hand_size"]:
            fail("draft_hand", "must hold draft_hand_size tablets")
    seen = seen_tablets(view) + [t for _, t in known] + list(hand or ())
    hidden = size - len(known) + (0 if hand is not None else view["draft_hand_size"])
    check_tablets(seen, hidden)
    acting = view["acting"]
    stack = view["stack"]
    if not over and stack[0][0] == W_END_TURN and (len(acting) != 1 or acting[0] not in range(n)):
        fail("acting", "one seat acts during a turn")
