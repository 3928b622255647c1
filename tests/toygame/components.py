"""The three cards, lowest first."""

CARDS = ("J", "Q", "K")
