"""Parts of a game that its :class:`~nemeton.engine.registry.GameSpec` names and that are
imported on first use: the RL encoding (it needs NumPy), the heuristic, the arena's signals,
a fitted evaluation, the scoring companion. A game declares each once, in its ``GameSpec``,
as ``part("nemeton.games.<g>.heuristic", "HEURISTIC")``; nothing looks a part up by the
game's name."""

from __future__ import annotations

import importlib
from typing import Any


class LazyPart:
    """``module`` (absolute) and, optionally, one of its attributes, imported at the first
    call and kept."""

    __slots__ = ("module", "attribute", "_value")

    def __init__(self, module: str, attribute: str | None = None):
        self.module = module
        self.attribute = attribute
        self._value: Any = None

    def __call__(self) -> Any:
        if self._value is None:
            value = importlib.import_module(self.module)
            if self.attribute is not None:
                value = getattr(value, self.attribute)
            self._value = value
        return self._value

    def __repr__(self) -> str:
        return f"part({self.module!r}{', ' + repr(self.attribute) if self.attribute else ''})"


def part(module: str, attribute: str | None = None) -> LazyPart:
    """A part of a game imported on first use (see the module's docstring)."""
    return LazyPart(module, attribute)
