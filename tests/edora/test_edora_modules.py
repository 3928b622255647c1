"""The game's folder reads one way: no module imports a module that (indirectly) imports it."""

import ast
from pathlib import Path

import nemeton.games.edora as package


def _imports() -> dict[str, set[str]]:
    graph = {}
    for path in Path(package.__file__).parent.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                deps |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        graph[path.stem] = deps
    return graph


def test_the_modules_of_the_game_import_each_other_without_a_cycle():
    graph = _imports()
    assert graph["decisions"] and "rules" not in graph["decisions"]

    def reaches(start, target, seen=()):
        return any(d == target or (d not in seen and reaches(d, target, (*seen, d)))
                   for d in graph.get(start, ()))

    cycles = [m for m in graph if m != "__init__" and reaches(m, m)]
    assert cycles == []
