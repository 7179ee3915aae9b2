#!/usr/bin/env bash
# The GPU check: on a machine with an NVIDIA GPU and built Crease programs, runs
# the renderer and service tests, render_bench's frame and render-path figures and
# crease-load ramps (paths only, and 640x480 JPEG image sessions), sampling the GPU's
# busy share with nvidia-smi, and prints one compact summary. About 4 minutes.
#
#   bench/gpu-check.sh [BIN_DIR] [OUT_DIR]
#
# BIN_DIR: a build tree (build/release, build/default) or a folder holding the
# programs side by side, as ../shared/tools/pack-for-gpu.sh packs them (default:
# build/release, else build/default). OUT_DIR keeps the raw outputs (default: a
# temporary folder). Where Crease's Debian packages are not installed (a cloud GPU
# machine), pack the programs with their libraries and run the check through the
# pack's runner, which sets LD_LIBRARY_PATH and glvnd's NVIDIA EGL vendor file:
#
#   ../shared/tools/pack-for-gpu.sh build/release /tmp/pack      # here
#   bash /tmp/pack/run-packed.sh bash "$PWD/bench/gpu-check.sh" /tmp/crease-packed/bin
#
# Environment: GPU_CHECK_RENDER_THREADS (GL threads per GPU for the server, default 1),
# GPU_CHECK_STEP_SECONDS (each ramp step, default 4).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-}
if [ -z "$bin" ]; then
  bin="$here/build/release"; [ -x "$bin/server/crease-server" ] || bin="$here/build/default"
fi
out=${2:-$(mktemp -d)}; mkdir -p "$out"
threads=${GPU_CHECK_RENDER_THREADS:-1}; step=${GPU_CHECK_STEP_SECONDS:-4}
find_program() {  # a program in the build tree's folders or side by side
  for d in "" tests bench server client renderer; do
    [ -x "$bin/$d/$1" ] && { echo "$bin/$d/$1"; return 0; }
  done
  echo "gpu-check: $1 not found under $bin" >&2; return 1
}
start=$(date +%s)
gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null ||
      echo "no nvidia-smi")
sample_gpu() {  # GPU busy %, every 250 ms, into $1 until killed
  while :; do
    nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits 2>/dev/null >>"$1" || return
    sleep 0.25
  done
}
busy() {  # median and max of the samples in $1
  python3 - "$1" <<'PY'
import sys
v = sorted(float(x) for x in open(sys.argv[1]) if x.strip())
print(f"median {v[len(v)//2]:.0f} %, max {v[-1]:.0f} %" if v else "not sampled")
PY
}
gtest() {  # runs a test program; prints "passed P, failed F, skipped S" and failures
  local prog; prog=$(find_program "$1") || { echo "missing"; return; }
  shift
  "$prog" --gtest_brief=1 "$@" >"$out/$(basename "$prog").log" 2>&1
  python3 - "$out/$(basename "$prog").log" <<'PY'
import re, sys
t = open(sys.argv[1], errors="replace").read()
n = lambda p: sum(int(m) for m in re.findall(p, t))
failed = re.findall(r"^\[  FAILED  \] (\S+)(?:,| \()", t, re.M)
failed = sorted(set(f for f in failed if "." in f))
passed = n(r"\[  PASSED  \] (\d+) test")
skipped = n(r"\[  SKIPPED \] (\d+) test")
names = " (" + ", ".join(failed) + ")" if failed else ""
print(f"passed {passed}, failed {len(failed)}, skipped {skipped}{names}")
PY
}

echo "== GPU: $gpu"
renderer_tests=$(gtest renderer_test)
service_tests=$(gtest service_test)
echo "renderer_test: $renderer_tests"; echo "service_test: $service_tests"

bench=$(find_program render_bench) && "$bench" --benchmark_min_time=0.3 \
  --benchmark_filter='BM_Render/(fox_walk|cesiumman_walk|cloth_pants_knee)/(640x480|1920x1080)/wrinkled|BM_UvMaps/(cesiumman_walk|fox_walk)/1024/(drawn|drawn_whole)$|BM_FramePrepare|BM_DrawPipeline/fox_walk/(640x480|1920x1080)/(draw|readback/slots:4)/|BM_RenderPool/fox_walk/(640x480|1920x1080)/jpeg/in_flight:(1|64)/gl_threads:1/(plain/)?real_time|BM_FrameTimes/fox_walk/(640x480|1920x1080)/wrinkled(/no_displacement)?/|BM_RenderPattern/Fox.glb/640x480/(bump|bump/two_patterns|displaced)$' \
  --benchmark_format=json >"$out/render_bench.json" 2>"$out/render_bench.log"
frames=$(python3 - "$out/render_bench.json" <<'PY'
import json, sys
try:
    runs = json.load(open(sys.argv[1]))["benchmarks"]
except Exception as e:
    print(f"  render_bench failed: {e}"); sys.exit()
rate = {}
for r in runs:
    name = r["name"].replace("/real_time", "")
    if name.startswith("BM_FrameTimes"):  # the GPU's own time per frame
        print(f"  {name}: GPU {r['gpu_us']:.0f} us a frame, issued in "
              f"{r['issue_us']:.0f} us")
    elif "items_per_second" in r:
        rate[name] = r["items_per_second"]
        print(f"  {name}: {r['items_per_second']:.0f} frames/s")
    else:
        line = f"  {name}: {r['real_time']:.2f} {r['time_unit']}"
        if "read_us" in r:  # UvMapPhaseTimes, us
            line += " (" + ", ".join(
                f"{k[:-3]} {r[k]:.0f}" for k in ("lists_us", "pieces_us",
                                                 "read_us", "refill_us")) + " us)"
        print(line)
# The render path against the GPU's drawing alone (no read-back, no encoding).
for size in ("640x480", "1920x1080"):
    pool = rate.get(f"BM_RenderPool/fox_walk/{size}/jpeg/in_flight:64/gl_threads:1")
    draw = rate.get(f"BM_DrawPipeline/fox_walk/{size}/draw")
    if pool and draw:
        print(f"  {size}: the pool serves {pool / draw:.0%} of the draw-only ceiling")
PY
)
echo "render_bench:"; echo "$frames"

server=$(find_program crease-server); load=$(find_program crease-load)
ramp() {  # name, p99 target, first step, crease-load args...
  local name=$1 target=$2 first=$3; shift 3
  local port_file="$out/port"; rm -f "$port_file"
  "$server" --address 127.0.0.1:0 --port_file "$port_file" --metrics_address 127.0.0.1:0 \
    --render_threads "$threads" --log_sessions=false --max_sessions 1024 --max_sessions_per_peer 1024 \
    --max_pending_streams 1024 --max_pending_per_peer 1024 >"$out/server-$name.log" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do [ -s "$port_file" ] && break; sleep 0.1; done
  local metrics; metrics=$(grep -o 'metrics on port [0-9]*' "$out/server-$name.log" | grep -o '[0-9]*$')
  rm -f "$out/busy-$name"; sample_gpu "$out/busy-$name" & local sampler=$!
  "$load" --quiet --server "127.0.0.1:$(cat "$port_file")" --metrics "127.0.0.1:$metrics" \
    --ramp --p99_ms "$target" --sessions "$first" --max_sessions 1024 --fps 60 \
    --duration "$step" --warmup 1 --report "$out/ramp-$name.json" "$@" 2>"$out/ramp-$name.log"
  kill "$sampler" 2>/dev/null; kill "$pid"; wait "$pid" 2>/dev/null
  python3 - "$out/ramp-$name.json" "$name" "$target" <<'PY'
import json, sys
path, name, target = sys.argv[1:4]
try:
    r = json.load(open(path))
except Exception as e:
    print(f"  {name}: no report ({e})"); sys.exit()
best = r["max_sessions_meeting_target"]
line = f"  {name}: {best} sessions at 60 fps with p99 <= {target} ms"
for s in r["steps"]:
    if s["sessions"] == best:
        p = s["pooled"]; m = s["server_stage_means_ms"]
        line += (f" (p50 {p['latency_ms']['p50']:.1f}, p99 {p['latency_ms']['p99']:.1f} ms; "
                 f"server render {m.get('render', 0):.2f}, queue {m.get('render_queue', 0):.2f}, "
                 f"encode {m.get('encode', 0):.2f} ms)")
print(line)
PY
  echo "    GPU busy: $(busy "$out/busy-$name")"
}
echo "crease-load ramps ($threads GL thread(s) per GPU; $step s a step):"
ramp paths 16 64
ramp jpeg640 50 16 --image jpeg --width 640 --height 480
grep -h "listening\|passed over" "$out"/server-*.log | sort -u | sed 's/^/  /'
echo "== gpu-check: $(( $(date +%s) - start )) s; raw outputs in $out"
