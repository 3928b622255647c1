"""Agents: random, heuristic per game, information-set MCTS. See :mod:`nemeton.agents.base`."""

from ..engine.heuristic import GameHeuristic
from .base import Agent, AgentSpecError, get_heuristic, make_agent, parse_agent_spec

__all__ = ["Agent", "AgentSpecError", "GameHeuristic", "get_heuristic", "make_agent", "parse_agent_spec"]
