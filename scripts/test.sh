#!/usr/bin/env bash
# Install everything the test suite needs, then lint and run the whole suite.
# This is the README's second command; CI (.ci/run) runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
# the browser tests (tests/browser) drive Debian's chromium; never let playwright download one
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
.venv/bin/pip install -q -e '.[test]'
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
