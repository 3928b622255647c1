"""Instructions per step (valgrind's callgrind) of fixed work, for comparing two source trees
on a busy machine, where timings swing too much to compare: the count of a program's
instructions is the same whatever else the machine does.

The work: random playouts of fixed seeds (legal actions, a seeded choice, apply; no event
log) of Alarún 3p, Amarok 4p and Edora 2p; and the view and observation tensor of every seat
at every step of a few games. Each is counted once and twice over in one process, and the
difference divided by the steps of one pass, so imports and start-up cancel out.

    python benchmarks/instructions.py [SRC ...]   # each SRC a checkout's src/ (default: this one)

Needs valgrind (Debian: apt-get install valgrind) and the rl extra (NumPy); a few minutes.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

CONFIGS = [("alarun", {"players": 3}), ("amarok", {"players": 4}), ("edora", {"players": 2})]


def work(mode: str, repeat: int) -> int:
    from nemeton.engine import get_game
    total = 0
    for _ in range(repeat):
        for name, options in CONFIGS:
            spec = get_game(name)
            spec.encoding(None)
            for seed in range(6 if mode == "play" else 2):
                state = spec.make(seed=seed, **{**spec.bot_defaults, **options})
                if mode == "play":
                    state.events = None
                rng = random.Random(seed)
                while not state.is_terminal():
                    p = state.current_player
                    if mode == "observe":
                        for s in range(state.options.players):
                            spec.observe(state.view(s))
                    state.apply_unchecked(rng.choice(state.legal_actions(p)), p)
                    total += 1
    return total


def count(src: str, mode: str, repeat: int) -> tuple[int, int]:
    env = {**os.environ, "PYTHONPATH": src}
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          __file__, "--work", mode, str(repeat)], env=env, capture_output=True, text=True, check=True)
    steps = int(re.search(r"^steps (\d+)$", run.stdout, re.M).group(1))
    return steps, int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def main() -> None:
    if sys.argv[1:2] == ["--work"]:
        print("steps", work(sys.argv[2], int(sys.argv[3])))
        return
    sources = sys.argv[1:] or [str(Path(__file__).resolve().parents[1] / "src")]
    print("| source | work | steps | instructions per step |")
    print("| --- | --- | ---: | ---: |")
    for src in sources:
        subprocess.run([sys.executable, __file__, "--work", "play", "1"], env={**os.environ, "PYTHONPATH": src},
                       check=True, capture_output=True)  # compile the .pyc files outside the count
        for mode in ("play", "observe"):
            steps, once = count(src, mode, 1)
            _, twice = count(src, mode, 2)
            print(f"| {src} | {mode} | {steps} | {(twice - once) / steps:,.0f} |", flush=True)


if __name__ == "__main__":
    main()
