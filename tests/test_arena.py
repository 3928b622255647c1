"""Match statistics and seat-rotated pairings."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

import toygame
from nemeton.arena.pairing import head_to_head
from nemeton.arena.stats import mean_interval, wilson


def test_wilson_interval_matches_the_textbook_value():
    est = wilson(80, 100)
    assert est.mean == 0.8
    assert est.low == pytest.approx(0.7112, abs=1e-4) and est.high == pytest.approx(0.8666, abs=1e-4)
    assert wilson(0, 0).n == 0


def test_mean_interval_is_centred_and_shrinks_with_more_games():
    small = mean_interval([1, 0] * 10)
    large = mean_interval([1, 0] * 1000)
    assert small.mean == large.mean == 0.5
    assert (small.high - small.low) > (large.high - large.low) > 0


@pytest.fixture()
def kuhn():
    toygame.install()
    yield
    toygame.uninstall()


def test_head_to_head_rotates_seats_and_is_reproducible(kuhn):
    a = head_to_head("kuhn", 2, "random", "random", 20, seed=4)
    b = head_to_head("kuhn", 2, "random", "random", 20, seed=4)
    assert a.focal_seats == [0, 1] * 10
    assert a.returns == b.returns


def test_ismcts_beats_random_at_kuhn_poker(kuhn):
    res = head_to_head("kuhn", 2, "ismcts:iterations=100", "random", 60, seed=1)
    assert res.share.mean > 0.55


def test_in_team_games_the_focal_agent_plays_every_seat_of_its_team(monkeypatch):
    from nemeton.arena import pairing
    seen = []
    real = pairing.play_job

    def spy(job):
        seen.append(list(job.specs))
        return real(job)

    monkeypatch.setattr(pairing, "play_job", spy)
    res = pairing.head_to_head("amarok", 4, "heuristic", "random", 4, seed=1, options={"teams": True})
    assert seen[0] == ["heuristic", "random", "heuristic", "random"]
    assert seen[1] == ["random", "heuristic", "random", "heuristic"]
    assert res.fair_share == 0.5


def test_share_interval_stays_inside_zero_one_at_the_extremes():
    from nemeton.arena.stats import share_interval
    perfect = share_interval([1.0] * 200)
    assert perfect.mean == 1.0 and perfect.high == 1.0 and 0.98 < perfect.low < 1.0
    split = share_interval([0.5] * 10)
    assert split.low < 0.5 < split.high


def test_a_pairing_played_in_pieces_equals_one_run(kuhn):
    whole = head_to_head("kuhn", 2, "random", "random", 12, seed=9)
    stored = []
    first = head_to_head("kuhn", 2, "random", "random", 12, seed=9, skip=range(5, 12), on_game=stored.append)
    rest = head_to_head("kuhn", 2, "random", "random", 12, seed=9, skip=range(5), on_game=stored.append)
    assert len(first.games) == 5 and len(rest.games) == 7
    untimed = lambda games: [dataclasses.replace(g, focal_seconds=0.0) for g in games]  # noqa: E731  (think time varies)
    assert untimed(sorted(stored, key=lambda g: g.index)) == untimed(whole.games)
    assert [g.index for g in whole.games] == list(range(12))


def test_pairing_games_record_margin_and_focal_thinking_time(kuhn):
    res = head_to_head("kuhn", 2, "ismcts:iterations=20", "random", 6, seed=2)
    for g in res.games:
        assert g.focal_return in (0.0, 1.0)
        assert (g.margin > 0) == (g.focal_return == 1.0)
        assert g.focal_decisions >= 1 and g.focal_seconds > 0
    assert res.to_json()["focal_seconds_per_decision"] > 0


def test_head_to_head_rejects_a_bad_spec_before_playing(kuhn):
    from nemeton.agents.base import AgentSpecError
    with pytest.raises(AgentSpecError):
        head_to_head("kuhn", 2, "ismcts:iteratons=5", "random", 4)


STORED = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "strength.jsonl"


def stored_game(game: str, players: int, focal: str, others: str, index: int) -> dict:
    for line in STORED.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        p = row["pairing"]
        if (p["game"], p["players"], p["options"], p["focal"], p["others"], row["index"]) == (
                game, players, {}, focal, others, index):
            return row
    raise LookupError(f"no stored game {game} {players}p {focal}/{others} #{index}")


@pytest.mark.parametrize("game,players,index", [("amarok", 3, 1), ("alarun", 2, 0)])
def test_stored_pairing_games_replay_identically(game, players, index):
    from nemeton.arena.pairing import pairing_jobs, play_job
    row = stored_game(game, players, "ismcts:iterations=200", "random", index)
    p = row["pairing"]
    # the search's settings as they were stored, spelt out, so a later change of a game's
    # defaults does not change what is replayed (parameters added since: their old behaviour)
    settings = {"evaluation": "heuristic", "widen": 0.0, **p["settings"][0]}
    focal = ":".join([p["focal"]] + [f"{k}={v}" for k, v in settings.items()
                                      if v is not None and k not in ("iterations", "seconds", "workers")])
    job = pairing_jobs(game, players, focal, p["others"], index + 1, p["seed"], p["options"])[index]
    assert job.game_seed == row["game_seed"]  # game i is seeded as it was
    played = play_job(job).to_json()
    for key in ("focal_seat", "focal_return", "margin", "steps", "focal_decisions"):
        assert played[key] == row[key], key


def test_simulate_is_reproducible_by_its_seed_and_game_seeds_do_not_depend_on_the_agents(kuhn):
    from nemeton.arena.match import game_seeds, simulate
    first = simulate("kuhn", 2, 12, seed=5, records=True)
    again = simulate("kuhn", 2, 12, seed=5, records=True)
    assert [r.record.to_json() for r in first.results] == [r.record.to_json() for r in again.results]
    other = simulate("kuhn", 2, 12, seed=6, records=True)
    assert [r.record.seed for r in other.results] != [r.record.seed for r in first.results]
    smart = simulate("kuhn", 2, 12, seed=5, agent_specs=["ismcts:iterations=10"], records=True)
    assert [r.record.seed for r in smart.results] == [r.record.seed for r in first.results] == [
        game_seeds(5, g, 2)[0] for g in range(12)]


def test_agent_seeds_are_drawn_one_way_and_apart_from_the_game_seed():
    import hashlib
    from nemeton.arena.match import game_seeds
    game, agents = game_seeds(5, 0, 3)
    digest = hashlib.shake_256(b"5:0").digest(32)
    assert game == int.from_bytes(digest[:8], "big") >> 33 and 0 <= game < 2**31
    assert agents == [int.from_bytes(digest[i:i + 8], "big") >> 1 for i in (8, 16, 24)]
    assert len(set(agents)) == 3 and game not in agents
    assert game_seeds(5, 0, 2) == (game, agents[:2])  # a seat's seed does not depend on the table size
    assert random.Random(5).randrange(2**31) != game  # not the old Mersenne Twister draws


def test_simulate_keeps_no_records_unless_asked(kuhn):
    from nemeton.arena.match import simulate
    assert all(r.record is None for r in simulate("kuhn", 2, 3, seed=1).results)
