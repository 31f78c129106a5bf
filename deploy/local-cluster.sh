#!/usr/bin/env bash
# Three spieltisch nodes behind nginx on this machine, sharing one PostgreSQL database and
# one Redis (docs/server.md, "Cluster"). PostgreSQL and Redis must be running; nginx comes
# from the distribution (apt-get install nginx). Ctrl-C (or SIGTERM) stops nginx and drains
# the nodes one after the other, as a rolling restart would.
#
#   deploy/local-cluster.sh [DB_URL] [REDIS_URL]
#
# Settings from the environment: PORT (nginx, default 8080), NODE_PORTS (default
# "8001 8002 8003"), SPIELTISCH (the command, default: .venv/bin/spieltisch or spieltisch),
# RUN (where nginx keeps its files, default: a new temporary folder), CLUSTER (the
# cluster's name, its keys' prefix in Redis; default spieltisch).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
db="${1:-postgresql+psycopg://postgres@127.0.0.1:5432/spieltisch}"
redis="${2:-redis://127.0.0.1:6379/0}"
port="${PORT:-8080}"
cluster="${CLUSTER:-spieltisch}"
node_ports="${NODE_PORTS:-8001 8002 8003}"
run="${RUN:-$(mktemp -d -t spieltisch-cluster.XXXXXX)}"
if [ -z "${SPIELTISCH:-}" ]; then
    if [ -x "$here/../.venv/bin/spieltisch" ]; then SPIELTISCH="$here/../.venv/bin/spieltisch"
    else SPIELTISCH=spieltisch; fi
fi
nginx="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$nginx" ] || { echo "error: nginx is missing (apt-get install nginx)" >&2; exit 2; }

pids=()
stop() {
    trap - INT TERM EXIT
    [ -f "$run/nginx.pid" ] && kill -QUIT "$(cat "$run/nginx.pid")" 2>/dev/null || true
    for pid in "${pids[@]}"; do  # one at a time: each hands its tables to those still up
        kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    done
}
trap stop INT TERM EXIT

i=0
upstreams=""
for p in $node_ports; do
    "$SPIELTISCH" serve --host 127.0.0.1 --port "$p" --db "$db" --redis "$redis" \
        --cluster "$cluster" --node "node$i" --forwarded-allow-ips 127.0.0.1 \
        >"$run/node$i.log" 2>&1 &
    pids+=($!)
    upstreams+="        server 127.0.0.1:$p;"$'\n'
    i=$((i + 1))
    [ "$i" = 1 ] && sleep 3  # the first node makes the database's tables
done
sed -e "s|@RUN@|$run|g" -e "s|@LISTEN@|127.0.0.1:$port|g" \
    -e "/@UPSTREAMS@/{r /dev/stdin" -e "d}" "$here/nginx.conf.template" \
    >"$run/nginx.conf" <<<"$upstreams"
echo "spieltisch cluster on http://127.0.0.1:$port/ (nodes on $node_ports; logs in $run)"
"$nginx" -p "$run" -c "$run/nginx.conf" -g "daemon off;" &
wait $!
