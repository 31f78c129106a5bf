#!/usr/bin/env bash
# Install everything the test suite needs, then lint and run the whole suite.
# This is the README's second command; CI (.ci/run) runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install -q -e '.[test]'
.venv/bin/ruff check .
.venv/bin/python -m pytest "$@"
