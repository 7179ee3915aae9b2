#!/usr/bin/env bash
# The service demo: starts crease-server on a free loopback port, streams a bundled
# animation through crease-client (wrinkle paths + JPEG frames + a plain | wrinkled
# contact sheet), then stops the server with SIGTERM (a graceful shutdown).
# Usage: run-service-demo.sh <crease-server> <crease-client> <obj> <pc2> <out dir> [client flags...]
#   <obj> a .glb or .gltf and <pc2> "-": streams the glTF file (--gltf).
set -euo pipefail
server=$1 client=$2 obj=$3 pc2=$4 out=$5
shift 5
input=(--obj "$obj" --pc2 "$pc2")
if [ "$pc2" = "-" ]; then
  input=(--gltf "$obj")
fi
mkdir -p "$out"
port_file=$(mktemp)
"$server" --address 127.0.0.1:0 --port_file "$port_file" --render_threads 1 &
server_pid=$!
stop_server() {
  if kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid"
    wait "$server_pid" || true
  fi
  rm -f "$port_file"
}
trap stop_server EXIT
for _ in $(seq 300); do
  [ -s "$port_file" ] && break
  kill -0 "$server_pid" 2>/dev/null || { echo "run-service-demo: the server exited" >&2; exit 1; }
  sleep 0.1
done
[ -s "$port_file" ] || { echo "run-service-demo: the server did not start in 30 s" >&2; exit 1; }
port=$(cat "$port_file")
# The same check a container's HEALTHCHECK runs.
"$client" --health --server "127.0.0.1:$port"
"$client" --server "127.0.0.1:$port" "${input[@]}" --out "$out" "$@"
