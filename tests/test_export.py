"""``nemeton export``: records as training data, one row per decision, from the acting seat's
side only (interop/export.py)."""

from __future__ import annotations

import json
import random
import time

import pytest
from typer.testing import CliRunner

pytest.importorskip("numpy", reason="export needs the rl extra")

from nemeton.agents.base import make_agent  # noqa: E402
from nemeton.cli import app  # noqa: E402
from nemeton.engine import GameRecord, get_game  # noqa: E402
from nemeton.interop.export import ROW_KEYS, decision_row  # noqa: E402
from nemeton.table import Table  # noqa: E402

runner = CliRunner()
GAMES = [("alarun", 2, 1), ("amarok", 3, 2), ("edora", 2, 3)]


def played(game: str, players: int, seed: int) -> GameRecord:
    spec = get_game(game)
    state = spec.new_state(spec.options(**{**spec.bot_defaults, "players": players}), seed)
    result = Table(state, [make_agent("random", spec, s, seed + s) for s in range(players)]).run()
    assert result.record is not None
    return result.record


def export(tmp_path, *args: str) -> list[dict]:
    out = tmp_path / "rows.jsonl"
    result = runner.invoke(app, ["export", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text().splitlines()]


@pytest.fixture(scope="module")
def records():
    return {game: played(game, players, seed) for game, players, seed in GAMES}


@pytest.mark.parametrize("game", [g for g, _, _ in GAMES])
def test_one_row_per_decision_whose_mask_holds_the_choice_and_whose_return_is_the_result(tmp_path, records, game):
    record = records[game]
    path = tmp_path / "game.json"
    path.write_text(record.dumps())
    rows = export(tmp_path, str(path))
    final = record.replay()
    encoding = get_game(game).encoding(record.options)
    assert len(rows) == len(record.actions)
    for step, (row, (seat, action)) in enumerate(zip(rows, record.actions)):
        assert set(row) == set(ROW_KEYS) | {"observation"}
        assert (row["game"], row["name"], row["step"], row["seat"]) == ("game.json", game, step, seat)
        assert row["action"] == encoding.actions.id(action) and row["action"] in row["legal"]
        assert row["num_actions"] == len(encoding.actions) and len(row["observation"]) == encoding.observation_size
        assert row["return"] == final.returns()[seat]


def _rows_of_a_resampled_world(record: GameRecord, rows: list[dict], view_json: bool, every: int):
    """For every ``every``-th row: the true state at that decision, and a state the
    determinizer samples from the acting seat's view alone (the others' hidden cards drawn
    anew). Yields (row, true state, sampled state, seat, encoding)."""
    spec = get_game(record.game)
    encoding = spec.encoding(record.options)
    rng = random.Random(9)
    state = spec.new_state(spec.options(**record.options), record.seed)
    for step, (seat, action) in enumerate(record.actions):
        if step % every == 0:
            sample = spec.determinize(json.loads(json.dumps(state.view(seat))), rng)
            yield rows[step], state, sample, seat, encoding
        state.apply(action, seat)


def _hidden(state) -> str:
    """The whole table (the others' cards, the deck's order), without the seed, random stream and logs."""
    return json.dumps({k: v for k, v in state.to_json().items() if k not in ("seed", "rng", "events", "history")},
                      sort_keys=True)


@pytest.mark.parametrize("view_json", [False, True], ids=["observation", "view"])
@pytest.mark.parametrize("game", [g for g, _, _ in GAMES])
def test_a_row_is_the_same_in_every_world_the_seat_cannot_tell_apart(tmp_path, records, game, view_json):
    """The leak check: a row made from a state that differs from the true one only in what
    the acting seat cannot see (resampled by the determinizer from its view) is the exported
    row; and those worlds do differ (the others' cards, the deck's order), so a row built from
    hidden information would not match."""
    record = records[game]
    path = tmp_path / "game.json"
    path.write_text(record.dumps())
    rows = export(tmp_path, str(path), *(["--view-json"] if view_json else []))
    worlds_differ = 0
    for row, state, sample, seat, encoding in _rows_of_a_resampled_world(record, rows, view_json, every=3):
        mine = decision_row(sample, seat, encoding, view_json)
        assert {k: row[k] for k in mine} == mine, f"step {row['step']}: the row holds what seat {seat} cannot see"
        worlds_differ += _hidden(sample) != _hidden(state)
    assert worlds_differ > 0, "no resampled world differed from the true one: the check proved nothing"


def test_a_directory_of_game_files_is_read_and_files_without_a_record_are_skipped_with_a_word(tmp_path, records):
    games = tmp_path / "run" / "games"
    games.mkdir(parents=True)
    (games / "000000.json").write_text(json.dumps({"index": 0, "record": records["amarok"].to_json()}))
    (games / "000001.json").write_text(json.dumps({"index": 1, "record": None}))  # the fast engine keeps none
    (tmp_path / "run" / "config.json").write_text(json.dumps({"game": "amarok", "games": 2}))
    out = tmp_path / "rows.jsonl"
    result = runner.invoke(app, ["export", str(tmp_path / "run"), "--out", str(out), "--view-json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == len(records["amarok"].actions)
    assert {r["game"] for r in rows} == {"run/games/000000.json"} and all("view" in r for r in rows)
    assert "1 game files had no record" in result.output


def test_an_unfinished_game_is_refused_for_its_returns_are_not_known(tmp_path, records):
    record = records["amarok"]
    cut = GameRecord(record.game, record.options, record.seed, record.actions[:5])
    (tmp_path / "cut.json").write_text(cut.dumps())
    result = runner.invoke(app, ["export", str(tmp_path / "cut.json"), "--out", str(tmp_path / "x.jsonl")])
    assert result.exit_code == 2 and "has not ended" in result.output


def test_a_format_that_is_not_offered_is_refused_with_the_list(tmp_path):
    result = runner.invoke(app, ["export", str(tmp_path), "--out", str(tmp_path / "x.csv"), "--format", "csv"])
    assert result.exit_code == 2 and "jsonl, parquet" in result.output


def test_the_finished_rooms_of_a_server_database_are_exported(tmp_path):
    pytest.importorskip("fastapi", reason="--database needs the server extra")
    from fastapi.testclient import TestClient

    from nemeton.server.app import create_app
    url = f"sqlite:///{tmp_path / 'server.db'}"
    with TestClient(create_app(url, rate_limit=None)) as client:
        made = client.post("/api/rooms", json={"game": "amarok", "options": {"players": 3},
                                               "seats": [{"kind": "ai", "agent": "random"}] * 3})
        assert made.status_code == 201, made.text
        room = made.json()["room"]
        deadline = time.monotonic() + 60
        while client.get(f"/api/rooms/{room}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the agents did not finish the game"
            time.sleep(0.05)
        record = GameRecord.from_json(client.get(f"/api/rooms/{room}/record").json())
    rows = export(tmp_path, "--database", url)
    assert len(rows) == len(record.actions) and {r["game"] for r in rows} == {f"room:{room}"}
    final = record.replay()
    assert all(r["return"] == final.returns()[r["seat"]] for r in rows)


def test_parquet_holds_the_same_rows(tmp_path, records):
    pq = pytest.importorskip("pyarrow.parquet", reason="Parquet needs the parquet extra")
    path = tmp_path / "game.json"
    path.write_text(records["amarok"].dumps())
    rows = export(tmp_path, str(path))
    result = runner.invoke(app, ["export", str(path), "--out", str(tmp_path / "rows.parquet")])
    assert result.exit_code == 0, result.output
    assert pq.read_table(str(tmp_path / "rows.parquet")).to_pylist() == rows
