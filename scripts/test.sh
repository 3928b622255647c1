#!/usr/bin/env bash
# The whole test suite. Sets up .venv with the test extras on first use; extra arguments go
# to pytest (e.g. scripts/test.sh tests/alarun -x).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/_venv.sh" "test,server,rl,arena,ray,web"
cd "$ROOT"
exec "$ROOT/.venv/bin/python" -m pytest "$@"
