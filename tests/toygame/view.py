"""What one seat sees: its own card and the moves; both cards at a showdown."""

from __future__ import annotations

from .scoring import FOLDS


def build_view(state, seat):
    showdown = state.is_terminal() and state.moves not in FOLDS
    return {"moves": list(state.moves),
            "my_card": None if seat is None else state.cards[seat],
            "cards": list(state.cards) if showdown else None}
