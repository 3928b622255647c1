"""Checks of a state JSON or a view read back (files, the network): every field has its type,
size and range, and the parts agree with each other as the rules need them to (13 dice per
player, two copies of each tablet, a turn stack the rules can continue, herb layouts that are
whole once arranged...). Anything else raises :class:`RecordError` naming the field, so a state
that loads is a game that can be played on, never one that fails later.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from ...engine.checks import (a_list, boolean, distinct, event_head, fail, field, integer, keyed, name, names,
                              refuse)
from .board import REWARDS
from .components import DOLMEN_COLOURS, HERBS, HERBS_PER_PLAYER, HERB_STATES, POTIONS, TABLETS, TABLET_COPIES
from .events import EVENT_KINDS
from .steps import (ACTIVATE_HERB, ARRANGE_HERBS, BEGIN_PLAY, BREW_POTION, CHOOSE_START, COMPETITION, DOLMENS,
                    END_TURN, FIRE_PITS, FLIP_HERB, KEEP_TABLET, MOVE, PLACE_DIE, PLACE_RUNE_STONE,
                    PLACE_STANDING_STONE, PROVISIONS_OR_DICE, RAISE_DIE, RELEASED_HERBS, REPEAT_FIRE_REWARD,
                    REPEAT_STONE_REWARD, SANCTUARY_ACTION, TAKE_DIE, TAKE_GEM, TAKE_HERB, TAKE_TABLET)

BIG = 10 ** 6           # bound of counters that only grow (prestige, provisions, stamps)
DICE_PER_PLAYER = 13
_HERB_SET = frozenset(HERBS)
_REWARD_SET = frozenset(REWARDS)
FINAL_FIELDS = ("prestige", "leftovers", "sickle", "tablets", "amulet", "collected", "multiplier",
                "sanctuaries", "total")


# ----- the turn stack -------------------------------------------------------------------------------

def _step_ranges(n: int, board) -> dict[int, tuple[tuple[int, int], tuple[int, int]]]:
    """For each step, the allowed (low, high) of its two parameters."""
    zero = (0, 0)
    seat = (0, n - 1)
    return {
        CHOOSE_START: (seat, zero), KEEP_TABLET: (seat, zero), ARRANGE_HERBS: (zero, zero), MOVE: (zero, zero),
        PLACE_DIE: (zero, zero), PROVISIONS_OR_DICE: (zero, zero), TAKE_DIE: ((1, 3 * DICE_PER_PLAYER), zero),
        TAKE_TABLET: ((0, 2), zero), BREW_POTION: ((0, 9), zero), TAKE_GEM: ((-1, 2), (0, 12)),
        PLACE_STANDING_STONE: ((0, 1), zero), REPEAT_STONE_REWARD: ((0, 63), zero), PLACE_RUNE_STONE: ((0, 12), (0, 1)),
        REPEAT_FIRE_REWARD: ((0, len(board.pit_names) - 1), zero), RAISE_DIE: ((0, 3), (0, 1)),
        FLIP_HERB: (zero, zero), TAKE_HERB: ((0, 2), (0, 2)), ACTIVATE_HERB: ((0, len(board.herb_pairs_at) - 1), zero),
        COMPETITION: ((0, board.size - 1), zero), SANCTUARY_ACTION: ((0, board.size - 1), (0, n - 1)),
        FIRE_PITS: ((0, board.size - 1), zero), DOLMENS: (zero, zero), RELEASED_HERBS: (zero, zero),
        END_TURN: (zero, zero), BEGIN_PLAY: (zero, zero),
    }


def check_stack(stack: Any, n: int, board, over: bool) -> None:
    ranges = _step_ranges(n, board)
    stack = a_list(stack, "stack", 0, 64)
    for k, entry in enumerate(stack):
        path = f"stack[{k}]"
        entry = a_list(entry, path, 3, 3)
        kind = entry[0]
        if type(kind) is not int or kind not in ranges:
            fail(f"{path}[0]", "a step of the turn stack", kind)
        for j, (low, high) in enumerate(ranges[kind]):
            integer(entry[j + 1], f"{path}[{j + 1}]", low, high)
    if over:
        if stack:
            refuse("stack", "a finished game has no step left")
        return
    if not stack or stack[0][0] not in (END_TURN, BEGIN_PLAY):
        refuse("stack", "a game in progress has its turn's end (or the setup's) at the bottom")
    if any(e[0] in (END_TURN, BEGIN_PLAY) for e in stack[1:]):
        refuse("stack", "only the bottom step may end a turn or the setup")
    if stack[-1][0] >= COMPETITION:
        refuse("stack", "a decision must be on top (automatic steps run at once)")
    setup = stack[0][0] == BEGIN_PLAY
    if not setup and any(e[0] in (CHOOSE_START, KEEP_TABLET, ARRANGE_HERBS) for e in stack):
        refuse("stack", "setup decisions only during the setup")
    if setup and any(e[0] not in (CHOOSE_START, KEEP_TABLET, ARRANGE_HERBS) for e in stack[1:]):
        refuse("stack", "only setup decisions during the setup")


# ----- the table ----------------------------------------------------------------------------------

def check_board_of(pl: Any, p: int, board, n: int, hidden_herbs: bool) -> None:
    path = f"boards[{p}]"
    for key, high in (("provisions", BIG), ("mistletoe", BIG), ("prestige", BIG), ("knowledge_stack", BIG),
                      ("knowledge", board.knowledge_end), ("sickle", board.sickle_end),
                      ("placed", DICE_PER_PLAYER), ("pairs_released", len(board.herb_pairs_at)),
                      ("arranged", HERBS_PER_PLAYER), ("dolmens", len(board.ring)), ("beige_dolmens", 3)):
        integer(field(pl, key, path), f"{path}.{key}", 0, high)
    for key in ("figure", "start"):
        name(field(pl, key, path), f"{path}.{key}", board.index, none=True)
    dice = 0
    for key in ("reserve", "overview"):
        values = a_list(field(pl, key, path), f"{path}.{key}", 0, DICE_PER_PLAYER)
        for k, v in enumerate(values):
            integer(v, f"{path}.{key}[{k}]", 1, 6)
        dice += len(values)
    if dice + pl["placed"] > DICE_PER_PLAYER:
        refuse(path, f"more than {DICE_PER_PLAYER} dice")
    names(field(pl, "standing_stones", path), f"{path}.standing_stones", {REWARDS[r] for r in board.standing_row},
          0, 6, unique=True)
    names(field(pl, "rune_stones", path), f"{path}.rune_stones", {r.unit for r in board.rune_stones}, 0, 6,
          unique=True)
    herbs = a_list(field(pl, "herbs", path), f"{path}.herbs", HERBS_PER_PLAYER, HERBS_PER_PLAYER)
    laid = [name(h, f"{path}.herbs[{k}]", HERBS, none=True) for k, h in enumerate(herbs)]
    arranged = pl["arranged"]
    if hidden_herbs and all(h is None for h in laid):
        pass                                    # another seat's layout, face down (V3)
    elif laid[:arranged].count(None) or laid[arranged:].count(None) != HERBS_PER_PLAYER - arranged \
            or len(set(laid[:arranged])) != arranged:
        refuse(f"{path}.herbs", f"must hold {arranged} different herbs, then empty circles")
    states = keyed(field(pl, "herb_state", path), f"{path}.herb_state", _HERB_SET,
                   "an object giving the state of each of the 12 herbs")
    for h, s in states.items():
        name(s, f"{path}.herb_state.{h}", HERB_STATES)
    amulet = a_list(field(pl, "amulet", path), f"{path}.amulet", 6, 6)
    gems = [name(g, f"{path}.amulet[{k}]", REWARDS, none=True) for k, g in enumerate(amulet)]
    distinct([g for g in gems if g], f"{path}.amulet", "a gem type")
    names(field(pl, "tablets", path), f"{path}.tablets", TABLETS, 0, len(TABLETS) * TABLET_COPIES)
    names(field(pl, "potions", path), f"{path}.potions", POTIONS, 0, len(POTIONS), unique=True)


def check_table(data: Any, n: int, board, *, over: bool, view: bool) -> None:
    """The public table of a state JSON or of a view (``view``: hidden parts left out)."""
    check_stack(field(data, "stack"), n, board, over)
    integer(field(data, "start_player"), "start_player", 0, n - 1)
    boolean(field(data, "ending"), "ending")
    boolean(field(data, "die_this_round"), "die_this_round")
    integer(field(data, "quiet_rounds"), "quiet_rounds", 0, BIG)
    integer(field(data, "knowledge_counter"), "knowledge_counter", 0, BIG)
    integer(field(data, "links"), "links", 0, len(board.ring) // 2)
    integer(field(data, "closures"), "closures", 0, len(board.pit_names))
    boards = a_list(field(data, "boards"), "boards", n, n)
    arranging = any(e[0] == ARRANGE_HERBS for e in data["stack"])
    for p, pl in enumerate(boards):
        check_board_of(pl, p, board, n, hidden_herbs=view and arranging)
        if pl["arranged"] < HERBS_PER_PLAYER and not arranging:
            refuse(f"boards[{p}].arranged", "herbs are arranged only during the setup (V3)")
    owners: Counter[int] = Counter()
    for s, entry in enumerate(a_list(field(data, "sanctuaries"), "sanctuaries", board.size, board.size)):
        path = f"sanctuaries[{s}]"
        for i, die in enumerate(a_list(field(entry, "dice", path), f"{path}.dice", n, n)):
            if die is not None:
                die = a_list(die, f"{path}.dice[{i}]", 2, 2)
                owners[integer(die[0], f"{path}.dice[{i}][0]", 0, n - 1)] += 1
                integer(die[1], f"{path}.dice[{i}][1]", 1, 6)
        integer(field(entry, "standing_stones", path), f"{path}.standing_stones", 0, 6 * n)
        integer(field(entry, "rune_stones", path), f"{path}.rune_stones", 0, 6 * n)
    for p, pl in enumerate(boards):
        if owners[p] != pl["placed"]:
            refuse(f"boards[{p}].placed", f"{pl['placed']} dice placed but {owners[p]} on the board")
    pits = keyed(field(data, "fire_pits"), "fire_pits", frozenset(board.pit_names),
                 "an object giving the state of every fire pit of the board")
    for pit, owner in pits.items():
        integer(owner, f"fire_pits.{pit}", -1, n - 1)
    ring = names(field(data, "dolmen_ring"), "dolmen_ring", DOLMEN_COLOURS[:len(board.ring) // 2], 0,
                 len(board.ring))
    counts = Counter(ring)
    if len(ring) != len(board.ring) or any(c != 2 for c in counts.values()):
        refuse("dolmen_ring", "must give each colour to two dolmen slots of the ring")
    linked = keyed(field(data, "dolmen_owner"), "dolmen_owner", counts,
                   "an object saying for each dolmen colour who linked it (-1: nobody)")
    for colour, owner in linked.items():
        integer(owner, f"dolmen_owner.{colour}", -1, n - 1)
    names(field(data, "oracle_stones"), "oracle_stones", REWARDS, 6, 6)  # the hexagon's corners
    for k, t in enumerate(a_list(field(data, "oracle_slots"), "oracle_slots", 12, 12)):
        name(t, f"oracle_slots[{k}]", TABLETS, none=True)
    marks = a_list(field(data, "deck_marks"), "deck_marks", 0, len(TABLETS) * TABLET_COPIES)
    for k, m in enumerate(marks):
        integer(m, f"deck_marks[{k}]", -1, n - 1)
    integer(field(data, "draft_hand_size"), "draft_hand_size", 0, 3)
    left = keyed(field(data, "gems_left"), "gems_left", _REWARD_SET, "an object counting the gems left of each type")
    for g, count in left.items():
        integer(count, f"gems_left.{g}", 0, 4)
    check_final(field(data, "final"), n, over)
    _check_people(data, boards, n)


def check_final(final: Any, n: int, over: bool) -> None:
    if not over:
        if final is not None:
            refuse("final", "only a finished game has final scores")
        return
    for p, entry in enumerate(a_list(final, "final", n, n)):
        for key in FINAL_FIELDS:
            integer(field(entry, key, f"final[{p}]"), f"final[{p}].{key}", 0, BIG)
        names(field(entry, "tablets_met", f"final[{p}]"), f"final[{p}].tablets_met", TABLETS, 0, 30)


def _check_people(data: Mapping[str, Any], boards: list, n: int) -> None:
    """Where the druids are: all off the board during the setup; after it every player has a
    start space, and the player whose turn it is stands on a sanctuary."""
    stack = data["stack"]
    if not stack:
        return
    if stack[0][0] == BEGIN_PLAY:
        if any(pl["figure"] is not None for pl in boards):
            refuse("boards", "no druid is on the board during the setup")
    elif any(pl["start"] is None for pl in boards):
        refuse("boards", "after the setup every player has a start space")


def check_tablets(seen: list[str], hidden: int) -> None:
    """Two copies of each tablet: the ones seen plus ``hidden`` unseen (deck, hands)."""
    counts = Counter(seen)
    extra = [t for t, c in counts.items() if c > TABLET_COPIES]
    if extra:
        refuse("tablets", f"more than {TABLET_COPIES} copies of {', '.join(sorted(extra))}")
    if len(seen) + hidden != len(TABLETS) * TABLET_COPIES:
        refuse("tablets", f"the game has {len(TABLETS) * TABLET_COPIES} tablets, not {len(seen) + hidden}")


def seen_tablets(data: Mapping[str, Any]) -> list[str]:
    out = [t for t in data["oracle_slots"] if t is not None]
    for pl in data["boards"]:
        out += pl["tablets"]
    return out


# ----- the whole state and a view -----------------------------------------------------------------

def check_state(data: Any, n: int, board) -> None:
    over = boolean(field(data, "over"), "over")
    integer(field(data, "round"), "round", 1, BIG)
    integer(field(data, "player"), "player", 0, n - 1)
    seed = field(data, "seed")
    if seed is not None and type(seed) is not int:
        fail("seed", "an integer or null", seed)
    check_table(data, n, board, over=over, view=False)
    deck = names(field(data, "deck"), "deck", TABLETS, 0, 30)
    hand = names(field(data, "draft_hand"), "draft_hand", TABLETS, 0, 3)
    if len(deck) != len(data["deck_marks"]):
        refuse("deck_marks", "must mark each card of the deck")
    if len(hand) != data["draft_hand_size"]:
        refuse("draft_hand_size", "must count the draft hand")
    check_tablets(seen_tablets(data) + deck + hand, 0)
    for k, entry in enumerate(a_list(field(data, "history"), "history", 0, BIG)):
        integer(field(entry, "seat", f"history[{k}]"), f"history[{k}].seat", 0, n - 1)
        field(entry, "action", f"history[{k}]")
    events = field(data, "events")
    if events is not None:
        for k, e in enumerate(a_list(events, "events", 0, 10 * BIG)):
            check_event(e, n, f"events[{k}]")


def check_event(e: Any, n: int, path: str) -> None:
    event_head(e, path, n, EVENT_KINDS, (0, BIG), "a kind of Edora event")
    if not isinstance(e["fields"], dict):
        fail(f"{path}.fields", "an object", e["fields"])
    secret = e.get("secret")
    if secret is not None and not isinstance(secret, dict):
        fail(f"{path}.secret", "an object or null", secret)


def check_view(view: Any, n: int, board) -> None:
    over = boolean(field(view, "terminal"), "terminal")
    integer(field(view, "round"), "round", 1, BIG)
    seat = view.get("seat")
    check_table(view, n, board, over=over, view=True)
    size = integer(field(view, "deck_size"), "deck_size", 0, 30)
    if size != len(view["deck_marks"]):
        refuse("deck_marks", "must mark each card of the deck")
    known = a_list(field(view, "deck_known"), "deck_known", 0, 30)
    for k, entry in enumerate(known):
        entry = a_list(entry, f"deck_known[{k}]", 2, 2)
        position = integer(entry[0], f"deck_known[{k}][0]", 0, size - 1)
        name(entry[1], f"deck_known[{k}][1]", TABLETS)
        if seat is None or view["deck_marks"][position] != seat:
            refuse(f"deck_known[{k}]", "a seat knows only the cards it put under the deck")
    hand = view.get("draft_hand")
    if hand is not None:
        names(hand, "draft_hand", TABLETS, 0, 3)
        if len(hand) != view["draft_hand_size"]:
            refuse("draft_hand", "must hold draft_hand_size tablets")
    seen = seen_tablets(view) + [t for _, t in known] + list(hand or ())
    hidden = size - len(known) + (0 if hand is not None else view["draft_hand_size"])
    check_tablets(seen, hidden)
    acting = view["acting"]
    stack = view["stack"]
    if not over and stack[0][0] == END_TURN and (len(acting) != 1 or acting[0] not in range(n)):
        refuse("acting", "one seat acts during a turn")
