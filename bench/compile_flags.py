#!/usr/bin/env python3
"""Compiles a few of the slowest files one at a time with two sets of
optimisation and debug flags, as a preset's compile_commands.json gives them
otherwise, and prints each time and the ratio of the sums.

  python3 bench/compile_flags.py BUILD_DIR "OLD FLAGS" "NEW FLAGS"
  e.g. python3 bench/compile_flags.py build/asan "-O2 -g" "-O1 -g1"

Only the optimisation (-O*) and debug (-g*) flags are replaced; the object goes
to a temporary file, so the build tree is left as it was.
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

FILES = [
    'wrinkle/sca2015/wrinkle_stats.cc', 'wrinkle/io/gltf_tinygltf.cc',
    'tests/server/service_test.cc', 'tests/wrinkle/field_smoothing_test.cc',
    'server/render_lane.cc', 'wrinkle/wrinkle_maps/amplitude_model.cc',
    'renderer/uv_map_renderer.cc', 'client/cli/crease_client_main.cc',
]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    build, old, new = sys.argv[1:]
    with open(os.path.join(build, 'compile_commands.json')) as f:
        commands = json.load(f)
    sums = {'old': 0.0, 'new': 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        for name in FILES:
            entry = [e for e in commands if e['file'].endswith('/' + name)]
            if not entry:
                sys.exit(f'{name}: not in {build}/compile_commands.json')
            argv = shlex.split(entry[0]['command'])
            argv[argv.index('-o') + 1] = os.path.join(tmp, 'out.o')
            argv = [a for a in argv
                    if not a.startswith('-O') and not a.startswith('-g')]
            for label, flags in (('old', old), ('new', new)):
                begin = time.monotonic()
                subprocess.run(argv[:1] + flags.split() + argv[1:],
                               cwd=entry[0]['directory'], check=True)
                seconds = time.monotonic() - begin
                sums[label] += seconds
                print(f'{name:45s} {label} {flags:10s} {seconds:6.1f} s',
                      flush=True)
    print(f'sum: {old} {sums["old"]:.0f} s, {new} {sums["new"]:.0f} s, '
          f'ratio {sums["new"] / sums["old"]:.2f}')


if __name__ == '__main__':
    main()
