"""Gymnasium single-seat environments: the library's checker on both engines, vector
environments, opponents, seats, rewards and illegal actions. (The default engine is the
kernel where it runs; tests/rl/test_fast_envs.py compares it with the reference.)"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")

import nemeton.interop.gymnasium  # noqa: E402,F401  registers the environments
from gymnasium.utils.env_checker import check_env  # noqa: E402

from nemeton.engine import IllegalActionError, get_game  # noqa: E402

ENVS = [("nemeton/Alarun-v0", {"players": 2, "opponents": "heuristic"}),
        ("nemeton/Amarok-v0", {"players": 4, "teams": True, "opponents": ["random", "heuristic", "random"]}),
        ("nemeton/Edora-v0", {"players": 2}),
        ("nemeton/Edora-v0", {"players": 3, "arranged_herbs": True, "tablet_draft": True, "seat": "random"})]
try:
    import numba  # noqa: F401
    ENGINES = ["fast", "reference"]
except ImportError:  # the fast extra is not installed: the reference only
    ENGINES = ["reference"]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("env_id,kwargs", ENVS, ids=[f"{e}-{k['players']}p" for e, k in ENVS])
def test_gymnasium_check_env_passes(env_id, kwargs, engine):
    env = gymnasium.make(env_id, engine=engine, **kwargs).unwrapped
    assert env.engine == engine
    check_env(env)


def _play(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps = 0.0, 0
    while True:
        assert np.array_equal(info["action_mask"].astype(bool), env.unwrapped.action_masks())
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps


@pytest.mark.parametrize("engine", ENGINES)
def test_a_game_against_built_in_opponents_ends_with_the_learners_return(engine):
    env = gymnasium.make("nemeton/Amarok-v0", players=3, opponents="heuristic", seat=1, engine=engine)
    for seed in range(3):
        total, steps = _play(env, seed)
        state = env.unwrapped.state
        assert state.is_terminal() and total == state.returns()[1]
        if engine == "reference":  # (a state read back from the kernel has no history)
            assert {seat for seat, _ in state.history} == {0, 1, 2}  # the opponents played too
            assert sum(seat == 1 for seat, _ in state.history) == steps


def test_the_observation_is_the_learners_view_encoded():
    env = gymnasium.make("nemeton/Edora-v0", players=2, seat=1, info_view=True)
    obs, info = env.reset(seed=4)
    state = env.unwrapped.state
    assert info["seat"] == 1 and info["view"] == state.view(1)
    assert np.array_equal(obs, get_game("edora").observe(state.view(1)))


def test_random_seats_change_between_games_and_seeds_replay():
    env = gymnasium.make("nemeton/Amarok-v0", players=3, seat="random")
    seats = set()
    for seed in range(12):
        env.reset(seed=seed)
        seats.add(env.unwrapped.seat)
    assert seats == {0, 1, 2}
    _play(env, 7)
    first = env.unwrapped.state.record().to_json()
    _play(env, 7)
    assert env.unwrapped.state.record().to_json() == first


def test_make_vec_runs_several_games():
    envs = gymnasium.make_vec("nemeton/Amarok-v0", num_envs=3, vectorization_mode="sync", players=3)
    obs, info = envs.reset(seed=1)
    assert obs.shape == (3, envs.single_observation_space.shape[0])
    finished = 0
    for _ in range(200):
        # (a finished game's mask is empty: its next step resets it and ignores the action)
        actions = [int(m.argmax()) for m in info["action_mask"]]
        obs, reward, terminated, truncated, info = envs.step(actions)
        finished += int(terminated.sum())
    assert finished >= 3
    envs.close()


def test_an_illegal_action_ends_the_episode_or_raises_and_changes_nothing():
    env = gymnasium.make("nemeton/Alarun-v0", players=2).unwrapped
    obs, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.to_json()
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert (reward, terminated, info2["illegal_action"]) == (-1.0, True, True)
    assert np.array_equal(obs2, obs)
    strict = gymnasium.make("nemeton/Alarun-v0", players=2, illegal_action="raise").unwrapped
    strict.reset(seed=2)
    assert strict.state.to_json() == before
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert strict.state.to_json() == before


def test_bad_arguments_are_refused_with_what_is_allowed():
    from nemeton.agents import AgentSpecError
    with pytest.raises(ValueError, match="opponents must be one agent spec or a list of 2"):
        gymnasium.make("nemeton/Alarun-v0", players=3, opponents=["random"])
    with pytest.raises(AgentSpecError):
        gymnasium.make("nemeton/Alarun-v0", players=2, opponents="genius")
    with pytest.raises(ValueError, match="seat must be"):
        gymnasium.make("nemeton/Alarun-v0", players=2, seat=2)


def test_an_environment_without_an_episode_says_to_call_reset():
    from gymnasium.error import ResetNeeded
    e = gymnasium.make("nemeton/Alarun-v0", players=2, render_mode="ansi").unwrapped
    for call in (e.action_masks, e.render):
        with pytest.raises(ResetNeeded, match=r"call reset\(\)"):
            call()
