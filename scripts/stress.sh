#!/usr/bin/env bash
# Run a chosen set of tests N times in a row and print every failure: a test that fails now
# and then is a bug (a race to find, not a retry to add).
#
#   bash scripts/stress.sh [-n RUNS] [PYTEST ARGS...]
#
# Without pytest arguments the set is every serial test (servers, browsers, terminals, Ray,
# the cluster: -m serial). Examples:
#   bash scripts/stress.sh -n 20 tests/server/test_cluster.py
#   bash scripts/stress.sh -n 5 -m serial -k "not test_ray"
# Needs the test command's venv (bash scripts/test.sh makes it). Each run's JUnit report is
# kept in build/stress/; the last lines count the runs and name each test that failed, with
# how often, and the first line of its first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=20
if [ "${1:-}" = "-n" ]; then
    runs=${2:-}
    shift $(($# > 1 ? 2 : 1))
fi
if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
    echo "error: -n takes a number of runs (1 or more), not '$runs'" >&2
    exit 2
fi
if [ ! -x .venv/bin/python ]; then
    echo "error: no .venv here: run 'bash scripts/test.sh' once to make it" >&2
    exit 2
fi
[ "$#" -gt 0 ] || set -- -m serial
export SPIELTISCH_REQUIRE_POSTGRES=1
rm -rf build/stress
mkdir -p build/stress
failed_runs=0
for i in $(seq 1 "$runs"); do
    start=$EPOCHREALTIME
    # a run that hangs is a failure too: an hour is far more than any set here needs
    if timeout 3600 .venv/bin/python -m pytest -q -p no:cacheprovider \
            --junitxml="build/stress/run-$i.xml" "$@" > "build/stress/run-$i.log" 2>&1; then
        result=passed
    else
        result=FAILED
        failed_runs=$((failed_runs + 1))
    fi
    seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
    echo "run $i of $runs: $result in $seconds s: $(tail -1 "build/stress/run-$i.log")"
done
.venv/bin/python - "$runs" "$failed_runs" <<'EOF'
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

runs, failed_runs = int(sys.argv[1]), int(sys.argv[2])
# in run order; a run that ended before writing its report (a bad option, a hang) has none
reports = [p for i in range(1, runs + 1) if (p := Path(f"build/stress/run-{i}.xml")).exists()]
failures: Counter[str] = Counter()
first: dict[str, str] = {}
tests: set[str] = set()
for report in reports:
    for case in ET.parse(report).iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        tests.add(name)
        bad = case.find("failure")
        if bad is None:
            bad = case.find("error")
        if bad is not None:
            failures[name] += 1
            first.setdefault(name, (bad.get("message") or "").splitlines()[0][:200]
                             if bad.get("message") else "")
print(f"\n{len(tests)} tests, {runs} runs ({failed_runs} failed, {runs - len(reports)} "
      f"without a report: see build/stress/run-N.log): "
      f"{sum(1 for t in tests if not failures[t])} tests never failed, {len(failures)} did")
for name, count in failures.most_common():
    print(f"  {count} of {runs}  {name}\n           {first[name]}")
EOF
[ "$failed_runs" = 0 ]
