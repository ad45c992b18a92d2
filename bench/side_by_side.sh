#!/usr/bin/env bash
# Issue 13's load run: the boardgame.io anchor's workload ("hidden-hand") with N tables against 2 spieltafel
# server processes + 1 worker on PostgreSQL + Redis, then the boardgame.io anchor (../shared/anchors/bgio, `npm ci`
# there first) on the same workload with N matches, in the same run. Each side: a warm-up of 20 games first.
#   [ACCOUNT_GROUPS=50] [DRIVER=node|python] bash bench/side_by_side.sh [N=1000] [first port=18220]
# DRIVER=node (the default) drives our servers with bench/node/server_load.js, a Node process measuring as the
# anchor's own load.js does (`npm ci` in bench/node is done here when needed); DRIVER=python with
# bench/server_load.py.
# Our tables are played by ACCOUNT_GROUPS groups of 3 accounts in turn (boardgame.io's seats each have their own
# credentials and nothing is rated; with one group, 1,000 games of the same 3 players end within a second and
# their rating updates wait for each other: docs/performance.md).
# Needs PostgreSQL (database scale_load, created fresh here) and Redis on 127.0.0.1 (db 2, prefix scale-load).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000}; PORT=${2:-18220}; ACCOUNT_GROUPS=${ACCOUNT_GROUPS:-50}; DRIVER=${DRIVER:-node}
PY=.venv/bin/python; BGIO=${BGIO:-../../shared/anchors/bgio}
[ "$DRIVER" = node ] && [ ! -d bench/node/node_modules ] && (cd bench/node && npm ci --silent)
[ -d "$BGIO" ] || BGIO=/work/shared/anchors/bgio
psql -h 127.0.0.1 -U postgres -qc 'DROP DATABASE IF EXISTS scale_load WITH (FORCE)' -c 'CREATE DATABASE scale_load'
redis-cli -n 2 --scan --pattern 'scale-load*' | xargs -r redis-cli -n 2 del > /dev/null
export SPIELTAFEL_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/scale_load
export SPIELTAFEL_REDIS_URL=redis://127.0.0.1:6379/2 SPIELTAFEL_REDIS_PREFIX=scale-load SPIELTAFEL_SECRET_KEY=load
export SPIELTAFEL_RATE_LIMITS='{"moves": "10000000/minute", "tables": "1000000/minute", "accounts": "1000/minute"}'
LOGS=$(mktemp -d); PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null || true' EXIT
$PY bench/hidden_hand.py serve --port "$PORT" --bot-workers 0 --data "$LOGS" > "$LOGS/a.log" 2>&1 & PIDS+=($!)
sleep 3  # the first migrates the new database alone
$PY bench/hidden_hand.py serve --port $((PORT + 1)) --bot-workers 0 --data "$LOGS" > "$LOGS/b.log" 2>&1 & PIDS+=($!)
$PY bench/hidden_hand.py worker --bot-workers 1 --data "$LOGS" > "$LOGS/w.log" 2>&1 & PIDS+=($!)
for log in a b w; do until grep -q "Spieltafel" "$LOGS/$log.log"; do sleep 0.5; done; done
URLS="http://127.0.0.1:$PORT,http://127.0.0.1:$((PORT + 1))"
$PY bench/server_load.py --url "$URLS" --workload hidden-hand --tables 20 --seconds 60 > /dev/null   # warm-up
echo "== spieltafel: 2 servers + 1 worker, PostgreSQL + Redis, $N tables, $DRIVER driver"
if [ "$DRIVER" = node ]; then   # the servers' and the worker's CPU per move: --pids
    NODE_ENV=production node bench/node/server_load.js --url "$URLS" --tables "$N" --groups "$ACCOUNT_GROUPS" \
        --play-limit 120 --pids "$(IFS=,; echo "${PIDS[*]}")" --out "$LOGS/spieltafel-$N.json" > /dev/null || true
    node -e 'const r=require(process.argv[1]); console.log(JSON.stringify({moves_per_s: r.moves_per_s,
        latency_ms: r.latency_ms, last_move_latency_ms: r.last_move_latency_ms, play_cpu: r.phases.play,
        total_errors: r.total_errors, error_samples: r.error_samples}, null, 1))' "$LOGS/spieltafel-$N.json"
else
    $PY bench/server_load.py --url "$URLS" --workload hidden-hand --tables "$N" --groups "$ACCOUNT_GROUPS" --seconds 120 \
        --json --pids "$(IFS=,; echo "${PIDS[*]}")"
fi
# The ratings of a finished game are made after its last move's commit (TableService.finish): how long after
# the driver's end until none is due, and how many rating changes there are (3 per game, warm-up included).
SQL="psql -h 127.0.0.1 -U postgres -d scale_load -tAc"; ENDED=$(date +%s%N)
until [ "$($SQL 'SELECT count(*) FROM game_tables WHERE rating_due')" = 0 ] || [ $(($(date +%s%N) - ENDED)) -gt 60000000000 ]
do sleep 0.1; done
WAITED=$((($(date +%s%N) - ENDED) / 100000000))   # tenths of a second, wall clock
echo "ratings: none due $((WAITED / 10)).$((WAITED % 10)) s after the driver ended; games over: $($SQL \
    "SELECT count(*) FROM game_tables WHERE status = 'over'"), rating changes: $($SQL 'SELECT count(*) FROM rating_changes')"
kill "${PIDS[@]}"; wait "${PIDS[@]}" 2>/dev/null || true; PIDS=()
echo "== boardgame.io 0.50.2 (one Node process, in memory), $N matches"
(cd "$BGIO" && NODE_ENV=production node server.js --port $((PORT + 2)) > "$LOGS/bgio.log" 2>&1 &)
until grep -q READY "$LOGS/bgio.log"; do sleep 0.5; done
BPID=$(grep -o 'pid=[0-9]*' "$LOGS/bgio.log" | head -1 | cut -d= -f2); PIDS+=("$BPID")  # the server's own pid
(cd "$BGIO" && NODE_ENV=production node load.js --matches 20 --port $((PORT + 2)) > /dev/null || true)   # warm-up
(cd "$BGIO" && NODE_ENV=production node load.js --matches "$N" --port $((PORT + 2)) --server-pid "$BPID" \
    --play-limit 120 --out "$LOGS/bgio-$N.json" > /dev/null || true)
node -e 'const r=require(process.argv[1]); console.log(JSON.stringify({moves_per_s: r.moves_per_s,
    move_latency_ms: r.move_latency_ms, play_cpu: r.phases.play, total_errors: r.total_errors}, null, 1))' "$LOGS/bgio-$N.json"
echo "logs and the bgio JSON: $LOGS"
