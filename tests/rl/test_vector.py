"""Vector environments on the kernel (nemeton.interop.vector): every slot plays the game the
reference rules play for its seed, in both autoreset modes; the seeds replay; an illegal
action is refused and changes nothing; the Gymnasium vector environment against random (and
heuristic) opponents plays what the Python agents with the same seeds play."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")
gymnasium = pytest.importorskip("gymnasium")

import nemeton.interop.gymnasium  # noqa: E402,F401  registers the environments (vector_entry_point)
from nemeton.agents import make_agent  # noqa: E402
from nemeton.arena.match import game_seeds  # noqa: E402
from nemeton.engine import TERMINAL, get_game  # noqa: E402
from nemeton.engine.kernel import KernelUnsupported  # noqa: E402
from nemeton.interop.vector import NemetonVectorEnv, make, sample_legal  # noqa: E402

GAMES = [("alarun", {"players": 2}), ("amarok", {"players": 4, "teams": True}), ("edora", {"players": 2})]
MODES = ["NextStep", "SameStep"]
CASES = [(g, o, m) for g, o in GAMES for m in MODES]
IDS = [f"{g}-{o['players']}p-{m}" for g, o, m in CASES]
MAX_CALLS = 500


def options_of(game: str, options: dict):
    spec = get_game(game)
    return spec, spec.options(**{**spec.bot_defaults, **options})


class ReferenceSlot:
    """One slot played by the Python rules: game k of slot i is game ``k * B + i`` of the
    seed (its first word the deal's seed, the rest one per seat and one more)."""

    def __init__(self, spec, options, seed: int, slot: int, batch: int):
        self.spec, self.options, self.seed, self.slot, self.batch = spec, options, seed, slot, batch
        self.encoding = spec.encoding(options)
        self.games = 0
        self.ended = False  # NextStep: the game ended and is shown until the next call

    def new_game(self) -> list[int]:
        game_seed, words = game_seeds(self.seed, self.games * self.batch + self.slot, self.options.players + 1)
        self.games += 1
        self.state = self.spec.new_state(self.options, game_seed)
        self.ended = False
        return words

    def expect(self, seat: int):
        """(observation of ``seat``, mask of the seat to act) as the reference encodes them."""
        state = self.state
        legal = [] if state.is_terminal() else state.legal_actions(state.current_player)
        return self.encoding.encode(state.view(seat)), self.encoding.actions.mask(legal)


def assert_row(batch_row, expected_obs, expected_mask, where):
    obs, mask = batch_row
    assert np.array_equal(obs, expected_obs), where
    assert np.array_equal(mask, expected_mask), where


# ----- self-play --------------------------------------------------------------------------------
@pytest.mark.parametrize("game,options,mode", CASES, ids=IDS)
def test_every_slot_plays_the_reference_game_of_its_seed(game, options, mode):
    """Same seeds, same actions: each slot's observations, masks, seats, rewards and ends are
    the reference's, through the end of a game and the deal of the next (the autoreset)."""
    spec, built = options_of(game, options)
    B, seed = 3, 11
    env = make(game, B, seed=seed, autoreset_mode=mode, **options)
    refs = [ReferenceSlot(spec, built, seed, i, B) for i in range(B)]
    for r in refs:
        r.new_game()
    rng = np.random.default_rng(5)
    batch = env.reset()
    finished = np.zeros(B, dtype=np.int64)
    for call in range(MAX_CALLS):
        movers = batch.seat.copy()
        for i, r in enumerate(refs):
            where = (call, i)
            if r.ended:  # NextStep: the ended game is shown, from the seat that made the last move
                assert batch.seat[i] == TERMINAL and batch.terminated[i], where
                assert_row((batch.observation[i], batch.action_mask[i]), *r.expect(r.last_mover), where)
            else:
                assert batch.seat[i] == r.state.current_player, where
                assert_row((batch.observation[i], batch.action_mask[i]), *r.expect(r.state.current_player), where)
        if finished.min() >= 2:
            break
        actions = sample_legal(batch.action_mask, rng)
        batch = env.step(actions)
        for i, r in enumerate(refs):
            where = (call, i)
            if r.ended:  # its action was ignored: a new game
                assert actions[i] == -1
                r.new_game()
                assert not batch.terminated[i] and not batch.reward[i].any(), where
                continue
            r.state.apply(r.encoding.actions.action(int(actions[i])), int(movers[i]))
            r.last_mover = int(movers[i])
            assert batch.terminated[i] == r.state.is_terminal(), where
            if r.state.is_terminal():
                finished[i] += 1
                assert list(batch.reward[i]) == pytest.approx(r.state.returns()), where
                if mode == "SameStep":
                    r.new_game()
                else:
                    r.ended = True
            else:
                assert not batch.reward[i].any(), where
    assert finished.min() >= 2, finished
    assert [r.games for r in refs] == [int(g) for g in env._slots.games]


def test_the_same_seed_plays_the_same_games_and_no_seed_goes_on():
    first, second = (make("amarok", 4, players=3, seed=7) for _ in range(2))
    rng1, rng2 = np.random.default_rng(1), np.random.default_rng(1)
    a, b = first.reset(), second.reset()
    for _ in range(120):
        assert all(np.array_equal(x, y) for x, y in zip(a, b))
        a, b = first.step(sample_legal(a.action_mask, rng1)), second.step(sample_legal(b.action_mask, rng2))
    seeds = first.game_seeds.copy()
    first.reset(seed=7)
    assert list(first.game_seeds) == [game_seeds(7, i, 4)[0] for i in range(4)]
    first.reset()  # no seed: the next games of the same numbering, not the first ones again
    assert not set(first.game_seeds) & {game_seeds(7, i, 4)[0] for i in range(4)}
    assert len(seeds) == 4


@pytest.mark.parametrize("mode", MODES)
def test_an_illegal_action_is_refused_and_changes_nothing(mode):
    env, twin = (make("alarun", 3, players=2, seed=3, autoreset_mode=mode) for _ in range(2))
    batch, twin_batch = env.reset(), twin.reset()
    legal = sample_legal(batch.action_mask, np.random.default_rng(0))
    illegal_id = int(np.flatnonzero(~batch.action_mask[1])[0])
    wrong = [(np.where(np.arange(3) == 1, illegal_id, legal), "slot 1: .* is not legal for seat"),
             (np.where(np.arange(3) == 2, env.num_actions, legal), "slot 2: 6453 is not an action id"),
             (np.where(np.arange(3) == 0, -1, legal), "slot 0: -1 is not an action id"),
             (legal[:2], r"shape \(3,\)"),
             (legal.astype(np.float64), "integer")]
    for actions, message in wrong:
        with pytest.raises(ValueError, match=message):
            env.step(actions)
    after, twin_after = env.step(legal), twin.step(legal)
    assert all(np.array_equal(x, y) for x, y in zip(after, twin_after))


def test_the_returned_arrays_are_read_only_views_unless_copied():
    env = make("amarok", 2, players=3, seed=0)
    batch = env.reset()
    with pytest.raises(ValueError):
        batch.observation[0, 0] = 1.0
    copied = make("amarok", 2, players=3, seed=0, copy=True).reset()
    copied.action_mask[:] = False  # the caller's own copy
    assert np.array_equal(copied.observation, batch.observation)


def test_an_option_the_kernel_lacks_is_refused_by_name():
    from nemeton.games.edora.board import standard_board_text
    board = standard_board_text().replace("start_provisions: 15", "start_provisions: 16")
    with pytest.raises(KernelUnsupported, match="board"):
        make("edora", 2, players=2, board=board)
    with pytest.raises(ValueError, match="autoreset_mode"):
        make("amarok", 2, players=3, autoreset_mode="Disabled")


def test_sample_legal_draws_only_legal_actions_and_each_of_them():
    mask = np.zeros((3, 10), dtype=np.bool_)
    mask[0, [2, 5, 7]] = True
    mask[2, 9] = True
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(200):
        chosen = sample_legal(mask, rng)
        assert chosen[1] == -1 and chosen[2] == 9 and mask[0, chosen[0]]
        seen.add(int(chosen[0]))
    assert seen == {2, 5, 7}


# ----- one seat against built-in opponents (gymnasium.vector.VectorEnv) ---------------------------
class ReferenceLearnerSlot(ReferenceSlot):
    """One slot of the learner's games, its opponents Python agents seeded as the kernel's
    streams are (the agent seed of their seat), acting in the kernel's order (the lowest
    acting seat first) until the learner is to act."""

    def __init__(self, spec, options, seed, slot, batch, seat, opponents):
        super().__init__(spec, options, seed, slot, batch)
        self.seat_choice, self.opponents = seat, opponents

    def new_game(self) -> None:
        n = self.options.players
        while True:
            words = super().new_game()
            self.seat = words[n] % n if self.seat_choice == "random" else self.seat_choice
            others = iter(self.opponents)
            self.agents = {s: make_agent(next(others), self.spec, s, words[s]) for s in range(n) if s != self.seat}
            self.advance()
            if not self.state.is_terminal():  # a game that ends before the learner acts is skipped
                return

    def advance(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player != self.seat:
            s = state.current_player
            state.apply(self.agents[s].act(state.view(s), state.legal_actions(s)), s)


LEARNER_CASES = [("alarun", {"players": 2}, "random", 1, "NextStep"),
                 ("amarok", {"players": 4}, ["heuristic", "random", "heuristic"], "random", "NextStep"),
                 ("amarok", {"players": 3}, "random", "random", "SameStep"),
                 ("edora", {"players": 2}, "random", "random", "SameStep")]


@pytest.mark.parametrize("game,options,opponents,seat,mode", LEARNER_CASES,
                         ids=[f"{c[0]}-{c[1]['players']}p-{c[4]}" for c in LEARNER_CASES])
def test_the_learner_plays_the_games_of_python_agents_with_the_same_seeds(game, options, opponents, seat, mode):
    spec, built = options_of(game, options)
    B, seed = 2, 21
    env = NemetonVectorEnv(game, B, opponents=opponents, seat=seat, seed=seed, autoreset_mode=mode, **options)
    n = built.players
    specs = [opponents] * (n - 1) if isinstance(opponents, str) else opponents
    refs = [ReferenceLearnerSlot(spec, built, seed, i, B, seat, specs) for i in range(B)]
    for r in refs:
        r.new_game()
    obs, infos = env.reset()
    rng = np.random.default_rng(9)
    finished = np.zeros(B, dtype=np.int64)
    for call in range(MAX_CALLS):
        for i, r in enumerate(refs):
            where = (call, i)
            assert infos["seat"][i] == r.seat, where
            expected_obs, expected_mask = r.expect(r.seat)
            assert np.array_equal(obs[i], expected_obs), where
            assert np.array_equal(infos["action_mask"][i].astype(bool), expected_mask), where
        if finished.min() >= 2:
            break
        actions = sample_legal(env.action_masks(), rng)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert not truncated.any()
        for i, r in enumerate(refs):
            where = (call, i)
            if r.ended:
                r.new_game()
                assert not terminated[i] and rewards[i] == 0.0, where
                continue
            r.state.apply(r.encoding.actions.action(int(actions[i])), r.seat)
            r.advance()
            assert terminated[i] == r.state.is_terminal(), where
            if r.state.is_terminal():
                finished[i] += 1
                assert rewards[i] == pytest.approx(r.state.returns()[r.seat]), where
                if mode == "SameStep":
                    assert infos["_final_obs"][i], where
                    assert np.array_equal(infos["final_obs"][i], r.expect(r.seat)[0]), where
                    r.new_game()
                else:
                    r.ended = True
            else:
                assert rewards[i] == 0.0, where
    assert finished.min() >= 2, finished


def test_make_vec_builds_it_from_the_vector_entry_point():
    envs = gymnasium.make_vec("nemeton/Alarun-v0", num_envs=4, vectorization_mode="vector_entry_point", players=2,
                              opponents="heuristic", seed=0)
    assert isinstance(envs, NemetonVectorEnv)
    assert envs.metadata["autoreset_mode"] is gymnasium.vector.AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=1)
    assert envs.observation_space.contains(obs)
    assert infos["action_mask"].shape == (4, 6453) and infos["action_mask"].dtype == np.int8
    same = NemetonVectorEnv("alarun", 4, players=2, opponents="heuristic")
    assert np.array_equal(same.reset(seed=1)[0], obs)
    actions = sample_legal(envs.action_masks(), np.random.default_rng(0))
    assert envs.action_space.contains(actions)
    step = envs.step(actions)
    assert step[0].dtype == np.float32 and step[1].dtype == np.float64 and step[2].dtype == np.bool_


def test_gymnasiums_episode_statistics_wrapper_counts_the_games():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics
    env = RecordEpisodeStatistics(NemetonVectorEnv("amarok", 3, players=3, seed=4))
    obs, infos = env.reset(seed=4)
    rng = np.random.default_rng(0)
    total, returns = 0, []
    for _ in range(300):
        obs, rewards, terminated, truncated, infos = env.step(sample_legal(infos["action_mask"].view(bool), rng))
        total += int(terminated.sum())
        returns += list(rewards[terminated])
        if "episode" in infos:
            assert list(infos["episode"]["r"][infos["_episode"]]) == pytest.approx(list(rewards[terminated]))
    assert total > 5 and all(0.0 <= r <= 1.0 for r in returns) and 1.0 in returns


def test_the_learner_env_refuses_an_illegal_action_without_change_and_agents_the_kernel_lacks():
    env, twin = (NemetonVectorEnv("edora", 2, players=2, seed=2) for _ in range(2))
    env.reset(), twin.reset()
    legal = sample_legal(env.action_masks(), np.random.default_rng(0))
    with pytest.raises(ValueError, match="slot 0"):
        env.step(np.where(np.arange(2) == 0, int(np.flatnonzero(~env.action_masks()[0])[0]), legal))
    assert all(np.array_equal(x, y) for x, y in zip(env.step(legal)[:4], twin.step(legal)[:4]))
    with pytest.raises(KernelUnsupported, match="vectorization_mode='sync'"):
        NemetonVectorEnv("amarok", 2, players=3, opponents="ismcts:iterations=10")
    with pytest.raises(ValueError, match="seat"):
        NemetonVectorEnv("amarok", 2, players=3, seat=3)


def test_gymnasium_style_checks_reset_seeds_replay_and_returned_arrays_are_not_reused():
    """Gymnasium's checker takes no vector environment; its seed and data-reuse checks, here."""
    from gymnasium.utils.env_checker import data_equivalence
    env = NemetonVectorEnv("amarok", 4, players=4, seat="random", opponents="heuristic")
    first = env.reset(seed=123)
    kept = [np.copy(first[0]), {k: np.copy(v) for k, v in first[1].items()}]
    actions = sample_legal(env.action_masks(), np.random.default_rng(0))
    stepped = env.step(actions)
    assert data_equivalence(list(first), kept, exact=True)  # the next step wrote into none of them
    assert data_equivalence(env.reset(seed=123), first, exact=True)
    assert data_equivalence(env.step(actions), stepped, exact=True)
    other = env.reset(seed=124)
    assert not np.array_equal(other[0], first[0])
