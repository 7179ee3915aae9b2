#!/usr/bin/env python3
"""bench/alternate.py against fake benchmark binaries whose times are known:
the builds run in turn, the min / median over every repetition of every round,
the ratio to the first build (units converted), the aggregates Google
Benchmark adds left out, the environment, and clear failures."""

import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

ALTERNATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                         "bench", "alternate.py")

# A fake binary: each run reads how many runs came before it (a counter file)
# and reports repetition k of benchmark BM_A as BASE + 10 * run + k ms real,
# half that CPU, in UNIT, plus a mean aggregate that must be ignored. Every
# run appends "NAME LP_NUM_THREADS" to one log the fakes share.
FAKE = textwrap.dedent("""\
    #!{python}
    import json, os, sys
    counter = {counter!r}
    run = int(open(counter).read()) if os.path.exists(counter) else 0
    open(counter, "w").write(str(run + 1))
    with open({log!r}, "a") as log:
        log.write("{name} " + os.environ.get("LP_NUM_THREADS", "-") + "\\n")
    repetitions = int([a for a in sys.argv if a.startswith("--benchmark_repetitions=")][0].split("=")[1])
    assert "--benchmark_format=json" in sys.argv
    if {fail}:
        sys.stderr.write("boom\\n")
        sys.exit(3)
    scale = dict(ms=1, us=1000)["{unit}"]
    benchmarks = []
    for k in range(repetitions):
        real = ({base} + 10 * run + k) * scale
        benchmarks.append(dict(name="BM_A", run_name="BM_A", run_type="iteration",
                               real_time=real, cpu_time=real / 2, time_unit="{unit}",
                               error_occurred={error},
                               error_message="skipped: no GPU"))
    benchmarks.append(dict(name="BM_A_mean", run_name="BM_A", run_type="aggregate",
                           real_time=1e9, cpu_time=1e9, time_unit="{unit}"))
    print(json.dumps(dict(context={{}}, benchmarks=benchmarks)))
    """)


class AlternateTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def fake(self, name, base, fail=False, unit="ms", error=False):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(FAKE.format(python=sys.executable, base=base, fail=fail,
                                counter=path + ".count", log=self.log(),
                                name=name, unit=unit, error=error))
        os.chmod(path, 0o755)
        return path

    def log(self):
        return os.path.join(self.dir.name, "runs.log")

    def runs(self):
        with open(self.log()) as f:
            return f.read().split("\n")[:-1]

    def cells_of_bm_a(self, result):
        """The cells of BM_A's row in the printed table."""
        rows = [l for l in result.stdout.splitlines() if l.startswith("| BM_A")]
        self.assertEqual(len(rows), 1, result.stdout)
        return [c.strip() for c in rows[0].strip("|").split("|")]

    def run_alternate(self, *args):
        return subprocess.run([sys.executable, ALTERNATE, *args],
                              capture_output=True, text=True)

    def test_min_median_and_ratio_over_every_round(self):
        before = self.fake("before", 100)
        after = self.fake("after", 50)
        result = self.run_alternate("--rounds", "2", "--repetitions", "3",
                                    f"before={before}", f"after={after}")
        self.assertEqual(result.returncode, 0, result.stderr)
        cells = self.cells_of_bm_a(result)
        # before: 100, 101, 102 then 110, 111, 112 -> min 100, median 106;
        # after: 50..52, 60..62 -> min 50, median 56; CPU half of each. One
        # round alone would give medians 101 and 51.
        self.assertEqual(cells[0], "BM_A (ms)")
        self.assertEqual(cells[1], "100 / 106 (53)")
        self.assertEqual(cells[2], "50 / 56 (28)")
        self.assertEqual(cells[3], f"{56 / 106:.3f}")
        self.assertIn("2 rounds of 3 repetitions", result.stdout)
        # Alternated, round after round, in the caller's environment.
        self.assertEqual(self.runs(), ["before -", "after -", "before -", "after -"])

    def test_units_are_converted_before_the_ratio(self):
        before = self.fake("before", 100)
        after = self.fake("after", 50, unit="us")  # 50 000 us and up
        result = self.run_alternate("--rounds", "1", "--repetitions", "3",
                                    f"before={before}", f"after={after}")
        self.assertEqual(result.returncode, 0, result.stderr)
        cells = self.cells_of_bm_a(result)
        self.assertEqual(cells[0], "BM_A (ms)")  # the first build's unit
        self.assertEqual(cells[2], "50 / 51 (25.5)")
        self.assertEqual(cells[3], f"{51 / 101:.3f}")

    def test_environment_and_one_core(self):
        a = self.fake("a", 1)
        result = self.run_alternate("--rounds", "1", "--env", "LP_NUM_THREADS=7",
                                    f"a={a}")
        self.assertEqual(result.returncode, 0, result.stderr)
        result = self.run_alternate("--rounds", "1", "--one-core", f"a={a}")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("one core, LP_NUM_THREADS=0", result.stdout)
        self.assertEqual(self.runs(), ["a 7", "a 0"])
        result = self.run_alternate("--one-core", "--env", "LP_NUM_THREADS=2",
                                    f"a={a}")
        self.assertEqual(result.returncode, 2)
        self.assertIn("--one-core", result.stderr)

    def test_benchmark_error_is_reported(self):
        skipped = self.fake("skipped", 1, error=True)
        result = self.run_alternate("--rounds", "1", f"skipped={skipped}")
        self.assertEqual(result.returncode, 1)
        self.assertIn("BM_A: skipped: no GPU", result.stderr)

    def test_malformed_build_is_refused(self):
        result = self.run_alternate("no-equals-sign")
        self.assertEqual(result.returncode, 2)
        self.assertIn("NAME=BINARY", result.stderr)
        for missing in (os.path.join(self.dir.name, "missing"), self.dir.name):
            result = self.run_alternate(f"a={missing}")
            self.assertEqual(result.returncode, 2)
            self.assertIn("not an executable", result.stderr)

    def test_failing_binary_is_reported(self):
        broken = self.fake("broken", 1, fail=True)
        result = self.run_alternate("--rounds", "1", f"broken={broken}")
        self.assertNotEqual(result.returncode, 0)
        self.assertTrue(re.search(r"failed \(3\).*boom", result.stderr, re.S),
                        result.stderr)


if __name__ == "__main__":
    unittest.main()
