#!/usr/bin/env bash
# Install everything the test suite needs, then lint, type-check and run the whole suite with
# branch coverage of src/spieltisch (the server processes the tests start included) and print
# it; then the rules, conformance and ISMCTS tests again on the compiled build (issue 27).
# The whole suite runs in two parts: the engine tests on every core, then the rest alone.
# This is the README's second command; CI (.ci/run) runs exactly this. Arguments go to
# pytest; the coverage floor (pyproject.toml) and the slow Pixmit check are for the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# every phase's seconds go to build/test-times.tsv, each pytest part's tests to a JUnit
# report; scripts/timings.py prints both at the end
mkdir -p build/test-reports
rm -f build/test-reports/*.xml
times=build/test-times.tsv
: > "$times"
lap_start=$EPOCHREALTIME
lap() {  # lap NAME: the seconds since the last lap, under NAME
    local now=$EPOCHREALTIME
    awk -v a="$lap_start" -v b="$now" -v n="$1" 'BEGIN { printf "%s\t%.1f\n", n, b - a }' \
        >> "$times"
    lap_start=$now
}
report() { echo "--junitxml=build/test-reports/$1.xml"; }
python3 -m venv .venv
# the browser tests (tests/browser) drive Debian's chromium; never let playwright download one
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# the cluster tests (tests/server/test_cluster.py) put Debian's nginx in front of the nodes
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ] && command -v apt-get >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
fi
.venv/bin/pip install -q -e '.[test]'
lap install
.venv/bin/ruff check .
lap lint
# the type check (pyproject.toml [tool.mypy]: strict for the core, the games and the bots)
.venv/bin/mypy
lap types

# The storage tests run on PostgreSQL too (tests/server/test_store.py): here it must be
# there, and a missing database fails the run instead of skipping those tests.
.venv/bin/python - <<'EOF'
import sys

import psycopg

try:
    with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=test",
                         connect_timeout=5):
        pass
except Exception as e:
    sys.exit("error: the tests need PostgreSQL on 127.0.0.1:5432 (user postgres, database "
             f"test), and it is not reachable: {e}")
EOF
export SPIELTISCH_REQUIRE_POSTGRES=1

# The whole suite, unless the arguments name tests (a path, a test id) or pick some (-k, -m,
# --lf); options alone (e.g. -p no:cacheprovider) still run everything.
whole=1
for arg in "$@"; do
    case "$arg" in
        -k | -m | --lf | --last-failed | --sw | --stepwise) whole=0 ;;
        -*) ;;
        *) if [ -e "${arg%%::*}" ]; then whole=0; fi ;;
    esac
done

# The compiled build (issue 27, docs/performance.md): the same source compiled with mypyc
# into build/compiled (C optimisation 0: it builds twice as fast and runs the same code).
if [ "$whole" = 1 ]; then
    rm -rf build/compiled
    SPIELTISCH_COMPILE=1 MYPYC_OPT_LEVEL=0 .venv/bin/pip install -q --no-deps \
        --no-build-isolation --target build/compiled .
    lap "compiled build"
    export SPIELTISCH_REQUIRE_COMPILED=1  # tests/test_compiled.py compares both builds
fi

status=0
rm -f .coverage .coverage.*
if [ "$whole" = 1 ]; then
    # the engine tests on every core; then, alone, those that start servers, browsers,
    # terminals or Ray, some of which measure time (the "serial" mark: tests/conftest.py)
    .venv/bin/python -m coverage run -m pytest -n auto --dist worksteal -m "not serial" \
        "$(report parallel)" "$@" || status=$?
    lap "tests: engine, on every core"
    .venv/bin/python -m coverage run -m pytest -m serial "$(report serial)" "$@" \
        || status=$((status ? status : $?))
    lap "tests: servers, browsers, terminals, Ray"
    # the rules, conformance and ISMCTS tests again, on the compiled build
    SPIELTISCH_EXPECT_COMPILED=1 PYTHONPATH=build/compiled .venv/bin/python -m pytest -q \
        -n auto --dist worksteal -p no:cacheprovider -m "not serial" "$@" tests/test_core.py \
        tests/test_conformance.py tests/test_positions.py tests/test_ismcts.py \
        build/compiled/spieltisch/games/*/tests/test_scenarios.py \
        build/compiled/spieltisch/games/*/tests/test_invariants.py "$(report compiled)" \
        || status=$((status ? status : $?))
    lap "tests: compiled build"
else
    .venv/bin/python -m coverage run -m pytest "$(report part)" "$@" || status=$?
    lap tests
fi
.venv/bin/python -m coverage combine -q
if [ "$whole" = 1 ]; then
    .venv/bin/python -m coverage report || status=$((status ? status : 1))
else  # part of the suite: its total says little, so no floor
    .venv/bin/python -m coverage report --fail-under=0
fi
lap coverage

# The exhaustive check of the Pixmit scorer (all 1.1 million six-card hands, minutes) runs
# whenever the scorer or its reference changed: the stamp holds their hashes as last checked.
stamp=scripts/pixmit-scorer.sha256
scorer=$(sha256sum src/spieltisch/games/pixmit/cards.py src/spieltisch/games/pixmit/tests/reference.py)
if [ "$whole" = 1 ] && [ "$scorer" != "$(cat "$stamp" 2>/dev/null)" ]; then
    echo "the Pixmit scorer changed: checking every six-card hand (-m slow)"
    if .venv/bin/python -m pytest -q -p no:cacheprovider -m slow \
            src/spieltisch/games/pixmit/tests/test_scoring.py::test_every_six_card_hand; then
        echo "$scorer" > "$stamp"
    else
        status=1
    fi
    lap "Pixmit scorer check"
fi
.venv/bin/python scripts/timings.py "$times" build/test-reports/*.xml
exit "$status"
