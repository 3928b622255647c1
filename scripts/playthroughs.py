#!/usr/bin/env python3
"""Regenerate (default) or check (--check) the golden playthroughs in tests/playthroughs/.

A change to a playthrough changes the contract between the engine and its clients (the web
client, the RL encoders): regenerate deliberately, review the diff, and say so in the commit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nemeton.engine.playthrough import golden, playthrough_text

GOLDEN = golden()

HERE = Path(__file__).resolve().parents[1] / "tests" / "playthroughs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    parser.add_argument("names", nargs="*", help=f"which ones (default all): {', '.join(GOLDEN)}")
    args = parser.parse_args()
    unknown = [n for n in args.names if n not in GOLDEN]
    if unknown:
        parser.error(f"unknown playthrough(s) {', '.join(unknown)}; known: {', '.join(GOLDEN)}")
    HERE.mkdir(parents=True, exist_ok=True)
    failed = 0
    for name in args.names or list(GOLDEN):
        text = playthrough_text(*GOLDEN[name])
        path = HERE / f"{name}.txt"
        if args.check:
            same = path.exists() and path.read_text("utf-8") == text
            print(f"{name}: {'same' if same else 'DIFFERENT'}")
            failed += not same
        else:
            path.write_text(text, "utf-8")
            print(f"{name}: {len(text.splitlines())} lines, {len(text) / 1024:.0f} KiB -> {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
