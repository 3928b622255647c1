"""Shared test parameters (a module of its own: every folder's conftest.py is named alike)."""

import pytest

from nemeton.engine import list_games


def game_configs():
    """(game, options) for every registered game, player count and extra variant."""
    out = []
    for spec in list_games():
        for cfg in spec.conformance_configs():
            label = spec.name + "-" + "-".join(f"{k}={v}" for k, v in cfg.items())
            out.append(pytest.param(spec.name, cfg, id=label))
    return out
