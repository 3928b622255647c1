"""Amarok at the RL edge: its action space, its observation tensor (from a seat's view) and
its facts. The slices and their meaning are listed in ``docs/rl.md``.

The deck is data (ruling K1), so the action space and the tensor are per deck: a card is its
index in the options' deck (``C`` cards; 22 in the standard deck). Seats are relative (the
observer first); in team mode the partner of position 0 is position ``players / 2``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping


from ...engine.encoding import ActionSpace, GameEncoding, GameFacts, ObservationLayout
from .actions import tables_for
from .components import CLAW, HEART, SEASON, TRAP, load_deck
from .options import AmarokOptions
from .rules import OBJECTIVE_NAMES
from .infer import cached_options

_PHASES = {"take": 0, "claw": 1, "over": 2}
_OBJECTIVES = {name: i for i, name in enumerate(OBJECTIVE_NAMES)}
_SYMBOL_FEATURE = {HEART: 1, CLAW: 2, SEASON: 3, TRAP: 4}
ROUND_SCALE = 10.0
_ROWS_KEPT = 20_000   # rows whose parts an encoding keeps (shared views have a few thousand)


def all_actions(options: AmarokOptions) -> list:
    """Take own slot 0/1, take each river card, take the deck's top, take each card seen in
    each seat's hand, take an unseen card of each seat, claw each card in front of each seat,
    claw each seat's hand slot, claw each river card, claw the deck's top (seats 0..players-1,
    cards in deck order)."""
    t = tables_for(load_deck(options.deck))
    seats = range(options.players)
    out = [*t.take_own, *t.take_river, t.take_deck]
    out += [a for p in seats for a in t.take_seen[p]]
    out += [t.take_unseen[p] for p in seats]
    out += [a for p in seats for a in t.claw_front[p]]
    out += [a for p in seats for a in t.claw_hand[p]]
    out += [*t.claw_river, t.claw_deck]
    return out


def options_from_view(view: Mapping[str, Any]) -> AmarokOptions:
    return cached_options(view["options"])


def length_hint(options: AmarokOptions) -> int:
    """More decisions than random play took in any of thousands of games (a scale for
    learners and OpenSpiel's max_game_length; the rules set no bound: a round where every
    seat is trapped advances nobody)."""
    return 20 * options.players * options.rounds_to_win


@lru_cache(maxsize=32)
def encoding_for(options: AmarokOptions) -> GameEncoding:
    n = options.players
    deck = load_deck(options.deck)
    size = len(deck)
    index = deck.index
    values = deck.values
    symbols = deck.symbols
    value_scale = float(max(1, max(abs(v) for v in values)) * 2)
    layout = ObservationLayout()
    seats = "per seat, the observer first then the next seats in turn order"
    hand_f = size + 3
    off = {
        "acting": layout.add("acting", n, f"1 for the seat to act ({seats})"),
        "phase": layout.add("phase", 3, "one-hot: take a card, choose a claw's target, game over"),
        "objective": layout.add("objective", 2, "one-hot: the objective card's side (wolf pack: highest "
                                                "total wins; lone wolf: lowest)"),
        "objective_holder": layout.add("objective_holder", n, f"one-hot: who holds the objective card ({seats})"),
        "round_wins": layout.add("round_wins", n, f"round wins / rounds_to_win ({seats}); they also say how each "
                                                  "seat holds its cards"),
        "round": layout.add("round", 1, "the round number / 10, at most 1"),
        "teams": layout.add("teams", 1, "1 in team mode (partners: positions k and k + players/2)"),
        "hands": layout.add("hands", (n, 2, hand_f),
                            f"each seat's two hand slots ({seats}): [slot holds a card, the card faces its owner, "
                            f"the card is hidden from the observer, then a one-hot over the {size} cards of the "
                            "deck when the observer sees it]"),
        "fronts": layout.add("fronts", (n, 2, size), f"the cards in front of each seat, in the order played, "
                                                     f"one-hot over the deck ({seats})"),
        "front_summary": layout.add("front_summary", (n, 5),
                                    f"per seat ({seats}): total of its cards in front / (2 x the largest |value|), "
                                    "and its hearts, claws, changes of season and wolf traps in front",
                                    low=-1.0, high=2.0),
        "river": layout.add("river", size, "1 for each card in the river"),
        "deck_size": layout.add("deck_size", 1, f"cards in the deck / {size}"),
        "deck_bottom": layout.add("deck_bottom", size, "1 for each card clawed to the bottom of the deck "
                                                       "(known to all until drawn)"),
    }
    t = n // 2 if options.teams else n
    facts = GameFacts(players=n, teams=t, min_utility=0.0, max_utility=1.0, utility_sum=n / t,
                      max_game_length=None, typical_game_length=length_hint(options))
    teams_flag = options.teams

    # Index tables per observer (seats relative to it) and per card, so the encoder turns each
    # part of a view into indices by lookups.
    tables = [_SeatTables(off, me, n, size, hand_f) for me in range(n)]
    river_at = {card: off["river"] + c for card, c in index.items()}
    bottom_at = {card: off["deck_bottom"] + c for card, c in index.items()}
    # per card id: (its index, its value, its front_summary feature or None)
    card_facts = {card: (c, values[c], _SYMBOL_FEATURE.get(symbols[c])) for card, c in index.items()}
    phase_at = {name: off["phase"] + i for name, i in _PHASES.items()}
    objective_at = {name: off["objective"] + i for name, i in _OBJECTIVES.items()}
    round_at, deck_size_at, teams_at = off["round"], off["deck_size"], off["teams"]

    # One part (engine.encoding.Parts): most of the observation changes between two of a
    # seat's observations. What a hand row or a front row gives at each position is kept by
    # the row's identity, for every observer at once: shared views hand out one list per
    # row content (view.py), so a row is read once per position, in any seat's view of any
    # game. The round wins are kept per observer by the identity of the scores list.
    def encode(view: Mapping[str, Any], parts) -> None:
        # rows are kept by identity only when the views are shared (never changed in place)
        parts.add("table", None, encode_table, view, parts.cache, parts.shared_views)

    def encode_hand(base: int, row: list) -> list[int]:
        ones = []
        for slot in row:
            if slot is not None:
                ones.append(base)
                if slot["facing"] == "owner":
                    ones.append(base + 1)
                card = slot["card"]
                ones.append(base + 2 if card is None else base + 3 + index[card])
            base += hand_f
        return ones

    def encode_front(base: int, summary: int, row: list) -> tuple[list[int], list[int], list[float]]:
        if not row:
            return [], [summary], [0.0]
        ones = []
        vals: dict[int, float] = {}
        total = 0
        for card in row:
            c, value, feature = card_facts[card]
            ones.append(base + c)
            base += size
            total += value
            if feature is not None:
                vals[summary + feature] = vals.get(summary + feature, 0.0) + 1.0
        vals[summary] = total / value_scale
        return ones, list(vals), list(vals.values())

    # id(row) -> [what the row gives at positions 0 .. n-1 (None until asked), the row]; the
    # row is held, so no other object takes its id while the entry lives
    hand_parts: dict[int, list] = {}
    front_parts: dict[int, list] = {}
    hand_base = tables[0].hands
    front_base, summary_base = tables[0].fronts, tables[0].summary

    def hand_part(row: list, k: int) -> list[int]:
        kept = hand_parts.get(id(row))
        if kept is None or kept[n] is not row:
            if len(hand_parts) > _ROWS_KEPT:   # fresh views' rows: a bound, not a leak
                hand_parts.clear()
            kept = hand_parts[id(row)] = [None] * n + [row]
        part = kept[k] = encode_hand(hand_base[k], row)
        return part

    def front_part(row: list, k: int) -> tuple[list[int], list[int], list[float]]:
        kept = front_parts.get(id(row))
        if kept is None or kept[n] is not row:
            if len(front_parts) > _ROWS_KEPT:
                front_parts.clear()
            kept = front_parts[id(row)] = [None] * n + [row]
        part = kept[k] = encode_front(front_base[k], summary_base[k], row)
        return part

    hand_get, front_get = hand_parts.get, front_parts.get

    def add_rows(order: list[int], hands: list, fronts: list, ones: list, idx: list, val: list) -> None:
        """Each seat's hand row and front row, read."""
        for k, s in enumerate(order):
            ones += encode_hand(hand_base[k], hands[s])
            part = encode_front(front_base[k], summary_base[k], fronts[s])
            ones += part[0]
            idx += part[1]
            val += part[2]

    def add_kept_rows(order: list[int], hands: list, fronts: list, ones: list, idx: list, val: list) -> None:
        """The same, each row read once per position (then kept by its identity)."""
        for k, s in enumerate(order):
            row = hands[s]
            kept = hand_get(id(row))
            part = kept[k] if kept is not None and kept[n] is row else None
            ones += hand_part(row, k) if part is None else part
            row = fronts[s]
            kept = front_get(id(row))
            part = kept[k] if kept is not None and kept[n] is row else None
            if part is None:
                part = front_part(row, k)
            ones += part[0]
            idx += part[1]
            val += part[2]

    def encode_table(view: Mapping[str, Any], cache: dict, keep_rows: bool) -> tuple[list[int], list[int], list[float]]:
        seat = view["seat"]
        t = tables[0 if seat is None else seat]
        ones = list(map(t.acting.__getitem__, view["acting"]))
        ones.append(phase_at[view["phase"]])
        ones.append(objective_at[view["objective"]])
        ones.append(t.objective_holder[view["objective_holder"]])
        if teams_flag:
            ones.append(teams_at)
        scores = view["scores"]
        kept = cache.get("round_wins")
        if kept is None or kept[0] is not scores or kept[1] is not t:
            target = view["rounds_to_win"]
            kept = cache["round_wins"] = (scores, t, [scores[s] / target for s in t.order])
        idx = [round_at, deck_size_at, *t.round_wins]
        val = [min(1.0, view["round"] / ROUND_SCALE), view["deck_size"] / size, *kept[2]]
        (add_kept_rows if keep_rows else add_rows)(t.order, view["hands"], view["fronts"], ones, idx, val)
        ones += map(river_at.__getitem__, view["river"])
        ones += map(bottom_at.__getitem__, view["deck_bottom"])
        return ones, idx, val

    return GameEncoding(options, ActionSpace(all_actions(options)), layout, facts, encode)


__all__ = ["all_actions", "encoding_for", "length_hint", "options_from_view"]


class _SeatTables:
    """Observation indices as seen from seat ``me``: ``order[k]`` is the absolute seat at
    position k; the other lists are indexed by absolute seat (``acting``,
    ``objective_holder``) or by position (the rest)."""

    def __init__(self, off: dict, me: int, n: int, size: int, hand_f: int):
        rel = [(s - me) % n for s in range(n)]
        self.order = [(me + k) % n for k in range(n)]
        self.acting = [off["acting"] + rel[s] for s in range(n)]
        self.objective_holder = [off["objective_holder"] + rel[s] for s in range(n)]
        self.round_wins = [off["round_wins"] + k for k in range(n)]
        self.hands = [off["hands"] + k * 2 * hand_f for k in range(n)]
        self.fronts = [off["fronts"] + k * 2 * size for k in range(n)]
        self.summary = [off["front_summary"] + 5 * k for k in range(n)]
