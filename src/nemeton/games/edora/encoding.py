"""The Druids of Edora at the RL edge: its action space, its observation tensor (from a
seat's view) and its facts. The slices and their meaning are listed in ``docs/rl.md``.

The board is data (ruling E3), so the action space and the tensor are per board: sanctuaries,
their spaces, fire pits, the dolmen ring and the amulet rows come from the options' board.
Seats are relative (the observer first). Counts and tracks are divided by a fixed scale so
that most values lie in [0, 1] (a few can exceed 1 in long games: prestige, provisions).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Mapping

import numpy as np

from ...engine.encoding import ActionSpace, GameEncoding, GameFacts, ObservationLayout
from . import actions as A
from . import decisions
from .actions import build_board_tables
from .board import REWARDS, RUNE_UNITS, board_from_text
from .components import DOLMEN_COLOURS, HERB_STATES, HERBS, POTIONS, TABLETS
from .options import EdoraOptions
from .state_json import options_of
from .steps import STEP_NAMES, W_BEGIN, W_COMPETE

_STEPS = sorted(STEP_NAMES) + list(range(W_COMPETE, W_BEGIN + 1))   # decisions, then automatic steps
_STEP_INDEX = {k: i for i, k in enumerate(_STEPS)}
_REWARD = {r: i for i, r in enumerate(REWARDS)}
_RUNE = {u: i for i, u in enumerate(RUNE_UNITS)}
_HERB = {h: i for i, h in enumerate(HERBS)}
_HERB_STATE = {s: i for i, s in enumerate(HERB_STATES)}
_TABLET = {t: i for i, t in enumerate(TABLETS)}
_POTION = {p: i for i, p in enumerate(POTIONS)}
_COLOUR = {c: i for i, c in enumerate(DOLMEN_COLOURS)}
_FLAGS = ("revisit_sanctuaries", "tablet_draft", "shared_herbs", "arranged_herbs", "shared_dice", "safety_valve")
MAX_ROUNDS = 40          # the safety valve's limit (E4); rounds are divided by it
# one player's board: (name, size, meaning); the scalars first, each divided by its scale
_SCALARS = (("provisions", 30.0), ("mistletoe", 10.0), ("prestige", 100.0), ("knowledge", 14.0),
            ("sickle", 18.0), ("placed", 13.0), ("pairs_released", 6.0), ("arranged", 12.0),
            ("dolmens", 6.0), ("beige_dolmens", 3.0))
_H = len(HERBS)
_PLAYER_PARTS = (
    ("scalars", len(_SCALARS) + 1, "provisions / 30, mistletoe / 10, prestige / 100, knowledge / 14, sickle / 18, "
                                   "dice placed / 13, herb pairs released / 6, herbs arranged / 12, dolmens / 6, "
                                   "beige dolmens / 3, knowledge-stack position / knowledge counter (ties on the track)"),
    ("reserve", 6, "reserve dice of each value 1..6 / 4"),
    ("overview", 6, "overview-board dice of each value 1..6 / 9"),
    ("standing_stones", 6, "1 per standing stone placed, by reward (VP, KNOW, FOOD, DIE, MIST, SICKLE)"),
    ("rune_stones", 6, "1 per rune stone placed, by unit (" + ", ".join(RUNE_UNITS) + ")"),
    ("amulet", 6 * 7, "per amulet slot: one-hot of its gem (the 6 rewards) or empty"),
    ("tablets", len(TABLETS), "copies of each tablet T1..T15 taken / 2"),
    ("potions", len(POTIONS), "1 per potion owned (P1a..P6c)"),
    ("herb_state", _H * 3, "per herb (H_FOOD..H_TABLET): one-hot on the board, active, inactive"),
    ("herbs", _H * (_H + 1), "per circle 1..12 of the sickle track: one-hot of its herb, or hidden (V3 layouts "
                             "face down)"),
)
_PLAYER_OFFSETS = {}
_size = 0
for _name, _n, _ in _PLAYER_PARTS:
    _PLAYER_OFFSETS[_name] = _size
    _size += _n
PLAYER_FEATURES = _size


def all_actions(options: EdoraOptions) -> list:
    """Every action of the options' board and variants: start spaces, moves (each
    destination at each cost a route can have), forest leaps, die placements (sanctuary,
    space of a game of this many players, die, value paid), dice raised to 6, gems (row,
    gem), then the board-independent ones (those of variants V1 and V3 only with them on)."""
    board = board_from_text(options.board)
    build_board_tables(board)
    t = board.tables
    n = options.players
    out = list(t["starts"].values())
    for d in range(board.size):
        out += [t["moves"][d][c] for c in sorted(t["move_costs"][d])]
    out += t["leaps"]
    for s in range(board.size):
        for i in range(min(len(board.spaces[s]), n)):
            out += [a for row in t["places"][s][i] for a in row if a is not None]
    for s in range(board.size):
        for i in range(min(len(board.spaces[s]), n)):
            out += [a for a in t["raise"][s][i] if a is not None]
    out += [a for row in t["gems"] for a in row]
    # the rules' own instances of the board-independent actions (ids are then found by identity)
    d = decisions
    out += [A.EMERGENCY, d.FOOD_PROVISIONS, d.FOOD_DICE, *d.TAKE_DIE[1:], *d.BREW, d.STOP_BREWING, d.STOP_RAISING,
            d.SKIP_STANDING, d.SKIP_RUNE, *d.STANDING, *d.RUNE.values(), *d.REPEAT, *d.FLIP, *d.TAKE_HERB,
            *(a for row in d.ACTIVATE for a in row if a.herb != a.other),
            *(a for row in d.TABLET_ACTIONS for a in row)]
    if options.arranged_herbs:
        out += [a for row in d.ARRANGE for a in row]
    if options.tablet_draft:
        out += d.KEEP
    return out


def options_from_view(view: Mapping[str, Any]) -> EdoraOptions:
    return options_of(view)


@lru_cache(maxsize=16)
def encoding_for(options: EdoraOptions) -> GameEncoding:
    n = options.players
    board = board_from_text(options.board)
    size, pits, ring = board.size, len(board.pit_names), len(board.ring)
    sanct = {name: s for s, name in enumerate(board.names)}
    spaces = [min(len(board.spaces[s]), n) for s in range(board.size)]
    space_base = [sum(spaces[:s]) for s in range(size)]
    layout = ObservationLayout()
    seats = "per seat, the observer first then the next seats in turn order"
    off = {
        "acting": layout.add("acting", n, f"1 for each seat that may act now ({seats})"),
        "scores": layout.add("scores", n, f"prestige (the public score) / 100 ({seats})", high=math.inf),
        "round": layout.add("round", 1, f"the round number / {MAX_ROUNDS}"),
        "options": layout.add("options", len(_FLAGS) + 1, "1 per rule switched on: " + ", ".join(_FLAGS)
                              + ", fire_pit_scoring=summary"),
        "start_player": layout.add("start_player", n, f"one-hot: the start player ({seats})"),
        "game_state": layout.add("game_state", 6, "ending (the last round is being played), quiet rounds / 3, a die "
                                                  "was placed this round, dolmens linked / 6, fire pits closed / "
                                                  "number of pits, terminal"),
        "decision": layout.add("decision", len(_STEPS) + n + 3,
                               "the step on top of the turn stack: one-hot of its kind (the 18 decisions, then the "
                               "7 automatic steps), one-hot of the seat it names (" + seats + "), its two numbers "
                               "/ 12 (-1 = none), the stack depth / 10", low=-1.0, high=math.inf),
        "players": layout.add("players", (n, PLAYER_FEATURES),
                              f"each seat's board ({seats}); per seat: " + "; ".join(
                                  f"{name} ({k}): {meaning}" for name, k, meaning in _PLAYER_PARTS), high=math.inf),
        "figures": layout.add("figures", (n, size), f"one-hot: the sanctuary where each seat's druid stands ({seats})"),
        "start_spaces": layout.add("start_spaces", (n, size), f"one-hot: each seat's start sanctuary ({seats})"),
        "dice": layout.add("dice", (sum(spaces), n + 1),
                           f"per sanctuary space (sanctuaries in board order, each with its first min(spaces, "
                           f"players) spaces): one-hot of the owner of the die there ({seats}), then its value / 6"),
        "stones_at": layout.add("stones_at", (size, 2), "per sanctuary: standing stones / 3 and rune stones / 3 placed there"),
        "fire_pits": layout.add("fire_pits", (pits, n + 1), f"per fire pit: one-hot of who closed it ({seats}), or open"),
        "dolmen_ring": layout.add("dolmen_ring", (ring, len(DOLMEN_COLOURS)), "per dolmen slot of the ring: one-hot colour"),
        "dolmen_owner": layout.add("dolmen_owner", (len(DOLMEN_COLOURS), n + 1),
                                   f"per dolmen colour A..F: one-hot of its owner ({seats}), or none"),
        "oracle_stones": layout.add("oracle_stones", (len(REWARDS), len(REWARDS)),
                                    "per corner of the oracle hexagon: one-hot of its reward stone"),
        "oracle_slots": layout.add("oracle_slots", (12, len(TABLETS) + 1),
                                   "per face-up tablet slot: one-hot of its tablet, or empty"),
        "deck": layout.add("deck", 2, "tablets in the deck / 30, tablets in the draft hand / 3"),
        "deck_known": layout.add("deck_known", len(TABLETS), "copies of each tablet the observer put under the "
                                                             "deck (V1) and knows there / 2"),
        "draft_hand": layout.add("draft_hand", len(TABLETS), "copies of each tablet in the observer's draft hand (V1) / 2"),
        "gems_left": layout.add("gems_left", len(REWARDS), "gems of each reward left / 4"),
        "potions_left": layout.add("potions_left", len(POTIONS), "1 per potion still available"),
    }
    flags = [off["options"] + k for k, f in enumerate(_FLAGS) if getattr(options, f)]
    if options.fire_pit_scoring == "summary":
        flags.append(off["options"] + len(_FLAGS))
    scale_offsets = [(key, off["players"] + i) for i, (key, _) in enumerate(_SCALARS)]
    scales = [s for _, s in _SCALARS]
    knowledge_rank = len(_SCALARS)
    po = _PLAYER_OFFSETS
    length = MAX_ROUNDS * n * 4
    facts = GameFacts(players=n, teams=n, min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                      max_game_length=None, typical_game_length=length,
                      simultaneous=options.arranged_herbs)

    def encode(view: Mapping[str, Any], obs: np.ndarray) -> None:
        seat = view["seat"]
        me = 0 if seat is None else seat
        rel = [(s - me) % n for s in range(n)]
        order = [(me + k) % n for k in range(n)]
        ones = [off["acting"] + rel[s] for s in view["acting"]] + flags
        ones.append(off["start_player"] + rel[view["start_player"]])
        vals: dict[int, float] = {off["round"]: view["round"] / MAX_ROUNDS}
        scores = view["scores"]
        g = off["game_state"]
        if view["ending"]:
            ones.append(g)
        vals[g + 1] = view["quiet_rounds"] / 3
        if view["die_this_round"]:
            ones.append(g + 2)
        vals[g + 3] = view["links"] / 6
        vals[g + 4] = view["closures"] / pits
        if view["terminal"]:
            ones.append(g + 5)
        stack = view["stack"]
        d = off["decision"]
        if stack:
            kind, a, b = stack[-1]
            ones.append(d + _STEP_INDEX[kind])
            if 0 <= a < n and kind in (0, 1):   # the setup decisions name their seat
                ones.append(d + len(_STEPS) + rel[a])
            vals[d + len(_STEPS) + n] = a / 12
            vals[d + len(_STEPS) + n + 1] = b / 12
        vals[d + len(_STEPS) + n + 2] = len(stack) / 10
        counter = max(1, view["knowledge_counter"])
        boards = view["boards"]
        for k, s in enumerate(order):
            vals[off["scores"] + k] = scores[s] / 100
            pl = boards[s]
            base = off["players"] + k * PLAYER_FEATURES
            for (key, i), scale in zip(scale_offsets, scales):
                vals[i + k * PLAYER_FEATURES] = pl[key] / scale
            vals[base + knowledge_rank] = pl["knowledge_stack"] / counter
            for part, scale in (("reserve", 0.25), ("overview", 1 / 9)):
                o = base + po[part] - 1
                for v in pl[part]:
                    vals[o + v] = vals.get(o + v, 0.0) + scale
            ones += [base + po["standing_stones"] + _REWARD[r] for r in pl["standing_stones"]]
            ones += [base + po["rune_stones"] + _RUNE[u] for u in pl["rune_stones"]]
            o = base + po["amulet"]
            for j, gem in enumerate(pl["amulet"]):
                ones.append(o + 7 * j + (6 if gem is None else _REWARD[gem]))
            o = base + po["tablets"]
            for t in pl["tablets"]:
                vals[o + _TABLET[t]] = vals.get(o + _TABLET[t], 0.0) + 0.5
            ones += [base + po["potions"] + _POTION[p] for p in pl["potions"]]
            o = base + po["herb_state"]
            for h, state in pl["herb_state"].items():
                ones.append(o + 3 * _HERB[h] + _HERB_STATE[state])
            o = base + po["herbs"]
            for j, h in enumerate(pl["herbs"]):
                ones.append(o + (_H + 1) * j + (_H if h is None else _HERB[h]))
            if pl["figure"] is not None:
                ones.append(off["figures"] + k * size + sanct[pl["figure"]])
            if pl["start"] is not None:
                ones.append(off["start_spaces"] + k * size + sanct[pl["start"]])
        dice = off["dice"]
        stones = off["stones_at"]
        for s, entry in enumerate(view["sanctuaries"]):
            row = dice + (n + 1) * space_base[s]
            for i, die in enumerate(entry["dice"]):
                if die is not None:
                    ones.append(row + (n + 1) * i + rel[die[0]])
                    vals[row + (n + 1) * i + n] = die[1] / 6
            if entry["standing_stones"]:
                vals[stones + 2 * s] = entry["standing_stones"] / 3
            if entry["rune_stones"]:
                vals[stones + 2 * s + 1] = entry["rune_stones"] / 3
        o = off["fire_pits"]
        for j, closer in enumerate(view["fire_pits"].values()):
            ones.append(o + (n + 1) * j + (n if closer < 0 else rel[closer]))
        o = off["dolmen_ring"]
        ones += [o + 6 * j + _COLOUR[c] for j, c in enumerate(view["dolmen_ring"])]
        o = off["dolmen_owner"]
        for c, owner in view["dolmen_owner"].items():
            ones.append(o + (n + 1) * _COLOUR[c] + (n if owner < 0 else rel[owner]))
        o = off["oracle_stones"]
        ones += [o + 6 * j + _REWARD[r] for j, r in enumerate(view["oracle_stones"])]
        o = off["oracle_slots"]
        for j, t in enumerate(view["oracle_slots"]):
            ones.append(o + 16 * j + (15 if t is None else _TABLET[t]))
        vals[off["deck"]] = view["deck_size"] / 30
        vals[off["deck"] + 1] = view["draft_hand_size"] / 3
        o = off["deck_known"]
        for _, t in view["deck_known"]:
            vals[o + _TABLET[t]] = vals.get(o + _TABLET[t], 0.0) + 0.5
        o = off["draft_hand"]
        for t in view["draft_hand"] or ():
            vals[o + _TABLET[t]] = vals.get(o + _TABLET[t], 0.0) + 0.5
        o = off["gems_left"]
        for r, k in view["gems_left"].items():
            vals[o + _REWARD[r]] = k / 4
        ones += [off["potions_left"] + _POTION[p] for p in view["potions_left"]]
        obs[ones] = 1.0
        obs[list(vals)] = list(vals.values())

    return GameEncoding(options, ActionSpace(all_actions(options)), layout, facts, encode)


__all__ = ["all_actions", "encoding_for", "options_from_view", "PLAYER_FEATURES"]
