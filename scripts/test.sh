#!/usr/bin/env bash
# Install everything the test suite needs, then lint, type-check and run the whole suite.
# This is the README's second command; CI (.ci/run) runs exactly this. Arguments go to
# pytest: naming tests (a path, -k, -m, --lf) runs just those, on the pure build.
#
# The whole suite, in parts (each part's seconds and the 25 slowest tests print at the end):
#   1. the compiled build (docs/performance.md) made as the docs say, in a fresh virtualenv
#      with build isolation, while mypy checks the types;
#   2. once it is made, one at a time at the normal priority, with coverage (the servers
#      they start included): the serial tests, first those that measure no time but wait
#      (installs, Ray, cluster nodes: mark ``waits``), then the others (servers, browsers,
#      terminals; some measure time);
#   3. beside them, at the lowest priority, on both cores: the heavy tests (many games:
#      tests/conftest.py) without coverage, while the compiled build ends; every other test
#      but the serial and volume ones, with branch coverage; on the compiled build, without
#      coverage, the rules (core, each game's scenarios and invariants) and the volume
#      tests (many or long games: tests/cases.py), which run nowhere else;
#   4. the coverage report, whose floor (pyproject.toml) fails the run.
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
# uv installs the suite's 140 packages in seconds where pip takes two minutes (the compiled
# build below and the README's first command, tests/test_fresh_machine.py, use pip)
.venv/bin/pip install -q 'uv>=0.5'
.venv/bin/uv pip install -q --python .venv/bin/python -e '.[test]'
lap install
.venv/bin/ruff check .
lap lint

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

# The compiled build, exactly as docs/performance.md tells a user (SPIELTISCH_COMPILE=1 pip
# install ., build isolation included) in a fresh virtualenv, at C optimisation 0 (it builds
# twice as fast and runs the same code); build/compiled points at what it installed.
build_compiled() {
    # pip builds in the tree: setuptools' own folders from an earlier build could bring
    # files that are gone from src/ into the wheel
    rm -rf build/compiled build/compiled-venv build/lib.* build/temp.* build/bdist.*
    python3 -m venv build/compiled-venv
    SPIELTISCH_COMPILE=1 MYPYC_OPT_LEVEL=0 build/compiled-venv/bin/pip install -q .
    local said
    said=$(build/compiled-venv/bin/spieltisch --version)
    if [[ "$said" != *", compiled (mypyc)" ]]; then
        echo "error: the compiled install says '$said', not 'compiled (mypyc)'"
        return 1
    fi
    ln -s "$(build/compiled-venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" \
        build/compiled
}
status=0
# the background parts end with the script, however it ends (a failure, Ctrl-C)
background=()
trap 'for job in "${background[@]}"; do kill -- -"$job" 2>/dev/null || true; done' EXIT
set -m  # each background part in a process group of its own, so that the trap ends it all
if [ "$whole" = 1 ]; then
    build_compiled > build/compiled.log 2>&1 &
    compiling=$!
    background+=("$compiling")
fi
# the type check (pyproject.toml [tool.mypy]: strict for the core, the games and the bots),
# beside the compiled build, which is one core's work most of its time
.venv/bin/mypy
lap types

# The storage tests run on PostgreSQL too (tests/server/conftest.py): here it must be
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

# the compiled build's own copy of each game's tests, so that they import it, and the
# OpenSpiel wrapper's chance nodes (a Python subclass of the compiled Shuffler); then the
# volume tests (tests/cases.py), which run nowhere else
compiled_part() {
    local failed=0
    SPIELTISCH_EXPECT_COMPILED=1 PYTHONPATH=build/compiled nice -n 19 .venv/bin/python -m \
        pytest -q -n auto --dist worksteal -p no:cacheprovider -m "not serial" \
        "$(report compiled)" "$@" tests/test_core.py \
        tests/test_openspiel.py::test_chance_nodes_deal_exactly_as_a_stacked_deck \
        build/compiled/spieltisch/games/*/tests/test_scenarios.py \
        build/compiled/spieltisch/games/*/tests/test_invariants.py || failed=1
    SPIELTISCH_EXPECT_COMPILED=1 PYTHONPATH=build/compiled nice -n 19 .venv/bin/python -m \
        pytest -q -n auto --dist worksteal -p no:cacheprovider -m "volume and not serial" \
        "$(report volume)" "$@" tests || failed=1
    return "$failed"
}

# The serial tests, one at a time at the normal priority: first those that measure no time
# but wait (an install, Ray, cluster nodes and their failovers: mark ``waits``), then the
# others (servers, browsers, terminals; some measure time). Everything else runs beside
# them at the lowest priority (nice 19: a serial test's process that wakes up gets its
# core back at once). Each part's seconds go to the times file as it ends, marked as beside
# the rest (scripts/timings.py leaves them out of the total).
serial_lane() {
    local failed=0
    lap_start=$EPOCHREALTIME  # this background shell's own laps
    .venv/bin/python -m coverage run -m pytest -m "serial and waits" "$(report waits)" "$@" \
        || failed=1
    lap "beside: the serial tests that wait"
    .venv/bin/python -m coverage run -m pytest -m "serial and not waits" "$(report serial)" \
        "$@" || failed=1
    lap "beside: the serial servers, browsers, terminals"
    return "$failed"
}

rm -f .coverage .coverage.*
if [ "$whole" = 1 ]; then
    # The heavy tests (many games in the pure build, checking engine code that lighter
    # tests reach too) on every core without coverage, which would make them 2.7 times
    # slower; beside the end of the compiled build, one core's work by then.
    nice -n 19 .venv/bin/python -m pytest -q -n auto --dist worksteal -p no:cacheprovider \
        -m "heavy and not serial and not volume" "$(report heavy)" "$@" \
        > build/heavy-tests.log 2>&1 &
    heavy=$!
    background+=("$heavy")
    if ! wait "$compiling"; then
        cat build/compiled.log
        exit 1
    fi
    lap "compiled build (after the types)"
    export SPIELTISCH_REQUIRE_COMPILED=1  # tests/test_compiled.py compares both builds
    # the serial lane once the build is made (its cluster and Ray tests wait for their
    # nodes: a build on both cores beside them slowed a cluster test's start past its game)
    serial_lane "$@" > build/serial-tests.log 2>&1 &
    lane=$!
    background+=("$lane")
    wait "$heavy" || status=$?
    cat build/heavy-tests.log
    lap "tests: heavy ones, without coverage (beside the compiled build)"
    nice -n 19 .venv/bin/python -m coverage run -m pytest -n auto --dist worksteal \
        -m "not serial and not volume and not heavy" "$(report parallel)" "$@" || status=$?
    lap "tests: engine and more, on every core"
    compiled_part "$@" || status=$?
    lap "tests: compiled part (its rules and the volume tests)"
    wait "$lane" || status=$((status ? status : $?))
    cat build/serial-tests.log
    lap "tests: the serial lane, after the rest"
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
# the figures inform; a report they cannot read changes nothing of the run's verdict
.venv/bin/python scripts/timings.py "$times" build/test-reports/*.xml || true
exit "$status"
