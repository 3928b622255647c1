"""The terminal's drawing of a view."""

from .components import CARDS


def render(view):
    card = "?" if view["my_card"] is None else CARDS[view["my_card"]]
    return f"card {card} moves {view['moves']}"
