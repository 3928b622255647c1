"""Agents: random, heuristic per game, information-set MCTS. See :mod:`nemeton.agents.base`."""

from .base import Agent, AgentSpecError, GameHeuristic, make_agent, parse_agent_spec, register_heuristic

__all__ = ["Agent", "AgentSpecError", "GameHeuristic", "make_agent", "parse_agent_spec",
           "register_heuristic"]
