"""The layout every game shares (docs/engine.md, "A game's folder"): one folder per game with
the same file list, each optional part named by its GameSpec, no private name imported across
a game's folder, and no part found by building a module name from a game's name."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

from nemeton.engine import list_games

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "nemeton"
TOY = ROOT / "tests" / "toygame"

# Every game has these modules (docs/engine.md lists what each holds).
GAME_FILES = ("__init__.py", "options.py", "components.py", "actions.py", "rules.py", "scoring.py", "events.py",
              "view.py", "infer.py", "render.py")
# The parts a game may have, each named by a field of its GameSpec: field -> module.
PARTS = {"encoding_module": "encoding", "heuristic": "heuristic", "signals": "signals", "fitted": "fitted",
         "companion": "companion", "kernel": "kernel"}
BUILT_IN = ("alarun", "amarok", "edora")


def game_folder(name: str) -> Path:
    return PACKAGE / "games" / name


@pytest.mark.parametrize("folder", [*(game_folder(g) for g in BUILT_IN), TOY], ids=[*BUILT_IN, "toygame"])
def test_every_game_folder_has_the_same_file_list(folder):
    missing = [f for f in GAME_FILES if not (folder / f).is_file()]
    assert missing == [], f"{folder.name} lacks {missing}"


def test_the_built_in_games_are_the_folders_under_games():
    assert sorted(spec.name for spec in list_games() if spec.name in BUILT_IN) == list(BUILT_IN)
    assert sorted(p.name for p in (PACKAGE / "games").iterdir() if (p / "__init__.py").is_file()) == list(BUILT_IN)


@pytest.mark.parametrize("name", BUILT_IN)
def test_each_part_file_is_named_by_the_gamespec_and_each_named_part_is_in_the_folder(name):
    spec = next(s for s in list_games() if s.name == name)
    package = f"nemeton.games.{name}"
    for field, module in PARTS.items():
        declared = getattr(spec, field)
        present = (game_folder(name) / f"{module}.py").is_file()
        assert (declared is not None) == present, f"{name}: {module}.py present={present}, GameSpec.{field}={declared}"
        if declared is not None:
            assert declared.module == f"{package}.{module}", f"{name}: GameSpec.{field} names {declared.module}"
            assert declared() is not None
    # every built-in game has the parts the rest of Nemeton needs
    assert spec.encoding_module and spec.heuristic and spec.signals and spec.kernel


@pytest.mark.parametrize("name", BUILT_IN)
def test_each_game_has_its_web_renderer_in_its_folder(name):
    spec = next(s for s in list_games() if s.name == name)
    assert Path(spec.web_dir) == game_folder(name) / "web"
    assert (Path(spec.web_dir) / "renderer.js").is_file() and (Path(spec.web_dir) / "style.css").is_file()


def _module_of(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path):
    """(line, imported module, imported name or None) of every import in ``path``, with
    relative imports made absolute."""
    module = _module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                yield node.lineno, base, alias.name


def _area(module: str) -> str:
    """A game's folder (``nemeton.games.alarun``) or a top-level part (``nemeton.engine``)."""
    parts = module.split(".")
    if parts[:2] == ["nemeton", "games"] and len(parts) > 2:
        return ".".join(parts[:3])
    return ".".join(parts[:2])


def _private(name: str | None) -> bool:
    return name is not None and name.startswith("_") and not name.startswith("__")


def _private_imports_across_a_games_folder(files):
    found = []
    for path in files:
        importer = _area(_module_of(path))
        for line, module, name in _imports(path):
            if not module.startswith("nemeton."):
                continue
            target = _area(module)
            crosses = target != importer and (target.startswith("nemeton.games.") or importer.startswith("nemeton.games."))
            private = _private(name) or any(_private(p) for p in module.split("."))
            if crosses and private:
                found.append(f"{path.relative_to(ROOT)}:{line}: {module}.{name or ''}")
    return found


def test_no_private_name_is_imported_across_a_games_folder():
    assert _private_imports_across_a_games_folder(sorted(PACKAGE.rglob("*.py"))) == []


def test_the_private_import_check_catches_one(tmp_path):
    bad = PACKAGE / "agents" / "_layout_probe.py"
    bad.write_text("from ..games.alarun.rules import _probe\nfrom ..games.amarok import rules\n", encoding="utf-8")
    try:
        assert _private_imports_across_a_games_folder([bad]) == ["src/nemeton/agents/_layout_probe.py:1: nemeton.games.alarun.rules._probe"]
    finally:
        bad.unlink()


def test_no_part_is_found_by_building_a_module_name_from_a_games_name():
    """``import_module`` with a computed name is the registry's alone (it imports the game
    packages), the parts' loader's (it imports what a GameSpec names) and the agent specs'
    (``mybots:Greedy`` imports the user's module ``mybots``, never a game's)."""
    allowed = {PACKAGE / "engine" / "registry.py", PACKAGE / "engine" / "parts.py", PACKAGE / "agents" / "base.py"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
                    and not (node.args and isinstance(node.args[0], ast.Constant))):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_the_toy_game_in_the_same_layout_plays_with_its_heuristic_and_signals():
    sys.path.insert(0, str(ROOT / "tests"))
    toygame = importlib.import_module("toygame")
    toygame.install()
    try:
        from nemeton.agents import make_agent
        from nemeton.arena.report import signals_for
        spec = toygame.SPEC
        state = spec.make(seed=3)
        agents = [make_agent("heuristic", spec, s, seed=s) for s in (0, 1)]
        while not state.is_terminal():
            seat = state.current_player
            state.apply(agents[seat].act(state.view(seat), state.legal_actions(seat)), seat)
        measured = signals_for("kuhn").extract(state.log(None), ["heuristic", "heuristic"])
        assert sum(measured["how games end (share of games)"].values()) == 1
    finally:
        toygame.uninstall()
