#!/usr/bin/env bash
# The main job: the web app on http://127.0.0.1:8000 with the embedded SQLite database (in
# $NEMETON_DATA, else ~/.local/share/nemeton). Sets up .venv on first use; extra arguments go
# to `nemeton serve` (e.g. scripts/start.sh --port 8080). Terminal play: .venv/bin/nemeton play.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/_venv.sh" "server"
exec "$ROOT/.venv/bin/nemeton" serve "$@"
