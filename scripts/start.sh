#!/usr/bin/env bash
# The main job: play Alarún in the terminal against AI (extra arguments go to `nemeton play`).
# Sets up .venv on first use.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/_venv.sh" ""
if [ "$#" -eq 0 ]; then
  set -- alarun --players 2 --agents heuristic
fi
exec "$ROOT/.venv/bin/nemeton" play "$@"
