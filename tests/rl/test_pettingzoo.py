"""PettingZoo AEC environments: the library's own API and seed tests for every game and
player count (and Amarok's team modes) on both engines, rewards, illegal actions, rendering.
(The environments' default engine is the kernel where it runs; tests/rl/test_fast_envs.py
compares it with the reference.)"""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from nemeton.engine import IllegalActionError, get_game, list_games  # noqa: E402
from nemeton.interop.pettingzoo import env, raw_env  # noqa: E402

CONFIGS = [pytest.param(spec.name, cfg, id=spec.name + "-" + "-".join(f"{k}={v}" for k, v in cfg.items()))
           for spec in list_games() for cfg in spec.conformance_configs()]
CONFIGS += [pytest.param("amarok", {"players": 4, "teams": True, "partner_hand": True}, id="amarok-partner_hand"),
            pytest.param("alarun", {"players": 2, "action_cap": None}, id="alarun-no-cap")]
try:
    import numba  # noqa: F401
    ENGINES = ["fast", "reference"]
except ImportError:  # the fast extra is not installed: the reference only
    ENGINES = ["reference"]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game,cfg", CONFIGS)
def test_pettingzoo_api_test_passes(game, cfg, engine):
    e = env(game, engine=engine, **cfg)
    assert e.unwrapped.engine == engine
    api_test(e, num_cycles=200)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("game,cfg", CONFIGS)
def test_pettingzoo_seed_test_passes(game, cfg, engine):
    seed_test(lambda: env(game, engine=engine, **cfg), num_cycles=40)


def _play(e, seed):
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


def test_rewards_are_the_engine_returns_with_team_shares():
    e = env("amarok", players=4, teams=True)
    for seed in range(3):
        totals = _play(e, seed)
        state = e.unwrapped.state
        assert [totals[f"player_{s}"] for s in range(4)] == state.returns()
        assert sum(totals.values()) == 2.0  # both partners of the winning team get its share
        assert totals["player_0"] == totals["player_2"] and totals["player_1"] == totals["player_3"]


def test_the_same_seed_replays_the_same_game_and_another_seed_another():
    e = env("alarun", players=2)
    _play(e, 5)
    first = e.unwrapped.state.record().to_json()
    _play(e, 5)
    assert e.unwrapped.state.record().to_json() == first
    _play(e, 6)
    assert e.unwrapped.state.record().to_json() != first


def test_an_illegal_action_raises_and_changes_nothing():
    e = raw_env("edora", players=2)
    e.reset(seed=1)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = e.state.to_json()
    with pytest.raises(IllegalActionError, match="not legal"):
        e.step(illegal)
    assert e.state.to_json() == before


@pytest.mark.parametrize("action", [-1, 2561, 2**70, 1.0, "3", np.int64(-1), np.int64(2561)])
def test_the_wrapped_environment_refuses_actions_out_of_the_space_as_pettingzoo_does(action):
    e = env("edora", players=2)
    e.reset(seed=1)
    before = e.unwrapped.state.to_json()
    with pytest.raises(AssertionError, match="not in action space"):
        e.step(action)
    assert e.unwrapped.state.to_json() == before


@pytest.mark.parametrize("kind", [int, np.int64, np.int32])
def test_the_wrapped_environment_takes_legal_ids_as_python_or_numpy_integers(kind):
    e = env("edora", players=2)
    e.reset(seed=1)
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(kind(legal))
    assert e.unwrapped.steps == 1


def test_the_observation_is_the_agents_view_encoded_and_the_mask_its_legal_actions():
    e = raw_env("amarok", players=3, info_view=True)
    e.reset(seed=2)
    agent = e.agent_selection
    obs, *_, info = e.last()
    seat = int(agent.split("_")[1])
    spec = get_game("amarok")
    assert np.array_equal(obs["observation"], spec.observe(e.state.view(seat)))
    assert info["view"] == e.state.view(seat)
    assert obs["action_mask"].dtype == np.int8
    assert np.array_equal(obs["action_mask"].astype(bool), e.state.legal_action_mask(seat))
    other = f"player_{(seat + 1) % 3}"
    assert not e.observe(other)["action_mask"].any()  # a seat that is not acting has no legal action


def test_max_steps_truncates_every_agent():
    e = env("amarok", players=3, max_steps=5)
    e.reset(seed=0)
    steps = 0
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        if trunc:
            assert not term
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert e.unwrapped.steps == 5


def test_ansi_rendering_shows_the_spectator_view_only():
    e = env("amarok", players=3, render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    state = e.unwrapped.state
    assert text == get_game("amarok").render(state.view(None))
    assert raw_env("amarok", players=3).render() is None


@pytest.mark.parametrize("game", ["alarun", "amarok", "edora"])
def test_pettingzoo_render_test_passes(game, capsys):
    render_test(lambda render_mode=None: env(game, render_mode=render_mode))
    assert "seat" in capsys.readouterr().out.lower()  # "human" printed the spectator's view


def test_bad_arguments_are_refused_with_what_is_allowed():
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("alarun", render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_steps"):
        raw_env("alarun", max_steps=0)
    from nemeton.engine import InvalidOptionsError, UnknownGameError
    with pytest.raises(InvalidOptionsError):
        raw_env("amarok", players=3, teams=True)
    with pytest.raises(UnknownGameError):
        raw_env("chess")


def test_an_environment_without_a_game_says_to_call_reset_first():
    e = raw_env("alarun", players=2)
    for call in (lambda: e.observe("player_0"), lambda: e.step(0)):
        with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
            call()
