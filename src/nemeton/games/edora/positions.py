"""Hand-built Edora positions from readable strings (tests, docs, debugging).

>>> st = fresh(players=2)                       # setup done, P0 to move, empty board
>>> put_dice(st, "S01:A4 S04:A3 S02:B5")        # owner letter + value, next free space
>>> set_player(st, 0, at="S05", provisions=10, reserve=[4, 2], herbs=["H_VP"])
>>> play(st, "move to S01 (cost 1)")           # actions by their readable text
"""

from __future__ import annotations

from typing import Iterable

from .board import REWARDS
from .components import ACTIVE, HERBS_PER_PLAYER, HERB_INDEX, INACTIVE, ON_BOARD, SPACE_STRIDE
from .rules import EdoraState
from .steps import END_TURN, MOVE, PLACE_DIE

LETTERS = "ABCD"


def fresh(players: int = 2, seed: int = 0, **options) -> EdoraState:
    """Setup done (start spaces chosen in order), every figure on its start sanctuary, no die
    placed, P0 (the start player) to move in round 1 with an ordinary (not first) turn; every
    player: 15 provisions, reserve [1,2,3,4], overview [1..6,1,2,3], all herbs on the track."""
    from ...engine.registry import get_game
    st = get_game("edora").make(players=players, seed=seed, **options)
    assert isinstance(st, EdoraState)
    while st.stack[-1][0] == 0:           # CHOOSE_START: take the first free start space
        st.apply(st.legal_actions()[0])
    st.start_player = 0
    n = st.n
    for p in range(n):
        st.knowledge_stack[p] = p
        st.figure[p] = st.start_at[p]
        set_player(st, p, provisions=15, reserve=[1, 2, 3, 4], overview=[1, 2, 3, 4, 5, 6, 1, 2, 3])
    st.knowledge_counter = n
    start_turn(st, 0)
    return st


def start_turn(st: EdoraState, p: int, place_at: str | None = None) -> None:
    """Make it p's normal turn (step 1: move or emergency); with ``place_at``, p has just
    arrived there for free and is at step 2 (place a die)."""
    st.player = p
    st.stack = [(END_TURN, 0, 0), (MOVE, 0, 0)]
    if place_at is not None:
        st.figure[p] = st.board.index[place_at]
        st.stack[-1] = (PLACE_DIE, 0, 0)


def set_player(st: EdoraState, p: int, *, at: str | None = None, provisions: int | None = None,
               mistletoe: int | None = None, prestige: int | None = None,
               knowledge: int | None = None, sickle: int | None = None,
               reserve: Iterable[int] | None = None, overview: Iterable[int] | None = None,
               herbs: Iterable[str] | None = None, inactive: Iterable[str] | None = None,
               placed: int | None = None) -> None:
    if at is not None:
        st.figure[p] = st.board.index[at]
    if provisions is not None:
        st.provisions[p] = provisions
    if mistletoe is not None:
        st.mistletoe[p] = mistletoe
    if prestige is not None:
        st.prestige[p] = prestige
    if knowledge is not None:
        st.knowledge[p] = knowledge
    if sickle is not None:
        st.sickle[p] = sickle
        st.pairs_released[p] = sum(1 for pos in st.board.herb_pairs_at if pos <= sickle)
    if reserve is not None:
        st.reserve[7 * p:7 * p + 7] = _counts(reserve)
    if overview is not None:
        st.overview[7 * p:7 * p + 7] = _counts(overview)
    for names, state in ((herbs, ACTIVE), (inactive, INACTIVE)):
        for h in names or ():
            st.herb_state[HERBS_PER_PLAYER * p + HERB_INDEX[h]] = state
    if placed is not None:
        st.placed[p] = placed


def layout_herbs(st: EdoraState, p: int, herbs: list[str]) -> None:
    """Lay p's 12 herbs in the circles in this order (pair k = circles 2k, 2k+1)."""
    st.herb_at[HERBS_PER_PLAYER * p:HERBS_PER_PLAYER * p + HERBS_PER_PLAYER] = [HERB_INDEX[h] for h in herbs]
    for h in range(HERBS_PER_PLAYER):
        st.herb_state[HERBS_PER_PLAYER * p + h] = ON_BOARD


def _counts(values: Iterable[int]) -> list[int]:
    c = [0] * 7
    for v in values:
        c[v] += 1
    return c


def put_dice(st: EdoraState, spec: str) -> None:
    """Place dice directly (no costs, no actions): ``"S01:A4 S02:B5"``."""
    for item in spec.split():
        name, die = item.split(":")
        s = st.board.index[name]
        p = LETTERS.index(die[0])
        v = int(die[1:])
        i = next(i for i in range(st.n) if st.owner[s * SPACE_STRIDE + i] < 0)
        st.owner[s * SPACE_STRIDE + i] = p
        st.value[s * SPACE_STRIDE + i] = v
        st.used[s] += 1
        st.die_mask[p] |= 1 << s
        st.placed[p] += 1


def put_stones(st: EdoraState, spec: str) -> None:
    """Stones already standing at sanctuaries: ``"S01:2"`` (counted as standing stones)."""
    for item in spec.split():
        name, count = item.split(":")
        st.standing_at[st.board.index[name]] += int(count)


def set_oracle(st: EdoraState, stones: list[str], slots: list[str | None] | None = None) -> None:
    from .components import TABLETS
    st.oracle_stones = [REWARDS.index(r) for r in stones]
    if slots is not None:
        st.oracle_slots = [-1 if t is None else TABLETS.index(t) for t in slots]


def legal_texts(st: EdoraState) -> list[str]:
    return [str(a) for a in st.legal_actions()]


def play(st: EdoraState, *texts: str) -> None:
    """Apply actions given by their readable text (each must be legal now)."""
    for text in texts:
        legal = st.legal_actions()
        match = [a for a in legal if str(a) == text]
        if not match:
            raise AssertionError(f"{text!r} is not legal now; legal: {[str(a) for a in legal]}")
        st.apply(match[0])
