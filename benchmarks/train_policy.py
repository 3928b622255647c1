"""Train a small policy network on the vector environment and save it as a ``policy:path=FILE`` agent.

PPO-clip (Schulman et al. 2017) in NumPy: one seat (a new random seat every game) against the
kernel's built-in opponents (``--opponents random``, ``heuristic``, or a comma list: the slots
are shared out between them), :class:`~nemeton.interop.vector.NemetonVectorEnv` with B games
stepping in one kernel call (SameStep autoreset: every step is a decision of the learner).

Network: the observation tensor (the game's encoding of the seat's view) through ``--hidden``
tanh layers (default 128,128), then one logit per action id (illegal ones masked out of the
softmax) and a value head on the same trunk. Each iteration plays ``--steps`` steps in every
slot, computes advantages by GAE (gamma 1: the return is the game's result, 1 for a win, a
share for a tie, 0 for a loss; lambda 0.95), and takes ``--epochs`` passes of minibatch Adam
steps on the clipped objective, value loss and an entropy bonus.

Budget: ``--cpu-minutes`` of this process's CPU time (``time.process_time``, across resumes;
at most 60), or ``--iterations`` for an exact stop. Run it with one thread
(``OMP_NUM_THREADS=1 NUMBA_NUM_THREADS=1``). Every ``--checkpoint-every`` iterations it writes
``checkpoint.npz`` (weights, Adam moments, counters) and the policy so far (``policy.npz``) in
``--out``, and appends a line per iteration to ``train_log.jsonl``; run the same command again
to resume. Reproducible: the environments are reset and the sampling stream reseeded from
``(--seed, iteration)`` at every checkpoint boundary, so a resumed run plays the same games and
reaches the same weights as one that never stopped (given the same NumPy build).

    OMP_NUM_THREADS=1 NUMBA_NUM_THREADS=1 nice -n 10 .venv/bin/python benchmarks/train_policy.py \\
        amarok --players 4 --opponents random,heuristic --cpu-minutes 40 --out benchmarks/results/policy

The result plays as ``policy:path=benchmarks/results/policy/policy.npz`` (docs/rl.md, "A learned agent").
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

from nemeton.agents.policy import save_policy
from nemeton.interop.vector import SAME_STEP, NemetonVectorEnv

MAX_CPU_MINUTES = 60.0


# ----- the network -----------------------------------------------------------------------------
def init_params(sizes: list[int], num_actions: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Trunk ``w0, b0, ...`` (orthogonal, gain sqrt 2), policy head ``wp, bp`` (gain 0.01: a
    near-uniform start) and value head ``wv, bv``."""
    def orthogonal(n_in: int, n_out: int, gain: float) -> np.ndarray:
        a = rng.standard_normal((max(n_in, n_out), min(n_in, n_out)))
        q, r = np.linalg.qr(a)
        q *= np.sign(np.diag(r))
        q = q if n_in >= n_out else q.T
        return np.ascontiguousarray(gain * q[:n_in, :n_out], dtype=np.float32)  # C order, as loaded from a checkpoint

    params: dict[str, np.ndarray] = {}
    for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
        params[f"w{i}"] = orthogonal(n_in, n_out, math.sqrt(2))
        params[f"b{i}"] = np.zeros(n_out, np.float32)
    params["wp"] = orthogonal(sizes[-1], num_actions, 0.01)
    params["bp"] = np.zeros(num_actions, np.float32)
    params["wv"] = orthogonal(sizes[-1], 1, 1.0)
    params["bv"] = np.zeros(1, np.float32)
    return params


def trunk_depth(params: dict[str, np.ndarray]) -> int:
    return sum(1 for k in params if k.startswith("w") and k[1:].isdigit())


def forward(params, obs, mask):
    """(hidden activations, log-probabilities (masked), values)."""
    hs = [obs]
    x = obs
    for i in range(trunk_depth(params)):
        x = np.tanh(x @ params[f"w{i}"] + params[f"b{i}"])
        hs.append(x)
    logits = x @ params["wp"] + params["bp"]
    logits = np.where(mask, logits, np.float32(-1e9))
    logits -= logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    value = (x @ params["wv"] + params["bv"])[:, 0]
    return hs, logp, value


def ppo_grads(params, obs, mask, actions, old_logp, advantages, returns, clip, ent_coef, vf_coef):
    """Gradients of the PPO loss (mean over the minibatch) and a few statistics."""
    n = len(actions)
    hs, logp, value = forward(params, obs, mask)
    rows = np.arange(n)
    p = np.exp(logp)
    ratio = np.exp(logp[rows, actions] - old_logp)
    clipped = ((advantages >= 0) & (ratio > 1 + clip)) | ((advantages < 0) & (ratio < 1 - clip))
    dlogp_a = np.where(clipped, 0.0, -ratio * advantages).astype(np.float32) / n  # d loss / d logp(a)
    dlogits = -p * dlogp_a[:, None]
    dlogits[rows, actions] += dlogp_a
    plogp = np.where(mask, p * logp, 0.0)
    entropy = -plogp.sum(axis=1)
    dlogits += (ent_coef / n) * np.where(mask, p * (logp + entropy[:, None]), 0.0)  # - ent_coef * entropy
    dvalue = (vf_coef / n) * (value - returns)
    grads: dict[str, np.ndarray] = {}
    top = hs[-1]
    grads["wp"] = top.T @ dlogits
    grads["bp"] = dlogits.sum(axis=0)
    grads["wv"] = top.T @ dvalue[:, None]
    grads["bv"] = np.array([dvalue.sum()], np.float32)
    dh = dlogits @ params["wp"].T + dvalue[:, None] @ params["wv"].T
    for i in reversed(range(trunk_depth(params))):
        dz = dh * (1 - hs[i + 1] ** 2)
        grads[f"w{i}"] = hs[i].T @ dz
        grads[f"b{i}"] = dz.sum(axis=0)
        if i:
            dh = dz @ params[f"w{i}"].T
    stats = {"entropy": float(entropy.mean()), "clipped": float(clipped.mean()),
             "value_loss": float(((value - returns) ** 2).mean())}
    return grads, stats


class Adam:
    def __init__(self, params, lr: float, max_norm: float = 0.5):
        self.lr, self.max_norm, self.t = lr, max_norm, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params, grads, lr: float) -> None:
        norm = math.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        scale = min(1.0, self.max_norm / (norm + 1e-8))
        self.t += 1
        b1, b2 = 0.9, 0.999
        c1, c2 = 1 - b1 ** self.t, 1 - b2 ** self.t
        for k, g in grads.items():
            g = g * scale
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            params[k] -= (lr * (self.m[k] / c1) / (np.sqrt(self.v[k] / c2) + 1e-8)).astype(np.float32)


# ----- playing ---------------------------------------------------------------------------------
class Envs:
    """The slots shared out between the opponents (one NemetonVectorEnv per opponent)."""

    def __init__(self, game: str, players: int, opponents: list[str], num_envs: int, options: dict):
        share = num_envs // len(opponents)
        if share < 1:
            raise SystemExit(f"--envs {num_envs} is fewer than the {len(opponents)} opponents")
        self.opponents = opponents
        self.envs = [NemetonVectorEnv(game, share, players=players, opponents=o, seat="random",
                                      autoreset_mode=SAME_STEP, copy=False, **options) for o in opponents]
        first = self.envs[0]
        self.options = first.options
        self.num_envs = share * len(opponents)
        self.obs_size = first.single_observation_space.shape[0]
        self.num_actions = int(first.single_action_space.n)
        self.which = np.repeat(np.arange(len(opponents)), share)  # each slot's opponent

    def reset(self, seed: int):
        obs = [e.reset(seed=seed + 7919 * j)[0] for j, e in enumerate(self.envs)]
        return np.concatenate(obs), np.concatenate([e.action_masks() for e in self.envs])

    def step(self, actions):
        outs = [e.step(a) for e, a in zip(self.envs, np.split(actions, len(self.envs)))]
        obs = np.concatenate([o[0] for o in outs])
        rewards = np.concatenate([o[1] for o in outs]).astype(np.float32)
        done = np.concatenate([o[2] for o in outs])
        return obs, np.concatenate([e.action_masks() for e in self.envs]), rewards, done


def sample(logp: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row from the probabilities exp(logp) (masked entries have none)."""
    cumulative = np.cumsum(np.exp(logp.astype(np.float64)), axis=1)
    u = rng.random(len(logp)) * cumulative[:, -1]
    chosen = (cumulative < u[:, None]).sum(axis=1)
    return np.minimum(chosen, logp.shape[1] - 1)


def rollout(params, envs: Envs, obs, mask, steps: int, rng):
    """``steps`` decisions in every slot: the arrays PPO needs, and the games that ended."""
    B = envs.num_envs
    buf = {"obs": np.zeros((steps, B, envs.obs_size), np.float32),
           "mask": np.zeros((steps, B, envs.num_actions), np.bool_),
           "actions": np.zeros((steps, B), np.int64), "logp": np.zeros((steps, B), np.float32),
           "values": np.zeros((steps, B), np.float32), "rewards": np.zeros((steps, B), np.float32),
           "done": np.zeros((steps, B), np.bool_)}
    results = [[] for _ in envs.opponents]
    for t in range(steps):
        _, logp, value = forward(params, obs, mask)
        actions = sample(logp, rng)
        buf["obs"][t], buf["mask"][t], buf["actions"][t] = obs, mask, actions
        buf["logp"][t] = logp[np.arange(B), actions]
        buf["values"][t] = value
        obs, mask, rewards, done = envs.step(actions)
        buf["rewards"][t], buf["done"][t] = rewards, done
        for j in range(len(envs.opponents)):
            ended = done & (envs.which == j)
            results[j] += rewards[ended].tolist()
    _, _, last_value = forward(params, obs, mask)
    return buf, last_value, obs, mask, results


def advantages_of(buf, last_value, lam: float):
    """GAE with gamma 1 (the reward is the game's result, at its end)."""
    steps = len(buf["rewards"])
    adv = np.zeros_like(buf["rewards"])
    running = np.zeros_like(last_value)
    next_value = last_value
    for t in reversed(range(steps)):
        live = 1.0 - buf["done"][t]
        delta = buf["rewards"][t] + live * next_value - buf["values"][t]
        running = delta + lam * live * running
        adv[t] = running
        next_value = buf["values"][t]
    return adv, adv + buf["values"]


# ----- the run ---------------------------------------------------------------------------------
def policy_layers(params):
    depth = trunk_depth(params)
    return [(params[f"w{i}"], params[f"b{i}"]) for i in range(depth)] + [(params["wp"], params["bp"])]


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--players", "-p", type=int, required=True)
    ap.add_argument("--opponents", default="random", help="random, heuristic, or a comma list (slots shared out)")
    ap.add_argument("--option", "-o", action="append", default=[], help="game option name=value (repeatable)")
    ap.add_argument("--out", type=Path, required=True, help="directory: policy.npz, checkpoint.npz, train_log.jsonl")
    ap.add_argument("--cpu-minutes", type=float, default=5.0, help=f"CPU-time budget (at most {MAX_CPU_MINUTES:g})")
    ap.add_argument("--iterations", type=int, default=None, help="stop after this many iterations (exact)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--envs", type=int, default=256, help="slots (games in parallel)")
    ap.add_argument("--steps", type=int, default=32, help="decisions per slot per iteration")
    ap.add_argument("--hidden", default="128,128", help="hidden widths, comma-separated")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--minibatches", type=int, default=4)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--entropy", type=float, default=0.01)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--checkpoint-every", type=int, default=10, help="iterations between checkpoints")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if not 0 < args.cpu_minutes <= MAX_CPU_MINUTES:
        ap.error(f"--cpu-minutes must be above 0 and at most {MAX_CPU_MINUTES:g}")
    return args


def game_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option {pair!r}: write name=value")
        options[key] = value
    return options


def config_of(args) -> dict:
    """What must be equal for a checkpoint to be resumed."""
    return {"game": args.game, "players": args.players, "opponents": args.opponents, "options": args.option,
            "seed": args.seed, "envs": args.envs, "steps": args.steps, "hidden": args.hidden, "lr": args.lr,
            "epochs": args.epochs, "minibatches": args.minibatches, "clip": args.clip,
            "entropy": args.entropy, "lam": args.lam, "checkpoint_every": args.checkpoint_every}


def save_checkpoint(path: Path, params, adam: Adam, state: dict) -> None:
    arrays = {f"p_{k}": v for k, v in params.items()}
    arrays |= {f"m_{k}": v for k, v in adam.m.items()} | {f"v_{k}": v for k, v in adam.v.items()}
    arrays["state"] = np.array(json.dumps({**state, "adam_t": adam.t}))
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
    os.replace(tmp, path)


def load_checkpoint(path: Path, params, adam: Adam) -> dict:
    with np.load(path, allow_pickle=False) as z:
        state = json.loads(str(z["state"]))
        for k in params:
            params[k] = z[f"p_{k}"].copy()
            adam.m[k] = z[f"m_{k}"].copy()
            adam.v[k] = z[f"v_{k}"].copy()
    adam.t = state.pop("adam_t")
    return state


def train(args) -> Path:
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    opponents = [o.strip() for o in args.opponents.split(",")]
    envs = Envs(args.game, args.players, opponents, args.envs, game_options(args.option))
    hidden = [int(h) for h in args.hidden.split(",")]
    params = init_params([envs.obs_size, *hidden], envs.num_actions, np.random.default_rng([args.seed, 1]))
    adam = Adam(params, args.lr)
    config = config_of(args)
    checkpoint, log_path = out / "checkpoint.npz", out / "train_log.jsonl"
    state = {"iteration": 0, "cpu_seconds": 0.0, "decisions": 0, "games": 0, "config": config}
    if checkpoint.exists():
        state = load_checkpoint(checkpoint, params, adam)
        if state["config"] != config:
            raise SystemExit(f"{checkpoint} was made with other settings: {state['config']} "
                             f"(remove it to start again)")
        print(f"resuming at iteration {state['iteration']} ({state['cpu_seconds'] / 60:.1f} CPU minutes used)",
              file=sys.stderr)
        _truncate_log(log_path, state["iteration"])
    budget = args.cpu_minutes * 60.0
    B, T = envs.num_envs, args.steps
    batch = B * T
    mb = batch // args.minibatches
    obs = mask = rng = None
    started = time.process_time() - state["cpu_seconds"]
    while True:
        it = state["iteration"]
        cpu = time.process_time() - started
        if (args.iterations is not None and it >= args.iterations) or (args.iterations is None and cpu >= budget):
            break
        if obs is None or it % args.checkpoint_every == 0:  # a checkpoint boundary: reseed everything
            obs, mask = envs.reset(seed=args.seed * 1_000_003 + it)
            rng = np.random.default_rng([args.seed, it, 2])
        buf, last_value, obs, mask, results = rollout(params, envs, obs, mask, T, rng)
        adv, returns = advantages_of(buf, last_value, args.lam)
        flat = {k: v.reshape(batch, *v.shape[2:]) for k, v in buf.items()}
        adv, returns = adv.reshape(batch), returns.reshape(batch)
        stats = []
        for _ in range(args.epochs):
            order = rng.permutation(batch)
            for start in range(0, batch - mb + 1, mb):
                idx = order[start:start + mb]
                a = adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                grads, s = ppo_grads(params, flat["obs"][idx], flat["mask"][idx], flat["actions"][idx],
                                     flat["logp"][idx], a, returns[idx], args.clip, args.entropy, 0.5)
                adam.step(params, grads, args.lr)
                stats.append(s)
        state["iteration"] = it + 1
        state["decisions"] += batch
        state["games"] += sum(len(r) for r in results)
        state["cpu_seconds"] = time.process_time() - started
        line = {"iteration": it + 1, "cpu_minutes": round(state["cpu_seconds"] / 60, 3),
                "decisions": state["decisions"], "games": state["games"],
                **{f"share_vs_{o}": (round(float(np.mean(r)), 4) if r else None) for o, r in zip(opponents, results)},
                **{f"games_vs_{o}": len(r) for o, r in zip(opponents, results)},
                **{k: round(float(np.mean([s[k] for s in stats])), 4) for k in stats[0]}}
        with open(log_path, "a") as f:
            f.write(json.dumps(line) + "\n")
        if not args.quiet:
            shares = "  ".join(f"vs {o}: {line[f'share_vs_{o}']}" for o in opponents)
            print(f"it {it + 1:4d}  cpu {line['cpu_minutes']:6.2f} min  games {state['games']:8d}  {shares}  "
                  f"entropy {line['entropy']:.3f}", flush=True)
        if state["iteration"] % args.checkpoint_every == 0:  # only at boundaries: a resumed run replays none differently
            save_checkpoint(checkpoint, params, adam, state)
            _save(out, params, state, envs, args, opponents)
    _save(out, params, state, envs, args, opponents)
    return out / "policy.npz"


def _save(out: Path, params, state, envs: Envs, args, opponents) -> None:
    extra = {"algorithm": "PPO-clip", "opponents": opponents, "seat": "random", "iterations": state["iteration"],
             "decisions": state["decisions"], "games": state["games"],
             "cpu_minutes": round(state["cpu_seconds"] / 60, 2), "seed": args.seed,
             "settings": state["config"]}
    save_policy(out / "policy.npz", policy_layers(params), game=args.game, options=envs.options, extra=extra)


def _truncate_log(path: Path, iterations: int) -> None:
    """Keep the log's lines up to the checkpoint (a stopped run logged some it will play again)."""
    if not path.exists():
        return
    lines = [l for l in path.read_text().splitlines() if l.strip()]
    kept = [l for l in lines if json.loads(l)["iteration"] <= iterations]
    path.write_text("".join(l + "\n" for l in kept))


if __name__ == "__main__":
    print(train(parse_args()))
