#!/usr/bin/env python3
"""bench/alternate.py against fake benchmark binaries whose times are known:
the min / median over every repetition of every round, the ratio to the first
build, the aggregates Google Benchmark adds left out, and clear failures."""

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
# half that CPU, plus a mean aggregate that must be ignored.
FAKE = textwrap.dedent("""\
    #!{python}
    import json, os, sys
    counter = {counter!r}
    run = int(open(counter).read()) if os.path.exists(counter) else 0
    open(counter, "w").write(str(run + 1))
    repetitions = int([a for a in sys.argv if a.startswith("--benchmark_repetitions=")][0].split("=")[1])
    assert "--benchmark_format=json" in sys.argv
    if {fail}:
        sys.stderr.write("boom\\n")
        sys.exit(3)
    benchmarks = []
    for k in range(repetitions):
        real = {base} + 10 * run + k
        benchmarks.append(dict(name="BM_A", run_name="BM_A", run_type="iteration",
                               real_time=real, cpu_time=real / 2, time_unit="ms"))
    benchmarks.append(dict(name="BM_A_mean", run_name="BM_A", run_type="aggregate",
                           real_time=1e9, cpu_time=1e9, time_unit="ms"))
    print(json.dumps(dict(context={{}}, benchmarks=benchmarks)))
    """)


class AlternateTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def fake(self, name, base, fail=False):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(FAKE.format(python=sys.executable, base=base, fail=fail,
                                counter=path + ".count"))
        os.chmod(path, 0o755)
        return path

    def run_alternate(self, *args):
        return subprocess.run([sys.executable, ALTERNATE, *args],
                              capture_output=True, text=True)

    def test_min_median_and_ratio_over_every_round(self):
        before = self.fake("before", 100)
        after = self.fake("after", 50)
        result = self.run_alternate("--rounds", "2", "--repetitions", "3",
                                    f"before={before}", f"after={after}")
        self.assertEqual(result.returncode, 0, result.stderr)
        row = [l for l in result.stdout.splitlines() if l.startswith("| BM_A")]
        self.assertEqual(len(row), 1, result.stdout)
        cells = [c.strip() for c in row[0].strip("|").split("|")]
        # before: 100, 101, 102 then 110, 111, 112 -> min 100, median 106;
        # after: 50..52, 60..62 -> min 50, median 56; CPU half of each. One
        # round alone would give medians 101 and 51.
        self.assertEqual(cells[0], "BM_A (ms)")
        self.assertEqual(cells[1], "100 / 106 (53)")
        self.assertEqual(cells[2], "50 / 56 (28)")
        self.assertEqual(cells[3], f"{56 / 106:.3f}")
        self.assertIn("2 rounds of 3 repetitions", result.stdout)
        # Alternated: each binary ran once a round.
        for path in (before, after):
            with open(path + ".count") as f:
                self.assertEqual(f.read(), "2")

    def test_malformed_build_is_refused(self):
        result = self.run_alternate("no-equals-sign")
        self.assertEqual(result.returncode, 2)
        self.assertIn("NAME=BINARY", result.stderr)
        result = self.run_alternate(f"a={os.path.join(self.dir.name, 'missing')}")
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
