"""ISMCTS search options: spec parsing, the heuristic prior (first expansion and progressive
bias), epsilon-greedy rollouts, leaf evaluation, and decisions that never read hidden state."""

from __future__ import annotations

import json
import random

import pytest

from nemeton.agents.base import AgentSpecError, get_heuristic, make_agent, parse_agent_spec
from nemeton.agents.ismcts import ISMCTSAgent
from nemeton.engine import get_game

HEURISTIC_GAMES = [("alarun", 2), ("amarok", 3), ("edora", 2)]


def _midgame(name, players, seed, steps):
    spec = get_game(name)
    state = spec.make(seed=seed, **{**spec.bot_defaults, "players": players})
    rng = random.Random(seed)
    for _ in range(steps):
        p = state.current_player
        legal = state.legal_actions(p)
        if len(legal) > 1 and _ > steps // 2:
            break
        state.apply(rng.choice(legal), p)
    assert not state.is_terminal()
    return spec, state


def _decision_with_choices(name, players):
    """A mid-game position where the seat to move has at least two legal actions."""
    spec, state = _midgame(name, players, seed=11, steps=12)
    seat = state.current_player
    while len(state.legal_actions(seat)) < 2:
        state.apply(state.legal_actions(seat)[0], seat)
        seat = state.current_player
    return spec, state, seat


class LastActionPrior:
    """A stand-in heuristic that always prefers the last legal action and counts its calls."""

    def __init__(self, real):
        self.real = real
        self.calls = 0

    def choose_in_state(self, state, seat, legal, rng):
        self.calls += 1
        return legal[-1]

    def evaluate(self, state):
        return self.real.evaluate(state)


def test_new_parameters_parse_and_name_the_agent():
    cls, params = parse_agent_spec("ismcts:iterations=50:prior=heuristic:bias=2.5:epsilon=0.1:cutoff=leaf:c=0.4")
    assert cls is ISMCTSAgent
    assert params == {"iterations": 50, "prior": "heuristic", "bias": 2.5, "epsilon": 0.1, "cutoff": "leaf", "c": 0.4}
    agent = make_agent("ismcts:iterations=50:bias=2.5:c=0.4", get_game("alarun"), 0, seed=1)
    assert str(agent) == "ismcts:iterations=50:c=0.4:bias=2.5"
    agent = make_agent("ismcts:iterations=50:prior=none:bias=2.5", get_game("alarun"), 0, seed=1)
    assert str(agent) == "ismcts:iterations=50:prior=none"


@pytest.mark.parametrize("spec", ["ismcts:prior=always", "ismcts:cutoff=game", "ismcts:epsilon=1.5",
                                  "ismcts:bias=-1", "ismcts:c=-0.1", "ismcts:epsilon=lots",
                                  "ismcts:rounds=0"])
def test_bad_search_parameters_are_refused_with_a_message(spec):
    with pytest.raises(AgentSpecError, match="ismcts"):
        make_agent(spec, get_game("alarun"), 0, seed=1)


@pytest.mark.parametrize("name,players", HEURISTIC_GAMES)
def test_prior_makes_the_heuristics_choice_the_first_child_of_every_new_node(name, players):
    spec, state, seat = _decision_with_choices(name, players)
    agent = make_agent("ismcts:iterations=1:prior=heuristic:cutoff=leaf", spec, seat, seed=3)
    agent.heuristic = LastActionPrior(agent.heuristic)
    root = agent.search(state.view(seat))
    legal = state.legal_actions(seat)
    assert list(root.children) == [legal[-1]]
    assert root.hint == legal[-1]
    assert agent.heuristic.calls == 1


@pytest.mark.parametrize("name,players", HEURISTIC_GAMES)
def test_progressive_bias_steers_visits_to_the_heuristics_choice(name, players):
    spec, state, seat = _decision_with_choices(name, players)
    legal = state.legal_actions(seat)
    visits = {}
    for bias in (0.0, 50.0):
        agent = make_agent(f"ismcts:iterations=150:prior=heuristic:bias={bias}:cutoff=leaf", spec, seat, seed=3)
        agent.heuristic = LastActionPrior(agent.heuristic)
        root = agent.search(state.view(seat))
        visits[bias] = root.children[legal[-1]].visits / agent.last_iterations  # early stops differ
    assert visits[50.0] > visits[0.0]
    assert visits[50.0] >= 0.5


def test_without_prior_the_heuristic_is_never_asked_to_choose():
    spec, state, seat = _decision_with_choices("alarun", 2)
    agent = make_agent("ismcts:iterations=30:cutoff=leaf:prior=none", spec, seat, seed=3)
    agent.heuristic = LastActionPrior(agent.heuristic)
    agent.search(state.view(seat))
    assert agent.heuristic.calls == 0


def test_epsilon_one_makes_heuristic_rollouts_random():
    spec, state, seat = _decision_with_choices("amarok", 3)
    agent = make_agent("ismcts:iterations=20:rollout=heuristic:epsilon=1:prior=none", spec, seat, seed=3)
    agent.heuristic = LastActionPrior(agent.heuristic)
    agent.search(state.view(seat))
    assert agent.heuristic.calls == 0
    agent = make_agent("ismcts:iterations=20:rollout=heuristic:epsilon=0:prior=none", spec, seat, seed=3)
    agent.heuristic = LastActionPrior(agent.heuristic)
    agent.search(state.view(seat))
    assert agent.heuristic.calls > 20


@pytest.mark.parametrize("name,players", HEURISTIC_GAMES)
def test_plain_spec_uses_the_games_search_defaults(name, players):
    agent = make_agent("ismcts", get_game(name), 0, seed=1)
    expected = ISMCTSAgent.resolved_defaults(get_heuristic(name))
    for key, value in expected.items():
        assert getattr(agent, key) == value
    assert str(agent) == "ismcts:iterations=1000"


class SettingsOnly:
    def __init__(self, settings):
        self.settings = settings

    def search_settings(self):
        return self.settings


def test_heuristic_search_settings_refine_the_defaults_and_unknown_keys_are_ignored():
    d = ISMCTSAgent.resolved_defaults(SettingsOnly({"rollout": "heuristic", "c": 0.3, "colour": "red"}))
    assert d["rollout"] == "heuristic" and d["c"] == 0.3 and "colour" not in d
    assert d["cutoff"] == ISMCTSAgent.defaults["cutoff"]


def test_without_a_heuristic_defaults_play_random_rollouts_to_the_end():
    d = ISMCTSAgent.resolved_defaults(None)
    assert (d["rollout"], d["cutoff"], d["prior"]) == ("random", "none", "none")


def test_spec_parameters_override_the_games_defaults():
    agent = make_agent("ismcts:iterations=10:rollout=random:cutoff=none:prior=none", get_game("amarok"), 0, seed=1)
    assert (agent.rollout, agent.cutoff, agent.prior) == ("random", "none", "none")


@pytest.mark.parametrize("name,players", HEURISTIC_GAMES)
@pytest.mark.parametrize("agent_spec", ["ismcts:iterations=25:prior=heuristic:rollout=heuristic:cutoff=round:epsilon=0.2",
                                        "ismcts:iterations=25:prior=heuristic:cutoff=leaf"])
def test_decision_with_prior_does_not_depend_on_the_true_hidden_state(name, players, agent_spec):
    spec, state = _midgame(name, players, seed=3, steps=17)
    seat = state.current_player
    view = json.loads(json.dumps(state.view(seat)))
    decisions = set()
    for k in range(3):
        truth = spec.determinize(view, random.Random(100 + k))
        assert truth.view(seat) == view
        agent = make_agent(agent_spec, spec, seat, seed=77)
        decisions.add(agent.act(truth.view(seat), truth.legal_actions(seat)))
    assert len(decisions) == 1


def test_alarun_plain_spec_searches_with_its_heuristics_rollouts_and_prior():
    agent = make_agent("ismcts:seconds=1", get_game("alarun"), 0, seed=1)
    assert (agent.rollout, agent.cutoff, agent.prior) == ("heuristic", "round", "heuristic")
    assert str(agent) == "ismcts:seconds=1.0"


def test_edora_plain_spec_searches_from_the_heuristics_line_and_amarok_with_random_rollouts():
    edora = make_agent("ismcts:seconds=1", get_game("edora"), 0, seed=1)
    assert (edora.rollout, edora.cutoff, edora.prior, edora.bias) == ("heuristic", "round", "heuristic", 10.0)
    amarok = make_agent("ismcts:seconds=1", get_game("amarok"), 0, seed=1)
    assert (amarok.rollout, amarok.cutoff, amarok.prior) == ("random", "round", "none")


def test_a_budget_is_iterations_or_seconds_not_both():
    import pytest
    from nemeton.agents.base import AgentSpecError, make_agent
    from nemeton.engine import get_game
    with pytest.raises(AgentSpecError, match="not both"):
        make_agent("ismcts:iterations=10:seconds=1", get_game("amarok"), 0, 1)


def test_stopping_early_never_changes_the_decision_of_an_iteration_budget(monkeypatch):
    stopped = 0
    for name, players in HEURISTIC_GAMES:
        spec, state, seat = _decision_with_choices(name, players)
        view, legal = state.view(seat), state.legal_actions(seat)
        for seed in range(3):
            early = make_agent("ismcts:iterations=400", spec, seat, seed)
            chosen = early.act(view, legal)
            stopped += early.last_settled
            assert early.last_iterations <= 400
            with monkeypatch.context() as m:
                m.setattr(ISMCTSAgent, "_settled", staticmethod(lambda *a: False))
                full = make_agent("ismcts:iterations=400", spec, seat, seed)
                assert full.act(view, legal) == chosen
                assert full.last_iterations == 400 and not full.last_settled
    assert stopped >= 1  # the comparison above covered searches that did stop early


def test_a_forced_looking_decision_stops_long_before_the_budget():
    from nemeton.agents.ismcts import Node
    root = Node(None, None, 0)
    for i, visits in enumerate((900, 50, 10)):
        child = Node(root, i, 0)
        child.visits = visits
        root.children[i] = child
    assert ISMCTSAgent._settled(root, 960, 1800, 0.0, None)      # 850 ahead, 840 to go
    assert not ISMCTSAgent._settled(root, 960, 1900, 0.0, None)  # 850 ahead, 940 to go


@pytest.mark.parametrize("rounds", [1, 2])
def test_round_cutoff_evaluates_after_the_given_number_of_rounds(rounds):
    spec, state, seat = _decision_with_choices("amarok", 3)
    agent = make_agent(f"ismcts:iterations=30:cutoff=round:rounds={rounds}:rollout=random", spec, seat, seed=2)
    real = agent.heuristic
    seen = []

    class Recorder:
        def evaluate(self, st):
            seen.append(st.round)
            return real.evaluate(st)

    agent.heuristic = Recorder()
    agent.search(state.view(seat))
    assert seen and set(seen) == {state.round + rounds}
    assert str(agent).endswith(f":rounds={rounds}") == (rounds != 1)


def test_a_time_budget_stops_early_only_with_a_clear_margin_over_the_expected_rest():
    from nemeton.agents.ismcts import Node
    root = Node(None, None, 0)
    for i, visits in enumerate((900, 50)):
        child = Node(root, i, 0)
        child.visits = visits
        root.children[i] = child
    import time
    now = time.perf_counter()
    # 950 iterations in the last second, 0.1 s left: about 95 more expected (x1.5 margin)
    assert ISMCTSAgent._settled(root, 950, None, now - 1.0, now + 0.1)
    # 5 s left: thousands more expected, the lead of 850 is not safe
    assert not ISMCTSAgent._settled(root, 950, None, now - 1.0, now + 5.0)


@pytest.mark.parametrize("text", ["ismcts:seconds=nan", "ismcts:seconds=inf", "ismcts:seconds=1e-300",
                                  "ismcts:iterations=99999999999999999999", "ismcts:iterations=0",
                                  "ismcts:c=nan", "ismcts:c=-1", "ismcts:bias=inf", "ismcts:epsilon=nan",
                                  "ismcts:rounds=0"])
def test_a_spec_that_could_hang_or_crash_a_process_is_refused(text):
    with pytest.raises(AgentSpecError, match="ismcts: "):
        make_agent(text, get_game("alarun"), 0, 1)


# ----- ties at the root, root-parallel search ---------------------------------------------------

def _tied_children(agent, count):
    from nemeton.agents.ismcts import Node
    root = Node(None, None, agent.seat)
    for i in range(count):
        child = root.children[i] = Node(root, i, agent.seat)
        child.visits, child.reward = 5, 2.5
    return list(root.children.values())


def test_equally_visited_root_actions_are_chosen_at_random_not_by_legal_order():
    agent = make_agent("ismcts:iterations=10", get_game("alarun"), 0, seed=4)
    children = _tied_children(agent, 3)
    assert {agent._most_visited(children).action for _ in range(60)} == {0, 1, 2}
    children[2].reward = 2.6  # equal visits: the better total reward wins, without randomness
    assert {agent._most_visited(children).action for _ in range(20)} == {2}
    children[0].visits = 6  # the most visited wins whatever its reward
    assert agent._most_visited(children).action == 0


def test_workers_must_be_between_one_and_the_machines_cores():
    from nemeton.agents.ismcts import MAX_WORKERS
    for bad in ("0", str(MAX_WORKERS + 1), "two"):
        with pytest.raises(AgentSpecError, match="workers"):
            make_agent(f"ismcts:iterations=10:workers={bad}", get_game("alarun"), 0, seed=1)


@pytest.mark.skipif(__import__("os").cpu_count() < 2, reason="needs two cores")
def test_parallel_search_merges_both_processes_and_is_reproducible_for_a_seed():
    spec, state, seat = _decision_with_choices("alarun", 2)
    view, legal = state.view(seat), state.legal_actions(seat)
    first = make_agent("ismcts:iterations=60:workers=2", spec, seat, seed=8)
    again = make_agent("ismcts:iterations=60:workers=2", spec, seat, seed=8)
    try:
        assert str(first) == "ismcts:iterations=60:workers=2"
        moves = [first.act(view, legal) for _ in range(3)]
        assert moves == [again.act(view, legal) for _ in range(3)]
        root = first.search(view)
        assert first.last_iterations == 60 and sum(n.visits for n in root.children.values()) == 60
        helpers = first._helpers
        first.close()
        assert helpers.closed and first._helpers is None
        assert first.act(view, legal) in legal  # a closed agent starts new helpers when asked again
    finally:
        first.close()
        again.close()


@pytest.mark.skipif(__import__("os").cpu_count() < 2, reason="needs two cores")
def test_parallel_search_still_beats_random_in_short_games():
    from nemeton.arena.pairing import head_to_head
    result = head_to_head("alarun", 2, "ismcts:iterations=40:workers=2", "random", 2, seed=3, workers=1)
    assert result.share.mean == 1.0, result.to_json()


def test_amarok_in_teams_of_four_searches_with_heuristic_rollouts_unless_the_spec_says_otherwise():
    spec = get_game("amarok")
    for teams, expected in ((True, "heuristic"), (False, "random")):
        state = spec.make(seed=2, **{**spec.bot_defaults, "players": 4, "teams": teams})
        seat = state.current_player
        agent = make_agent("ismcts:iterations=5", spec, seat, seed=1)
        agent.search(state.view(seat))
        assert agent.rollout == expected
    six = spec.make(seed=2, **{**spec.bot_defaults, "players": 6, "teams": True})
    agent = make_agent("ismcts:iterations=5", spec, six.current_player, seed=1)
    agent.search(six.view(six.current_player))
    assert agent.rollout == "random"  # with 6 players they cost too much (docs/ai.md)
    explicit = make_agent("ismcts:iterations=5:rollout=random", spec, seat, seed=1)
    teams_state = spec.make(seed=2, **{**spec.bot_defaults, "players": 4, "teams": True})
    explicit.search(teams_state.view(teams_state.current_player))
    assert explicit.rollout == "random"
