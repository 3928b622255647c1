"""`nemeton analyse RECORD` end to end, its cache, its errors, and the renamed balance report."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from nemeton.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def stored_game(tmp_path_factory):
    """A game `nemeton tournament --out` stored (with its record), and that record alone."""
    out = tmp_path_factory.mktemp("tournament")
    result = runner.invoke(app, ["tournament", "amarok", "--players", "3", "--agents", "heuristic,random",
                                 "--games", "1", "--workers", "1", "--seed", "4", "--out", str(out / "t")])
    assert result.exit_code == 0, result.output
    game = out / "t" / "games" / "000000.json"
    record = out / "record.json"
    record.write_text(json.dumps(json.loads(game.read_text())["record"]))
    return game, record


def test_analyse_prints_the_json_alone_on_stdout_and_caches_it(stored_game, own_cache):
    game, record = stored_game
    result = runner.invoke(app, ["analyse", str(record), "--iterations", "30", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    actions = json.loads(record.read_text())["actions"]
    assert data["format"] == "nemeton-analysis/1" and data["game"] == "amarok"
    assert [d["action"] for d in data["decisions"]] == [a["action"] for a in actions]
    assert data["budget"]["iterations"] == 30 and data["budget"]["seed"] == 2
    cached = list((own_cache / "nemeton").rglob("*.json"))
    assert len(cached) == 1 and json.loads(cached[0].read_text()) == data
    # the cached result is what a second run prints; the stored tournament game is read too
    again = runner.invoke(app, ["analyse", str(game), "--iterations", "30", "--seed", "2", "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout) == data
    cached[0].write_text(json.dumps({**data, "decisions": []}))  # a damaged cache is bypassed with --no-cache
    fresh = runner.invoke(app, ["analyse", str(record), "-i", "30", "-s", "2", "--json", "--no-cache"])
    assert json.loads(fresh.stdout) == data


def test_analyse_shows_the_seats_and_the_costly_moves_and_writes_out(stored_game, tmp_path, monkeypatch):
    from rich.console import Console

    import nemeton.cli.analyse as analyse
    monkeypatch.setattr(analyse, "console", Console(width=400))  # each comment on one line, to read it whole
    _, record = stored_game
    out = tmp_path / "analysis.json"
    result = runner.invoke(app, ["analyse", str(record), "--iterations", "30", "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert "Accuracy" in result.stdout and "?? blunders" in result.stdout and "Player 3" in result.stdout
    assert "never from the hidden cards" in result.stdout
    flagged = [d for d in data["decisions"] if d["class"]]
    if flagged:
        assert "The moves that cost most" in result.stdout
        from nemeton.i18n import format_percent as pct
        worst = max(flagged, key=lambda d: (d["loss"], -d["index"]))
        said = f"cost about {pct(worst['loss'])} win chance ({pct(worst['before'])} to {pct(worst['after'])})"
        assert said in result.stdout and f"{said}; " in result.stdout and "kept it." in result.stdout
    else:
        assert "No decision gave up" in result.stdout


@pytest.mark.parametrize("lang, words", [
    ("it", ("Giocatore 1", "Precisione", "Decisioni", "iterazioni ciascuna", "mai dalle carte nascoste")),
    ("es", ("Jugador 1", "Precisión", "Decisiones", "iteraciones cada una", "nunca a partir de las cartas ocultas")),
])
def test_analyse_speaks_the_terminals_language(stored_game, tmp_path, monkeypatch, lang, words):
    """The tables, the comments (the moves in the game's words) and the promise in Italian or
    Spanish, from `--lang` after the command or before it; the JSON is the same in every language."""
    from rich.console import Console

    import nemeton.cli.analyse as analyse
    monkeypatch.setattr(analyse, "console", Console(width=400))  # each comment on one line, to read it whole
    _, record = stored_game
    out = tmp_path / "analysis.json"
    result = runner.invoke(app, ["analyse", str(record), "--iterations", "30", "--out", str(out), "--lang", lang])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    for word in words:
        assert word in text, (word, text)
    for english in ("Accuracy", "blunders", "Player", "cost about", "kept it", "win chance", "never from"):
        assert english not in text, (english, text)
    data = json.loads(out.read_text())
    if any(d["class"] for d in data["decisions"]):
        assert ("di probabilità di vittoria persa" if lang == "it" else "de probabilidad de victoria perdida") in text
        assert ("Fiume" if lang == "it" else "Río") in text or ("Mazzo" if lang == "it" else "Mazo") in text \
            or ("mano di" if lang == "it" else "mano de") in text
    before = runner.invoke(app, ["--lang", lang, "analyse", str(record), "--iterations", "30", "--json"])
    english = runner.invoke(app, ["analyse", str(record), "--iterations", "30", "--json"])
    assert json.loads(before.stdout) == json.loads(english.stdout) == data


@pytest.mark.parametrize("content,message", [
    ("not json at all", "not JSON"),
    ('{"format": 1, "game": "chess"}', "needs the keys"),
    ('{"format": 1, "game": "nogame", "rules_version": 1, "options": {}, "seed": 1, "actions": []}', "nogame"),
    ('[1, 2, 3]', "JSON object"),
])
def test_a_bad_record_is_one_clear_line_and_exit_code_2(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = runner.invoke(app, ["analyse", str(path)])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_illegal_action_in_a_record_is_refused_before_any_search(stored_game, tmp_path):
    _, record = stored_game
    data = json.loads(record.read_text())
    data["actions"][3] = data["actions"][0]
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    result = runner.invoke(app, ["analyse", str(path), "--json"])
    assert result.exit_code == 2 and "cannot be replayed" in result.output and result.stdout.count("{") == 0


def test_analyze_is_a_hidden_alias_and_sends_a_game_name_to_report(stored_game):
    _, record = stored_game
    same = runner.invoke(app, ["analyze", str(record), "-i", "30", "--json"])
    assert same.exit_code == 0 and json.loads(same.stdout)["game"] == "amarok"
    old = runner.invoke(app, ["analyze", "alarun", "--players", "2", "--out", "r.html"])
    assert old.exit_code == 2 and "the balance report is now `nemeton report`" in old.output
    assert "analyze" not in runner.invoke(app, ["--help"]).output
