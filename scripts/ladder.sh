#!/usr/bin/env bash
# The rating ladders of docs/strength.md, printed as Markdown: the same seed gives the same
# tables (only the CPU time per decision differs from run to run). Game counts and agents
# were chosen so that the whole run took about ten CPU minutes on the 2-core development
# machine. Pixmit's ladder plays 48 games since its hard agent takes 1,800 simulations:
# about 4 CPU minutes on the compiled build, some 9 on the pure one. Raise --games to
# narrow the intervals. Options after the script's name go to
# every ladder (--jobs 2, --ray auto; they do not change the tables). With LADDER_OUT=DIR
# each game's results and records (JSON, enough to recompute) go to DIR/GAME.json too.
set -euo pipefail
cd "$(dirname "$0")/.."
ladder() {
    "${PYTHON:-.venv/bin/python}" -m spieltisch.cli.main ladder "$@" --markdown \
        ${LADDER_OUT:+--out "$LADDER_OUT/$1.json"}
}
ladder hockey --agents random,heuristic,ismcts:100 --games 60 "$@"; echo
ladder hoax --agents random,heuristic,ismcts:50 --games 12 "$@"; echo
ladder hood_politix --agents random,heuristic,ismcts:50 --games 18 "$@"; echo
ladder pixmit --agents random,heuristic,ismcts:100,hard --games 48 "$@"; echo
ladder president --agents random,heuristic,ismcts:100 --games 30 "$@"
