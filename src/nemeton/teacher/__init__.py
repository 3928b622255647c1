"""The teacher (issue 28): hints during play and the analysis of a finished game.

Both judge a seat's decisions from that seat's view only: the search samples what the seat
could not see, never reads the hidden cards (docs/teacher.md).
"""

from __future__ import annotations

from .hints import HintMove, hint, iterations_for

__all__ = ["HintMove", "hint", "iterations_for"]
