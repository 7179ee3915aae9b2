#!/usr/bin/env python3
"""Writes the fuzz targets' seed inputs into corpus/<target>/seed_*.

Run from anywhere: `tests/fuzz/make_seeds.py` (needs python3 and protoc, which
the build installs). Seeds are small valid inputs for libFuzzer to mutate;
crashes and other finds are added to the corpus beside them by hand (see
README.md). Deterministic: rerunning rewrites the same bytes.
"""

import pathlib
import random
import struct
import subprocess

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus"


def write(target, name, data):
    path = CORPUS / target / ("seed_" + name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def grid_obj(nx, ny, spacing=0.05):
    lines = ["# %dx%d grid" % (nx, ny), "o sheet"]
    for j in range(ny):
        for i in range(nx):
            lines.append("v %g %g 0" % (spacing * i, spacing * j))
            lines.append("vt %g %g" % (i / (nx - 1), j / (ny - 1)))
    lines.append("vn 0 0 1")
    for j in range(ny - 1):
        for i in range(nx - 1):
            v = j * nx + i + 1
            lines.append("f %d/%d/1 %d/%d/1 %d/%d/1 %d/%d/1" % (
                v, v, v + 1, v + 1, v + nx + 1, v + nx + 1, v + nx, v + nx))
    return "\n".join(lines) + "\n"


def obj_seeds():
    write("obj_fuzz", "quad.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n")
    write("obj_fuzz", "negative_indices.obj",
          "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 1 1 0\nf 2//1 4//1 3//1\n")
    write("obj_fuzz", "grid.obj", grid_obj(6, 5))
    # The bundled animations in data/ are seeds too: pass data/ to the fuzzer
    # (the replay test does) rather than copying them here.


def pc2(num_points, samples, start=0.0, rate=1.0):
    header = b"POINTCACHE2\0" + struct.pack("<iiffi", 1, num_points, start, rate, samples)
    rng = random.Random(num_points * 31 + samples)
    floats = [rng.uniform(-1, 1) for _ in range(3 * num_points * samples)]
    return header + struct.pack("<%df" % len(floats), *floats)


def pc2_seeds():
    write("pc2_fuzz", "3x2.pc2", pc2(3, 2))
    write("pc2_fuzz", "1x1.pc2", pc2(1, 1, start=5.0, rate=0.5))
    write("pc2_fuzz", "20x4.pc2", pc2(20, 4))


def session_seeds():
    rng = random.Random(2015)
    for flags in (0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff):
        for length in (16, 300):
            body = bytes(rng.randrange(256) for _ in range(length))
            # render_data_fuzz decodes the same sheets (and cameras after each frame).
            for target in ("session_fuzz", "render_data_fuzz"):
                write(target, "flags%02x_%d" % (flags, length), bytes([flags]) + body)


def encode_start(text):
    return subprocess.run(
        ["protoc", "--encode=crease.v1.Start", "-I", str(ROOT / "proto"),
         str(ROOT / "proto" / "crease" / "v1" / "crease.proto")],
        input=text.encode(), capture_output=True, check=True).stdout


def start_text(nx, ny, rest=True, extra=""):
    lines = ["topology {", "  vertex_count: %d" % (nx * ny)]
    for j in range(ny - 1):
        for i in range(nx - 1):
            v = j * nx + i
            lines.append("  triangles: [%d, %d, %d, %d, %d, %d]" % (
                v, v + 1, v + nx + 1, v, v + nx + 1, v + nx))
    if rest:
        for j in range(ny):
            for i in range(nx):
                lines.append("  rest_positions: [%g, %g, 0]" % (0.05 * i, 0.05 * j))
    lines.append("}")
    return "\n".join(lines) + "\n" + extra


def start_seeds():
    write("start_fuzz", "grid", encode_start(start_text(5, 4)))
    write("start_fuzz", "grid_no_rest", encode_start(start_text(4, 4, rest=False)))
    write("start_fuzz", "grid_params", encode_start(start_text(6, 6, extra="""
parameters { min_width: 0.01 seed_compression: 1.2 max_wrinkles: 5 seed: 7 fade_frames: 0 }
outputs { paths: true labels: true tensors: true
  image { format: IMAGE_FORMAT_PNG width: 64 height: 48 jpeg_quality: 80
          camera { eye { x: 0 y: 0 z: 2 } target { } up { y: 1 } vertical_fov_degrees: 40 } } }
""")))
    write("start_fuzz", "grid_fraction", encode_start(start_text(7, 3, extra="""
parameters { min_width_fraction: 0.02 }
outputs { paths: true image { plain: true } }
""")))
    write("start_fuzz", "grid_mesh_outputs", encode_start(start_text(6, 5, extra="""
outputs { paths: true wrinkled_mesh { level: 3 } vertex_fields: true }
""")))
    write("start_fuzz", "grid_mesh_level_9", encode_start(start_text(3, 3, extra="""
outputs { wrinkled_mesh { level: 9 } }
""")))


if __name__ == "__main__":
    obj_seeds()
    pc2_seeds()
    session_seeds()
    start_seeds()
