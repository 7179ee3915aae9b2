#!/usr/bin/env bash
# The front proxy under a rapid-reset flood, as a test: crease-server on
# loopback behind deploy/front-proxy/nginx.conf, a paths-only Fox session at
# 60 fps through nginx measured alone and then while rapid_reset_probe.py
# floods nginx (reconnecting whenever nginx cuts it off). Fails unless every
# frame is answered both times, the session's p99 during the flood is at most
# 3x its p99 alone (the issue's target; a 2 ms floor, below which a 2-core
# machine's scheduling is all there is), and the server's peak resident memory
# stays under 256 MB. Exit 77 (ctest: skipped) without nginx.
#
#   deploy/front-proxy/check.sh [BUILD_DIR]     (default build/default)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/default}
command -v nginx >/dev/null || { echo "check.sh: nginx is not installed (apt-get install nginx-light): skipped"; exit 77; }
dir=$(mktemp -d); mkdir -p "$dir/body"
cleanup() {
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null
  kill "${server_pid:-}" "${probe_pid:-}" 2>/dev/null
  [ -n "${CHECK_KEEP:-}" ] || rm -rf "$dir"; true
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

"$build/server/crease-server" --address 127.0.0.1:0 --port_file "$dir/port" \
  --log_sessions=false --render_threads 0 --client_address_header x-crease-client \
  2>"$dir/server.log" &
server_pid=$!
for _ in $(seq 100); do [ -s "$dir/port" ] && break; sleep 0.1; done
[ -s "$dir/port" ] || { echo "check.sh: the server did not start"; cat "$dir/server.log"; exit 1; }
listen=$(free_port)
sed -e "s#CREASE_DIR#$dir#g" -e "s#CREASE_UPSTREAM#127.0.0.1:$(cat "$dir/port")#" \
    -e "s#CREASE_LISTEN#127.0.0.1:$listen#" "$root/deploy/front-proxy/nginx.conf" >"$dir/nginx.conf"
nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log"
sleep 0.5

neighbour() {  # one paths-only session through nginx; report in $1
  "$build/client/crease-load" --quiet --server "127.0.0.1:$listen" --sessions 1 \
    --fps 60 --duration 6 --warmup 1 --report "$1"
}
neighbour "$dir/alone.json"
# The attacker's own writing runs at the lowest priority: on a real network it
# uses another machine's CPU, not the one serving (nginx's work is counted).
nice -n 19 python3 "$root/deploy/front-proxy/rapid_reset_probe.py" "127.0.0.1:$listen" \
  --pairs 100000000 --seconds 9 --reconnect >"$dir/probe.log" 2>&1 &
probe_pid=$!
sleep 0.5
neighbour "$dir/flood.json"
wait "$probe_pid" || { echo "check.sh: the probe failed:"; cat "$dir/probe.log"; exit 1; }
probe_pid=
grep -q "^[1-9][0-9]* pairs" "$dir/probe.log" || { echo "check.sh: no flood was sent:"; cat "$dir/probe.log"; exit 1; }
peak_kb=$(awk '/VmHWM/ {print $2}' "/proc/$server_pid/status")

python3 - "$dir/alone.json" "$dir/flood.json" "$peak_kb" "$(cat "$dir/probe.log")" <<'PY'
import json, sys
alone, flood = (json.load(open(p))["result"]["pooled"] for p in sys.argv[1:3])
peak_mb = int(sys.argv[3]) / 1024
p99 = lambda r: r["latency_ms"]["p99"]
print(f"flood: {sys.argv[4]}")
print(f"neighbour alone: {alone['frames_answered']}/{alone['frames_expected']} frames, "
      f"p50 {alone['latency_ms']['p50']:.2f}, p99 {p99(alone):.2f} ms")
print(f"neighbour during the flood: {flood['frames_answered']}/{flood['frames_expected']} "
      f"frames, p50 {flood['latency_ms']['p50']:.2f}, p99 {p99(flood):.2f} ms")
print(f"server peak resident memory: {peak_mb:.0f} MB")
failures = []
for name, r in (("alone", alone), ("during the flood", flood)):
    if r["frames_answered"] < r["frames_expected"] or r["errors"]:
        failures.append(f"frames lost {name}: {r['errors']}")
limit = max(3 * p99(alone), 2.0)
if p99(flood) > limit:
    failures.append(f"p99 during the flood {p99(flood):.2f} ms > {limit:.2f} ms")
if peak_mb > 256:
    failures.append(f"server peak {peak_mb:.0f} MB > 256 MB")
for f in failures:
    print("FAILED:", f)
sys.exit(1 if failures else 0)
PY
