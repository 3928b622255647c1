"""Who wins an Amarok round: each seat's total in front, the wolf traps, and the winners per
the objective card (ruling K7). A round won by mating (a second heart, ruling K4) needs no
totals; the game's winner is the first to ``rounds_to_win`` round wins (K8, in :mod:`.rules`)."""

from __future__ import annotations

from .components import TRAP, WOLF_PACK


def totals(state) -> list[int]:
    """Each seat's total in front (team mode: its team's four cards)."""
    values, front, counts = state.cards.values, state.front, state.front_count
    own = [sum(values[front[i]] for i in range(2 * p, 2 * p + counts[p])) for p in range(state.n)]
    if not state.teams:
        return own
    return [own[p] + own[state.partner(p)] for p in range(state.n)]


def trapped(state) -> list[bool]:
    """Whether each seat cannot win the round: a wolf trap in front of it (team mode: in
    front of either partner)."""
    symbols, front, counts = state.cards.symbols, state.front, state.front_count
    own = [any(symbols[front[i]] == TRAP for i in range(2 * p, 2 * p + counts[p]))
           for p in range(state.n)]
    if not state.teams:
        return own
    return [own[p] or own[state.partner(p)] for p in range(state.n)]


def round_winners(state) -> list[int]:
    """Ruling K7: untrapped players (teams) with the best total per the objective; every
    tied one wins; nobody if all are trapped."""
    t, caught = totals(state), trapped(state)
    free = [p for p in range(state.n) if not caught[p]]
    if not free:
        return []
    pick = max if state.objective == WOLF_PACK else min
    best = pick(t[p] for p in free)
    return [p for p in free if t[p] == best]
