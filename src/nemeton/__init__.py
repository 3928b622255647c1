"""Nemeton: play, study and train AI for Alarún, Amarok and The Druids of Edora."""

from .engine import GameRecord, get_game, list_games, make

__version__ = "0.1.0"
__all__ = ["GameRecord", "get_game", "list_games", "make", "__version__"]
