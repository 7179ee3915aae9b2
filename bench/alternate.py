#!/usr/bin/env python3
"""Runs Google Benchmark binaries in turn, round after round, and reports each
benchmark's wall time as min / median over every repetition of every round.

On a shared machine the same binary's times drift by a third within an hour
(docs/benchmarks.md), so two builds are compared by alternating them in one run,
not by running one and then the other. Each NAME=BINARY is a build to compare;
the first is the reference the ratios are taken against.

  bench/alternate.py --filter 'UvMaps/.*/drawn' \\
      before=/tmp/render_bench_before after=build/release/bench/render_bench

--one-core pins each run to CPU 0 with taskset and sets LP_NUM_THREADS=0
(llvmpipe rasterises on the calling thread): the work a frame costs, with the
other core's noise and the threads' hand-offs left out. --env KEY=VALUE sets
more of the environment (LP_NUM_THREADS=2, say). Python 3 standard library
only.
"""

import argparse
import collections
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys

# Seconds per Google Benchmark time unit: builds may report a benchmark in
# different units, so samples are kept in seconds.
SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("builds", nargs="+", metavar="NAME=BINARY",
                        help="a build to compare; the first is the reference")
    parser.add_argument("--filter", default=".",
                        help="--benchmark_filter for every binary")
    parser.add_argument("--rounds", type=int, default=3,
                        help="times each binary runs, in turn (default 3)")
    parser.add_argument("--repetitions", type=int, default=5,
                        help="--benchmark_repetitions per run (default 5)")
    parser.add_argument("--one-core", action="store_true",
                        help="taskset -c 0 and LP_NUM_THREADS=0")
    parser.add_argument("--env", action="append", default=[],
                        metavar="KEY=VALUE", help="set in each run's environment")
    args = parser.parse_args(argv)
    builds = []
    for build in args.builds:
        name, sep, binary = build.partition("=")
        if not sep or not name or not binary:
            parser.error(f"expected NAME=BINARY, got {build!r}")
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            parser.error(f"{binary}: not an executable file")
        builds.append((name, binary))
    if len({name for name, _ in builds}) != len(builds):
        parser.error("two builds share a name")
    if args.rounds < 1 or args.repetitions < 1:
        parser.error("--rounds and --repetitions must be at least 1")
    env = dict(os.environ)
    for pair in args.env:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            parser.error(f"--env expects KEY=VALUE, got {pair!r}")
        env[key] = value
    if args.one_core:
        if any(pair.startswith("LP_NUM_THREADS=") for pair in args.env):
            parser.error("--one-core sets LP_NUM_THREADS=0; drop --env LP_NUM_THREADS")
        if shutil.which("taskset") is None:
            parser.error("--one-core needs taskset (util-linux)")
        env["LP_NUM_THREADS"] = "0"
    return args, builds, env


def run_once(binary, args, env):
    """One run: {benchmark: [(real, cpu), ...]} over its repetitions, in
    seconds, and each benchmark's own time unit."""
    command = [binary, f"--benchmark_filter={args.filter}",
               f"--benchmark_repetitions={args.repetitions}",
               "--benchmark_format=json"]
    if args.one_core:
        command = ["taskset", "-c", "0"] + command
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit(f"{binary} failed ({result.returncode}):\n{result.stderr}")
    try:
        output = json.loads(result.stdout)
    except json.JSONDecodeError as error:
        sys.exit(f"{binary} did not print JSON ({error})")
    times = collections.defaultdict(list)
    units = {}
    for benchmark in output.get("benchmarks", []):
        if benchmark.get("run_type") != "iteration":
            continue  # the aggregates: made here over every round instead
        if benchmark.get("error_occurred"):
            sys.exit(f"{binary}: {benchmark['name']}: "
                     f"{benchmark.get('error_message', 'error')}")
        name = benchmark["run_name"]
        unit = benchmark.get("time_unit", "ns")
        if unit not in SECONDS:
            sys.exit(f"{binary}: {name}: unknown time unit {unit!r}")
        times[name].append((benchmark["real_time"] * SECONDS[unit],
                            benchmark["cpu_time"] * SECONDS[unit]))
        units[name] = unit
    return times, units


def summarise(samples, unit):
    """min and median wall time and median CPU time, in `unit`."""
    scale = 1.0 / SECONDS[unit]
    real = [r * scale for r, _ in samples]
    cpu = [c * scale for _, c in samples]
    return min(real), statistics.median(real), statistics.median(cpu)


def report(builds, times, units, args):
    lines = []
    cpu_model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    cpu_model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    lines.append(f"{os.cpu_count()} CPUs ({cpu_model}); {args.rounds} rounds of "
                 f"{args.repetitions} repetitions, wall min / median "
                 f"(calling thread's CPU, median)"
                 + ("; one core, LP_NUM_THREADS=0" if args.one_core else ""))
    header = ["benchmark"] + [name for name, _ in builds]
    if len(builds) > 1:
        header += [f"{name} / {builds[0][0]}" for name, _ in builds[1:]]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("| --- |" + " ---: |" * (len(header) - 1))
    for benchmark in sorted(times):
        row = [f"{benchmark} ({units[benchmark]})"]
        medians = {}
        for name, _ in builds:
            samples = times[benchmark].get(name)
            if not samples:
                row.append("—")
                continue
            low, median, cpu = summarise(samples, units[benchmark])
            medians[name] = median
            row.append(f"{low:.4g} / {median:.4g} ({cpu:.4g})")
        reference = medians.get(builds[0][0])
        for name, _ in builds[1:]:
            if reference and name in medians:
                row.append(f"{medians[name] / reference:.3f}")
            else:
                row.append("—")
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def main(argv):
    args, builds, env = parse_args(argv)
    times = collections.defaultdict(dict)
    units = {}
    for round_index in range(args.rounds):
        for name, binary in builds:
            print(f"round {round_index + 1}/{args.rounds}: {name}",
                  file=sys.stderr, flush=True)
            run_times, run_units = run_once(binary, args, env)
            for benchmark, samples in run_times.items():
                times[benchmark].setdefault(name, []).extend(samples)
            # Shown in the unit the first build reported it in.
            for benchmark, unit in run_units.items():
                units.setdefault(benchmark, unit)
    if not times:
        sys.exit(f"no benchmark matched --filter {args.filter!r}")
    print(report(builds, times, units, args))


if __name__ == "__main__":
    main(sys.argv[1:])
