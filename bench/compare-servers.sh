#!/usr/bin/env bash
# Compares crease-server builds under the same crease-load runs, alternating
# the builds round after round (these machines are shared and noisy).
#
#   bench/compare-servers.sh ROUNDS LOAD NAME=SERVER [NAME=SERVER ...] -- LOAD_ARGS...
#
# For each round and each server: starts it on a free loopback port (with
# /metrics), runs LOAD (a crease-load binary) with LOAD_ARGS plus --server,
# --metrics and --report, stops the server, and prints one line:
#   NAME round pooled p50 / p99 ms, answered frames per second in all, errors
# The JSON reports stay in $OUT_DIR (default: a temporary folder).
set -euo pipefail
rounds=$1; load=$2; shift 2
servers=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do servers+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
out=${OUT_DIR:-$(mktemp -d)}
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
  for entry in "${servers[@]}"; do
    name=${entry%%=*}; server=${entry#*=}
    port_file=$(mktemp); log="$out/$name-$round.log"
    "$server" --address 127.0.0.1:0 --port_file "$port_file" \
      --metrics_address 127.0.0.1:0 --log_sessions=false >"$log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do [ -s "$port_file" ] && break; sleep 0.1; done
    sleep 0.5
    port=$(cat "$port_file"); rm -f "$port_file"
    metrics=$(grep -o 'metrics on port [0-9]*' "$log" | grep -o '[0-9]*$')
    report="$out/$name-$round.json"
    "$load" --quiet --server "127.0.0.1:$port" --metrics "127.0.0.1:$metrics" \
      --report "$report" "$@" || true
    kill "$pid"; wait "$pid" 2>/dev/null || true
    python3 - "$name" "$round" "$report" <<'PY'
import json, sys
name, rnd, path = sys.argv[1:4]
r = json.load(open(path))
res = r["result"]; p = res["pooled"]
secs = r["duration_s"]
print(f"{name:8s} round {rnd}: p50 {p['latency_ms']['p50']:7.1f} ms  p99 "
      f"{p['latency_ms']['p99']:7.1f} ms  answered {p['frames_answered']/secs:7.1f}/s "
      f"of {p['frames_expected']/secs:6.1f}/s  dropped {p['dropped']}  errors {p['errors']}  "
      f"server render {res['server_stage_means_ms'].get('render', 0):.2f} ms, "
      f"queue {res['server_stage_means_ms'].get('render_queue', 0):.2f} ms, "
      f"encode {res['server_stage_means_ms'].get('encode', 0):.2f} ms")
PY
  done
done
