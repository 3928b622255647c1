"""The teacher (issue 28): hints during play and the analysis of a finished game.

Both judge a seat's decisions from that seat's view only: the search samples what the seat
could not see, never reads the hidden cards (docs/teacher.md).
"""

from __future__ import annotations

from .analysis import Analysis, analyse_record
from .hints import HintMove, hint, iterations_for

__all__ = ["Analysis", "HintMove", "analyse_record", "hint", "iterations_for"]
