"""Matches between agents (tournaments, ratings and statistics grow here)."""

from .match import MatchResult, SimulationSummary, play_match, simulate

__all__ = ["MatchResult", "SimulationSummary", "play_match", "simulate"]
