#!/usr/bin/env bash
# The whole test suite. Sets up .venv with every extra on first use, and Debian's chromium for
# the browser tests (Playwright drives the system browser: it cannot download its own here);
# extra arguments go to pytest (e.g. scripts/test.sh tests/alarun -x).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/_venv.sh" "test,server,rl,arena,ray,web,fast,parquet"
if [ -z "${NEMETON_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && SUDO="sudo -n"
  if command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests" >&2
    ($SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null) \
      || echo "chromium could not be installed: the browser tests will be skipped" >&2
  fi
fi
cd "$ROOT"
exec "$ROOT/.venv/bin/python" -m pytest "$@"
