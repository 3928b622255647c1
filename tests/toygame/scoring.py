"""Who wins the pot, and how many chips."""

from __future__ import annotations

FOLDS = ([True, False], [False, True, False])  # the moves of a game that ends in a fold
ENDS = ([False, False], [True, True], [True, False], [False, True, True], [False, True, False])


def chips(moves: list[bool], cards: list[int]) -> list[int]:
    """Each seat's chips won once the game has ended (zero-sum)."""
    if moves == [True, False]:
        return [1, -1]
    if moves == [False, True, False]:
        return [-1, 1]
    stake = 2 if True in moves else 1
    return [stake, -stake] if cards[0] > cards[1] else [-stake, stake]
