#!/usr/bin/env bash
# crease-server --record_dir, crease-load and crease-replay end to end: a
# --record_dir that is no folder is refused; two recorded sessions replay
# identically on a server in crease-replay's own process (exit 0); a file
# that is no recording exits 2.
#   tests/cli/replay_test.sh SERVER LOAD REPLAY
set -uo pipefail
server=$1 load=$2 replay=$3
dir=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
fail() { echo "replay_test: $*"; exit 1; }

if "$server" --record_dir "$dir/missing" 2>"$dir/refused"; then
  fail "crease-server accepted a --record_dir that does not exist"
fi
grep -q "not a folder" "$dir/refused" || fail "no reason given: $(cat "$dir/refused")"

mkdir "$dir/recordings"
"$server" --address 127.0.0.1:0 --port_file "$dir/port" --render_threads 0 \
  --record_dir "$dir/recordings" 2>"$dir/server.log" &
pid=$!
for _ in $(seq 300); do [ -s "$dir/port" ] && break; sleep 0.1; done
[ -s "$dir/port" ] || fail "the server did not start: $(cat "$dir/server.log")"
"$load" --quiet --server "127.0.0.1:$(cat "$dir/port")" --sessions 2 --fps 60 \
  --duration 1 >/dev/null || fail "crease-load failed"
kill "$pid"; wait "$pid"; pid=  # it writes every queued record before exiting
count=$(ls "$dir"/recordings/*.crec 2>/dev/null | wc -l)
[ "$count" -eq 2 ] || fail "$count recordings, expected 2: $(cat "$dir/server.log")"

"$replay" --quiet "$dir"/recordings/*.crec >"$dir/replayed" 2>&1
rc=$?
[ "$rc" -eq 0 ] || fail "crease-replay exited $rc: $(cat "$dir/replayed")"
[ "$(grep -c ': identical$' "$dir/replayed")" -eq 2 ] ||
  fail "not two identical replays: $(cat "$dir/replayed")"

"$replay" --quiet "$dir/refused" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] || fail "crease-replay exited $rc on a file that is no recording"
echo "replay_test: passed"
