#!/usr/bin/env bash
# Shows deploy/front-proxy/nginx.conf in front of crease-server on loopback:
# starts the server (a free port), nginx in front of it (a free port), streams
# the Fox through nginx with crease-client, then sends the rapid-reset probe
# once straight to the server and once through nginx, printing the server's
# peak resident memory (VmHWM) after each. Needs nginx (apt-get install
# nginx-light) and a built tree.
#
#   deploy/front-proxy/run.sh [BUILD_DIR]     (default build/default)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/default}
command -v nginx >/dev/null || { echo "run.sh: nginx is not installed" >&2; exit 2; }
dir=$(mktemp -d); mkdir -p "$dir/body"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
cleanup() { [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null; kill "${server_pid:-}" 2>/dev/null; true; }
trap cleanup EXIT
start_server() {
  rm -f "$dir/port"
  "$build/server/crease-server" --address 127.0.0.1:0 --port_file "$dir/port" \
    --log_sessions=false --render_threads 0 --client_address_header x-crease-client \
    2>"$dir/server.log" &
  server_pid=$!
  for _ in $(seq 100); do [ -s "$dir/port" ] && break; sleep 0.1; done
}
peak_mb() { awk '/VmHWM/ {printf "%d MB", $2/1024}' "/proc/$server_pid/status"; }
start_server
listen=$(free_port)
sed -e "s#CREASE_DIR#$dir#g" -e "s#CREASE_UPSTREAM#127.0.0.1:$(cat "$dir/port")#" \
    -e "s#CREASE_LISTEN#127.0.0.1:$listen#" "$root/deploy/front-proxy/nginx.conf" >"$dir/nginx.conf"
nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log"
sleep 0.5
echo "== crease-client through nginx (127.0.0.1:$listen -> 127.0.0.1:$(cat "$dir/port"))"
"$build/client/crease-client" --server "127.0.0.1:$listen" --obj "$root/data/fox_walk.obj" \
  --pc2 "$root/data/fox_walk.pc2" --frames 30 --quiet --out "$dir/client"
echo "frames answered: $(wc -l <"$dir/client/wrinkles.jsonl")"
echo "== rapid reset straight to the server"
python3 "$root/deploy/front-proxy/rapid_reset_probe.py" "127.0.0.1:$(cat "$dir/port")" --pairs 40000
sleep 1; echo "server peak memory: $(peak_mb)"
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
kill "$(cat "$dir/nginx.pid")"; sleep 0.5
start_server
sed -i "s#server 127.0.0.1:[0-9]*;#server 127.0.0.1:$(cat "$dir/port");#" "$dir/nginx.conf"
nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log"
sleep 0.5
echo "== rapid reset through nginx"
python3 "$root/deploy/front-proxy/rapid_reset_probe.py" "127.0.0.1:$listen" --pairs 40000
sleep 1; echo "server peak memory: $(peak_mb)"
