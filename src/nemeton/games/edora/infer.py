"""From a seat's view back to states: the determinizer, search's sampler and the legal
actions of a view.

A view (:mod:`.view`) is the whole table minus the deck order, other seats' V1 draft
hands and, while V3 arranging lasts, other seats' face-down herb layouts. The determinizer
fills those back in from the tablets and herbs the seat has not seen.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

from ...engine.errors import RecordError
from .board import board_from_text
from .checks import check_view
from .components import HERBS_PER_PLAYER, TABLET_COPIES, TABLETS
from .rules import EdoraState
from .state_json import load_state, options_of
from .steps import SETUP_DECISIONS


def _turn_player(view: Mapping[str, Any]) -> int:
    """Whose turn it is, from a view: the acting seat during a turn, the start player during
    setup (setup decisions name their own seat), the round's last player once the game is over."""
    start = view["start_player"]
    if view["terminal"]:
        return (start - 1) % view["players"]
    stack = view["stack"]
    if not stack or stack[-1][0] in SETUP_DECISIONS:
        return start
    return view["acting"][0]


def check(view: Mapping[str, Any]) -> None:
    """RecordError unless ``view`` is a well-formed, consistent Edora view (:mod:`.checks`)."""
    options = options_of(view)
    if view.get("players") != options.players:
        raise RecordError("the view's players and its options' players differ")
    check_view(view, options.players, board_from_text(options.board))


def _load_view(view: Mapping[str, Any], deck: list[int], hand: list[int], rng: random.Random):
    st = load_state(EdoraState, view, deck, hand, rng, view["round"], view["terminal"], _turn_player(view))
    st.check_playable()
    return st


def determinize(view: Mapping[str, Any], rng: random.Random):
    """A full state consistent with ``view``: the unseen tablets re-dealt to the unknown deck
    positions (and a hidden draft hand), other players' face-down herb layouts re-drawn."""
    check(view)
    seat = view.get("seat")
    size = view["deck_size"]
    known = {k: TABLETS.index(t) for k, t in view.get("deck_known", [])}
    hand_known = view.get("draft_hand")
    pool = [t for t in range(len(TABLETS)) for _ in range(TABLET_COPIES)]
    seen = [t for t in view["oracle_slots"] if t is not None]
    for board in view["boards"]:
        seen += board["tablets"]
    seen += [TABLETS[t] for t in known.values()]
    if hand_known:
        seen += hand_known
    for t in seen:
        pool.remove(TABLETS.index(t))
    rng.shuffle(pool)
    deck = [known[k] if k in known else pool.pop() for k in range(size)]
    hand = ([TABLETS.index(t) for t in hand_known] if hand_known is not None
            else [pool.pop() for _ in range(view["draft_hand_size"])])
    st = _load_view(view, deck, hand, random.Random(rng.getrandbits(64)))
    st.seed = None
    n = st.n
    for p in range(n):
        herbs = view["boards"][p]["herbs"]
        if p != seat and herbs[0] is None and any(h is None for h in herbs):
            perm = list(range(HERBS_PER_PLAYER))
            rng.shuffle(perm)
            k = st.arranged[p]
            st.herb_at[HERBS_PER_PLAYER * p:HERBS_PER_PLAYER * (p + 1)] = perm[:k] + [-1] * (HERBS_PER_PLAYER - k)
    return st


def legal_actions_from_view(view: Mapping[str, Any]) -> list:
    check(view)
    deck = [0] * view["deck_size"]
    hand = [TABLETS.index(t) for t in view["draft_hand"]] if view.get("draft_hand") else \
        [0] * view["draft_hand_size"]
    st = _load_view(view, deck, hand, random.Random(0))
    seat = view.get("seat")
    return st.legal_actions(seat if seat is not None else st.current_player)


def prepare_sampler(view: Mapping[str, Any]):
    """Search's fast path: read ``view`` once, then each sample clones a template state and
    re-deals only what the seat cannot see (distributed like :func:`determinize`)."""
    seat = view.get("seat")
    size = view["deck_size"]
    known = {k for k, _ in view.get("deck_known", [])}
    unknown_positions = [k for k in range(size) if k not in known]
    hidden_hand = view.get("draft_hand") is None
    hand_size = view["draft_hand_size"]
    template = determinize(view, random.Random(0))
    # the tablets the seat cannot place: those now dealt to unknown positions and a hidden hand
    pool = [template.deck[k] for k in unknown_positions] + (list(template.draft_hand) if hidden_hand else [])
    redraw = [p for p in range(template.n)
              if p != seat and view["boards"][p]["herbs"][0] is None
              and any(h is None for h in view["boards"][p]["herbs"])]

    def sample(rng: random.Random):
        st = template.clone()
        cards = pool[:]
        rng.shuffle(cards)
        deck = st.deck
        for k in unknown_positions:
            deck[k] = cards.pop()
        if hidden_hand:
            st.draft_hand = [cards.pop() for _ in range(hand_size)]
        st.rng = random.Random(rng.getrandbits(64))
        st.seed = None
        for p in redraw:
            perm = list(range(HERBS_PER_PLAYER))
            rng.shuffle(perm)
            k = st.arranged[p]
            st.herb_at[HERBS_PER_PLAYER * p:HERBS_PER_PLAYER * (p + 1)] = perm[:k] + [-1] * (HERBS_PER_PLAYER - k)
        return st

    return sample
