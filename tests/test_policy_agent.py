"""The learned agent (``policy:path=FILE``, nemeton.agents.policy) and its training recipe
(benchmarks/train_policy.py): it plays legal moves from views wherever agent specs are read
(simulate, tournaments, a server's named agents), greedy play is deterministic, and a policy
file is read as untrusted data: every bad file is refused with an AgentSpecError saying why."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
import time
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

from nemeton.agents import policy as policy_module
from nemeton.agents.base import AgentSpecError, make_agent, parse_agent_spec
from nemeton.agents.policy import PolicyAgent, load_policy, save_policy
from nemeton.arena.match import simulate
from nemeton.engine import get_game

NEMETON = str(Path(sys.executable).with_name("nemeton"))
ROOT = Path(__file__).resolve().parents[1]
AMAROK = get_game("amarok")


def write_policy(path, game="amarok", players=4, hidden=(16,), seed=0, scale=1.0, **options):
    """A small random policy for ``game`` with ``players`` (the sizes its encoding has)."""
    spec = get_game(game)
    opts = spec.options(players, **{**spec.bot_defaults, **options})
    enc = spec.encoding(opts)
    sizes = [enc.observation_size, *hidden, len(enc.actions)]
    rng = np.random.default_rng(seed)
    layers = [(scale * rng.standard_normal((a, b)) / np.sqrt(a), np.zeros(b)) for a, b in zip(sizes, sizes[1:])]
    save_policy(path, layers, game=game, options=opts, extra={"test": True})
    return path


@pytest.fixture
def policy_file(tmp_path):
    return write_policy(tmp_path / "policy.npz")


def spec_of(path, **params):
    return ":".join([f"policy:path={path}", *(f"{k}={v}" for k, v in params.items())])


def rewrite(path, **changes):
    """The arrays of a policy file with some replaced (None: removed), written back as they are."""
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    for k, v in changes.items():
        if v is None:
            arrays.pop(k)
        else:
            arrays[k] = v
    np.savez(path, **arrays)


# ----- playing ---------------------------------------------------------------------------------
def test_simulate_from_the_command_line_plays_the_policy_in_every_seat_it_is_given(policy_file):
    done = subprocess.run([NEMETON, "simulate", "amarok", "-p", "4", "-n", "6", "--json",
                           "--agents", f"{spec_of(policy_file)},random,{spec_of(policy_file, sample=1)},heuristic"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["games"] == 6 and sum(data["wins"]) == 6
    assert data["agents"][0] == f"policy:path={policy_file}"


def test_the_committed_policy_loads_and_plays_amarok_for_four(tmp_path):
    committed = ROOT / "benchmarks" / "results" / "policy" / "policy.npz"
    policy = load_policy(committed)
    assert (policy.game, policy.options["players"], policy.meta["trained"]["algorithm"]) == ("amarok", 4, "PPO-clip")
    summary = simulate("amarok", 4, 3, 0, [f"policy:path={committed}", "heuristic", "random", "random"])
    assert sum(summary.wins) >= 3


class Recording(PolicyAgent):
    """A policy agent that keeps what it was shown and what it chose."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.decisions = []

    def act(self, view, legal):
        action = super().act(view, legal)
        self.decisions.append((view, list(legal), action))
        return action


def played_decisions(path, sample=False, seed=0, games=2):
    from nemeton.table import Table
    spec = AMAROK
    out = []
    for g in range(games):
        agents = [Recording(spec, s, random.Random(seed * 100 + g * 10 + s), path=str(path), sample=sample)
                  for s in range(4)]
        Table(spec.make(players=4, seed=g), agents, clock=None).run(False)
        out += [d for a in agents for d in a.decisions]
    return out


def test_the_policy_chooses_among_the_legal_actions_from_the_view_alone(policy_file):
    decisions = played_decisions(policy_file)
    assert len(decisions) > 20
    for view, legal, action in decisions:
        assert action in legal
        assert "hands" in view and view["seat"] in range(4)  # a seat's view, never the state


def test_greedy_play_is_the_best_legal_logit_and_does_not_depend_on_the_seed(policy_file):
    policy = load_policy(policy_file)
    enc = AMAROK.encoding(AMAROK.options(4))
    decisions = played_decisions(policy_file, games=1)
    again = [make_agent(spec_of(policy_file), AMAROK, view["seat"], seed=12345) for view, _, _ in decisions]
    for (view, legal, action), other in zip(decisions, again):
        logits = policy.logits(enc.encode(view))
        best = max(legal, key=lambda a: logits[enc.actions.id(a)])
        assert action == best == other.act(view, legal)


def test_sampling_draws_from_the_agents_own_stream(policy_file):
    decisions = [(v, legal) for v, legal, _ in played_decisions(policy_file, games=1) if len(legal) > 3]
    def picks(seed):
        agent = make_agent(spec_of(policy_file, sample=1), AMAROK, 0, seed)
        return [agent.act(v, legal) for v, legal in decisions]
    first = picks(1)
    assert first == picks(1)
    assert first != picks(2)
    assert all(a in legal for a, (_, legal) in zip(first, decisions))
    greedy = make_agent(spec_of(policy_file), AMAROK, 0, 1)
    assert first != [greedy.act(v, legal) for v, legal in decisions]


# ----- files refused ---------------------------------------------------------------------------
def _wrong_shape(path):
    rewrite(path, w0=np.zeros((10, 16), np.float32))


def _nan(path):
    with np.load(path) as z:
        b = z["b1"].copy()
    b[3] = np.nan
    rewrite(path, b1=b)


def _infinite(path):
    with np.load(path) as z:
        w = z["w0"].copy()
    w[0, 0] = np.inf
    rewrite(path, w0=w)


def _missing(path):
    rewrite(path, b1=None)


def _extra(path):
    rewrite(path, w9=np.zeros(3, np.float32))


def _pickle(path):
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["w0"] = np.array([{"evil": 1}], dtype=object)
    np.savez(path, **arrays)  # an object array: loading it would unpickle


def _integers(path):
    with np.load(path) as z:
        rewrite(path, b0=z["b0"].astype(np.int64))


def _not_a_zip(path):
    path.write_bytes(b"\x93NUMPY not a zip at all")


def _meta_not_json(path):
    rewrite(path, meta=np.array("{not json"))


def _other_format(path):
    rewrite(path, meta=np.array(json.dumps({"format": "keras", "version": 1})))


def _newer_version(path):
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
    rewrite(path, meta=np.array(json.dumps({**meta, "version": 99})))


def _huge_layers(path):
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
    rewrite(path, meta=np.array(json.dumps({**meta, "hidden": [10**7]})))


def _unknown_option(path):
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
    rewrite(path, meta=np.array(json.dumps({**meta, "options": {**meta["options"], "gravity": 3}})))


@pytest.mark.parametrize("spoil, words", [
    (_wrong_shape, "w0 is float32 of shape (10, 16); expected floats of shape (460, 16)"),
    (_nan, "b1 holds numbers that are not finite"),
    (_infinite, "w0 holds numbers that are not finite"),
    (_missing, "expected ['b0', 'b1', 'w0', 'w1']"),
    (_extra, "expected ['b0', 'b1', 'w0', 'w1']"),
    (_pickle, "Object arrays cannot be loaded when allow_pickle=False"),
    (_integers, "b0 is int64"),
    (_not_a_zip, "not a policy file"),
    (_meta_not_json, "its 'meta' is not JSON"),
    (_other_format, "not a nemeton-policy file"),
    (_newer_version, "format version 99; this Nemeton reads version 1"),
    (_huge_layers, "hidden (at most 4 widths of at most 4096)"),
    (_unknown_option, "its options are not amarok's"),
])
def test_a_spoiled_policy_file_is_refused_with_what_is_wrong(policy_file, spoil, words):
    spoil(policy_file)
    with pytest.raises(AgentSpecError) as err:
        make_agent(spec_of(policy_file), AMAROK, 0, 0)
    assert words in str(err.value)
    assert str(policy_file) in str(err.value)


def test_a_file_too_large_is_refused_before_it_is_read(tmp_path):
    big = tmp_path / "big.npz"
    with open(big, "wb") as f:  # sparse: no disk used
        f.truncate(policy_module.MAX_FILE_BYTES + 1)
    with pytest.raises(AgentSpecError, match="a policy file holds at most"):
        parse_agent_spec(spec_of(big))


def test_an_array_that_unpacks_to_too_much_is_refused_before_it_is_unpacked(tmp_path):
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:  # 80 MB of zeros, a few KB packed
        with z.open("w0.npy", "w", force_zip64=True) as f:
            np.lib.format.write_array(f, np.zeros(20 * 2**20, np.float32))
    assert bomb.stat().st_size < 1_000_000
    with pytest.raises(AgentSpecError, match="entry 'w0.npy' unpacks to 83,886,208 bytes"):
        parse_agent_spec(spec_of(bomb))


def test_a_missing_file_and_a_missing_path_are_refused(tmp_path):
    with pytest.raises(AgentSpecError, match="cannot read it"):
        parse_agent_spec(spec_of(tmp_path / "nowhere.npz"))
    with pytest.raises(AgentSpecError, match="needs the file of a trained policy"):
        make_agent("policy", AMAROK, 0, 0)


def test_a_policy_trained_for_another_game_or_player_count_is_refused(policy_file):
    with pytest.raises(AgentSpecError, match="trained for 'amarok', not 'alarun'"):
        make_agent(spec_of(policy_file), get_game("alarun"), 0, 0)
    agent = make_agent(spec_of(policy_file), AMAROK, 3, 0)
    with pytest.raises(AgentSpecError, match=r"players=4 \(this game: 3\)"):
        agent.settings_for(AMAROK.options(3).to_json())
    with pytest.raises(AgentSpecError, match="there is no seat 4"):
        make_agent(spec_of(policy_file), AMAROK, 4, 0)


def test_a_game_with_other_options_stops_at_the_first_decision_with_a_clear_error(policy_file):
    with pytest.raises(AgentSpecError, match=r"rounds_to_win=3 \(this game: 2\)"):
        simulate("amarok", 4, 1, 0, [spec_of(policy_file)], options={"rounds_to_win": 2})
    done = subprocess.run([NEMETON, "simulate", "amarok", "-p", "3", "-n", "1", "--agents", spec_of(policy_file)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "players=4 (this game: 3)" in done.stdout + done.stderr


def test_a_tournament_refuses_a_policy_for_other_options_before_any_game(policy_file, tmp_path):
    done = subprocess.run([NEMETON, "tournament", "amarok", "-p", "4", "-n", "4", "-w", "1",
                           "--agents", f"{spec_of(policy_file)},random", "-o", "rounds_to_win=2"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "rounds_to_win=3 (this game: 2)" in done.stdout + done.stderr


# ----- the server --------------------------------------------------------------------------------
def test_a_server_offers_the_operators_policy_and_a_room_with_it_plays_to_the_end(policy_file, tmp_path):
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient
    from nemeton.server.agents import AgentPolicy
    from nemeton.server.app import create_app

    agents = AgentPolicy({"learned": spec_of(policy_file), "random": "random"})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", rate_limit=None, agents=agents)) as client:
        amarok = next(g for g in client.get("/api/games").json() if g["name"] == "amarok")
        assert [a["spec"] for a in amarok["agents"]] == ["learned", "random"]
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "learned"},
                 {"kind": "ai", "agent": "learned"}, {"kind": "ai", "agent": "random"}]
        r = client.post("/api/rooms", json={"game": "amarok", "options": {"players": 4}, "seats": seats})
        assert r.status_code == 201, r.text
        room, token, creator = r.json()["room"], r.json()["seats"][0]["token"], r.json()["creator"]
        r = client.post(f"/api/rooms/{room}/seats/0", json={"token": creator, "agent": "learned"})
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 60
        while not (snap := client.get(f"/api/rooms/{room}/view", params={"token": token}).json())["terminal"]:
            assert time.monotonic() < deadline, "the room's agents stopped"
            time.sleep(0.01)
        record = client.get(f"/api/rooms/{room}/record").json()
        assert {m["seat"] for m in record["actions"]} >= {0, 1, 2}
        # a room of another game cannot seat it: refused when the room is made
        r = client.post("/api/rooms", json={"game": "alarun", "seats": [{"kind": "human"}, {"kind": "ai", "agent": "learned"}]})
        assert r.status_code == 400 and "trained for 'amarok', not 'alarun'" in r.json()["detail"]
        # nor an Amarok room of other options (it would stop at its first decision): refused
        # when the room is made, and when the creator hands a seat to it
        three = [{"kind": "human", "name": "Ann"}, {"kind": "ai", "agent": "learned"}, {"kind": "ai", "agent": "random"}]
        r = client.post("/api/rooms", json={"game": "amarok", "options": {"players": 3}, "seats": three})
        assert r.status_code == 400 and "players=4 (this game: 3)" in r.json()["detail"], r.text
        three[1]["agent"] = "random"
        r = client.post("/api/rooms", json={"game": "amarok", "options": {"players": 3}, "seats": three})
        assert r.status_code == 201, r.text
        room3, creator3 = r.json()["room"], r.json()["creator"]
        r = client.post(f"/api/rooms/{room3}/seats/0", json={"token": creator3, "agent": "learned"})
        assert r.status_code == 400 and "players=4 (this game: 3)" in r.json()["detail"], r.text
        # the lobby offers it only with the game it plays
        for game in client.get("/api/games").json():
            assert ("learned" in [a["spec"] for a in game["agents"]]) == (game["name"] == "amarok")


def test_a_server_will_not_start_with_a_bad_policy_file(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_text("hello")
    done = subprocess.run([NEMETON, "serve", "--agent", f"learned=policy:path={bad}"], capture_output=True,
                          text=True, timeout=60, env={"NEMETON_DATA": str(tmp_path), "PATH": ""})
    assert done.returncode != 0 and "not a policy file" in done.stdout + done.stderr


# ----- the training recipe -----------------------------------------------------------------------
def _trainer():
    spec = importlib.util.spec_from_file_location("train_policy", ROOT / "benchmarks" / "train_policy.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_training_writes_a_loadable_policy_and_a_resumed_run_reaches_the_same_weights(tmp_path):
    trainer = _trainer()
    common = ["amarok", "-p", "4", "--opponents", "random,heuristic", "--envs", "8", "--steps", "8",
              "--hidden", "16", "--checkpoint-every", "2", "--quiet"]
    straight = trainer.train(trainer.parse_args([*common, "--iterations", "4", "--out", str(tmp_path / "a")]))
    trainer.train(trainer.parse_args([*common, "--iterations", "2", "--out", str(tmp_path / "b")]))
    resumed = trainer.train(trainer.parse_args([*common, "--iterations", "4", "--out", str(tmp_path / "b")]))
    a, b = load_policy(straight), load_policy(resumed)
    assert a.meta["trained"]["iterations"] == 4 and a.meta["trained"]["decisions"] == 4 * 8 * 8
    assert a.meta["options"] == AMAROK.options(4).to_json()
    for (wa, ba), (wb, bb) in zip(a.layers, b.layers):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)
    logs = [[{k: v for k, v in json.loads(line).items() if k != "cpu_minutes"}
             for line in (tmp_path / run / "train_log.jsonl").read_text().splitlines()] for run in "ab"]
    assert [line["iteration"] for line in logs[1]] == [1, 2, 3, 4]
    assert logs[0] == logs[1]  # the same games, the same statistics
    agent = make_agent(spec_of(straight), AMAROK, 2, 0)
    state = AMAROK.make(players=4, seed=3)
    while 2 not in state.acting():
        state.apply(state.legal_actions(state.acting()[0])[0], state.acting()[0])
    assert agent.act(state.view(2), state.legal_actions(2)) in state.legal_actions(2)


def test_a_budget_over_an_hour_is_refused():
    with pytest.raises(SystemExit):
        _trainer().parse_args(["amarok", "-p", "4", "--out", "x", "--cpu-minutes", "61"])
