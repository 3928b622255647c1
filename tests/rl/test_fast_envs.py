"""The single environments on the compiled kernel (``engine="fast"``) against the reference
rules (``engine="reference"``): for the same seeds and the same actions, the same
trajectories (agent order, observations of every agent, masks, rewards, terminations,
truncations, views), in PettingZoo's AEC environment for every game and player count and in
Gymnasium's against random and heuristic opponents; illegal actions on the kernel change
nothing; ``engine="auto"`` picks the kernel where it can."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

import nemeton.interop.gymnasium  # noqa: E402,F401  registers the environments
from nemeton.engine import IllegalActionError, list_games  # noqa: E402
from nemeton.engine.kernel import KernelUnsupported  # noqa: E402
from nemeton.interop.gymnasium import NemetonEnv  # noqa: E402
from nemeton.interop.pettingzoo import env, raw_env  # noqa: E402

CONFIGS = [pytest.param(spec.name, cfg, id=spec.name + "-" + "-".join(f"{k}={v}" for k, v in cfg.items()))
           for spec in list_games() for cfg in spec.conformance_configs()]
CONFIGS += [pytest.param("amarok", {"players": 4, "teams": True, "partner_hand": True}, id="amarok-partner_hand"),
            pytest.param("alarun", {"players": 2, "action_cap": None}, id="alarun-no-cap"),
            pytest.param("edora", {"players": 3, "max_steps": 25}, id="edora-max_steps")]


def _first_difference(fast: list, reference: list) -> str:
    for i, (a, b) in enumerate(zip(fast, reference)):
        if a != b:
            return f"step {i}: fast {str(a)[:200]} != reference {str(b)[:200]}"
    return f"lengths {len(fast)} (fast) and {len(reference)} (reference)"


def _same(fast: list, reference: list) -> None:
    assert fast == reference, _first_difference(fast, reference)


def _obs(o: dict) -> tuple:
    assert o["observation"].dtype == np.float32 and o["action_mask"].dtype == np.int8
    return o["observation"].tobytes(), o["action_mask"].tobytes()


def _aec_trajectory(engine: str, game: str, cfg: dict, seed: int, games: int = 2) -> list:
    """Two games (the second from the stream the reset seed started), random legal actions
    from a seeded rng; every step the acting agent's last(), every fifth step every agent's
    observation and view."""
    e = env(game, engine=engine, **cfg)
    raw = e.unwrapped
    assert raw.engine == engine
    rng = random.Random(seed)
    out: list = []
    for g in range(games):
        e.reset(seed=seed if g == 0 else None)
        for i, agent in enumerate(e.agent_iter()):
            obs, reward, term, trunc, info = e.last()
            out.append((agent, _obs(obs), reward, term, trunc, dict(e.rewards), sorted(info)))
            if i % 5 == 0:
                out.append([_obs(e.observe(a)) for a in e.possible_agents])
                out.append([raw.view(a) for a in e.possible_agents])
            if term or trunc:
                e.step(None)
            else:
                e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        out.append(("steps", raw.steps))
    return out


@pytest.mark.parametrize("game,cfg", CONFIGS)
def test_the_pettingzoo_kernel_environment_plays_the_reference_games(game, cfg):
    for seed in (0, 11):
        _same(_aec_trajectory("fast", game, cfg, seed), _aec_trajectory("reference", game, cfg, seed))


def test_the_pettingzoo_kernel_environment_ends_with_the_reference_state_and_rendering():
    envs = {engine: raw_env("alarun", players=3, engine=engine, render_mode="ansi", info_view=True)
            for engine in ("fast", "reference")}
    views = {}
    for engine, e in envs.items():
        e.reset(seed=3)
        rng = random.Random(3)
        views[engine] = []
        for agent in e.agent_iter():
            obs, _, term, trunc, info = e.last()
            views[engine].append(info["view"])
            assert info["view"] == e.view(agent)
            e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    _same(views["fast"], views["reference"])
    fast, reference = envs["fast"].state, envs["reference"].state
    assert fast.is_terminal() and fast.returns() == reference.returns() and fast.scores() == reference.scores()
    assert envs["fast"].render() == envs["reference"].render()


@pytest.mark.parametrize("game", ["alarun", "amarok", "edora"])
def test_an_illegal_action_on_the_kernel_raises_and_changes_nothing(game):
    players = 3 if game == "amarok" else 2
    fast, reference = raw_env(game, players, engine="fast"), raw_env(game, players, engine="reference")
    for e in (fast, reference):
        e.reset(seed=5)
    rng = random.Random(5)
    for _ in range(6):  # a few steps in, then an illegal action, then on as the reference goes
        agent = fast.agent_selection
        obs = fast.observe(agent)
        illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        before = fast.state.to_json()
        with pytest.raises(IllegalActionError, match="not legal"):
            fast.step(illegal)
        assert fast.state.to_json() == before and fast.steps == reference.steps
        assert fast.agent_selection == agent and _obs(fast.observe(agent)) == _obs(obs)
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        fast.step(action)
        reference.step(action)
        assert _obs(fast.observe(fast.agent_selection)) == _obs(reference.observe(reference.agent_selection))


def test_auto_picks_the_kernel_where_it_runs_and_the_reference_elsewhere():
    from nemeton.games.edora.board import standard_board_text
    assert raw_env("amarok", players=3).engine == "fast"
    assert NemetonEnv("alarun", players=2, opponents="heuristic").engine == "fast"
    # options the kernel does not implement (another board), opponents it cannot play
    assert raw_env("edora", players=2, board=standard_board_text()).engine == "reference"
    assert NemetonEnv("amarok", players=3, opponents=["random", "ismcts:iterations=5"]).engine == "reference"
    with pytest.raises(KernelUnsupported, match="engine='reference'"):
        raw_env("edora", players=2, engine="fast", board=standard_board_text())
    with pytest.raises(KernelUnsupported, match="ismcts"):
        NemetonEnv("amarok", players=3, engine="fast", opponents=["random", "ismcts:iterations=5"])
    for make in (lambda: raw_env("amarok", engine="compiled"), lambda: NemetonEnv("amarok", engine=None)):
        with pytest.raises(ValueError, match="engine must be one of 'auto', 'fast', 'reference'"):
            make()


# ----- Gymnasium ------------------------------------------------------------------------------
GYM = [("alarun", {"players": 2, "opponents": "heuristic"}),
       ("alarun", {"players": 3, "seat": "random"}),
       ("alarun", {"players": 4, "action_cap": 2, "seat": 1, "opponents": ["heuristic", "random", "heuristic"]}),
       ("amarok", {"players": 3, "seat": "random", "opponents": "heuristic"}),
       ("amarok", {"players": 5, "seat": 2}),
       ("amarok", {"players": 4, "teams": True, "seat": "random", "opponents": ["random", "heuristic", "random"]}),
       ("amarok", {"players": 6, "teams": True, "seat": 3, "max_steps": 4}),
       ("edora", {"players": 2, "seat": 1, "opponents": "heuristic"}),
       ("edora", {"players": 3, "arranged_herbs": True, "tablet_draft": True, "shared_dice": True, "seat": "random"}),
       ("edora", {"players": 4, "seat": 0, "opponents": ["heuristic", "random", "random"]})]


def _gym_trajectory(engine: str, game: str, kwargs: dict, seed: int, games: int = 2) -> list:
    e = NemetonEnv(game, engine=engine, info_view=True, **kwargs)
    assert e.engine == engine
    rng = random.Random(seed)
    out: list = []
    for g in range(games):
        obs, info = e.reset(seed=seed if g == 0 else None)
        out.append((obs.tobytes(), info["action_mask"].tobytes(), info["seat"], info["view"]))
        while True:
            assert np.array_equal(e.action_masks(), info["action_mask"].astype(bool))
            obs, reward, terminated, truncated, info = e.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
            assert obs.dtype == np.float32 and info["action_mask"].dtype == np.int8
            out.append((obs.tobytes(), info["action_mask"].tobytes(), reward, terminated, truncated, info["view"]))
            if terminated or truncated:
                break
    return out


@pytest.mark.parametrize("game,kwargs", GYM, ids=[f"{g}-{i}" for i, (g, _) in enumerate(GYM)])
def test_the_gymnasium_kernel_environment_plays_the_reference_games(game, kwargs):
    """The opponents inside the kernel choose what RandomAgent and HeuristicAgent choose with
    the same seeds, in the same order (the lowest acting seat first)."""
    for seed in (0, 8):
        _same(_gym_trajectory("fast", game, kwargs, seed), _gym_trajectory("reference", game, kwargs, seed))


@pytest.mark.parametrize("mode", ["end", "raise"])
def test_an_illegal_gymnasium_action_on_the_kernel_changes_nothing(mode):
    fast = NemetonEnv("edora", players=2, engine="fast", illegal_action=mode)
    reference = NemetonEnv("edora", players=2, engine="reference")
    obs, info = fast.reset(seed=2)
    reference.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = fast.state.to_json()
    if mode == "raise":
        with pytest.raises(IllegalActionError, match="not legal"):
            fast.step(illegal)
        assert fast.state.to_json() == before and fast.steps == 0
        legal = int(np.flatnonzero(info["action_mask"])[0])   # and the game goes on as the reference's
        assert np.array_equal(fast.step(legal)[0], reference.step(legal)[0])
        return
    obs2, reward, terminated, truncated, info2 = fast.step(illegal)
    assert (reward, terminated, truncated, info2["illegal_action"]) == (-1.0, True, False, True)
    assert np.array_equal(obs2, obs) and not info2["action_mask"].any()
    with pytest.raises(IllegalActionError, match="call reset"):
        fast.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert fast.state is None
