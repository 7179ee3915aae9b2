#!/usr/bin/env python3
"""Writes the fuzz targets' seed inputs into corpus/<target>/seed_*.

Run from anywhere: `tests/fuzz/make_seeds.py` (needs python3 and protoc, which
the build installs). Seeds are small valid inputs for libFuzzer to mutate;
crashes and other finds are added to the corpus beside them by hand (see
README.md). Deterministic: rerunning rewrites the same bytes.
"""

import base64
import json
import math
import pathlib
import random
import struct
import subprocess
import zlib

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
    # UVs per corner: a quad and a triangle meeting at a UV seam (vertices 2
    # and 3 have other UVs in each), relative texture indices, a vt with u only.
    write("obj_fuzz", "uv_seam.obj",
          "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\n"
          "vt 0 0\nvt 0.5 0\nvt 0.5 1 0\nvt 0\nvt 0.6 0\nvt 1 1\n"
          "f 1/1 2/2 3/3 4/4\nf 2/-2/1 5/-1/1 3/-3/1\n")
    # Texture coordinates that no face uses: no UVs.
    write("obj_fuzz", "uv_unused.obj",
          "v 0 0 0\nvt 0.25 0.75\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\n")
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


def start_text(nx, ny, rest=True, uvs=False, extra=""):
    lines = ["topology {", "  vertex_count: %d" % (nx * ny)]
    for j in range(ny - 1):
        for i in range(nx - 1):
            v = j * nx + i
            lines.append("  triangles: [%d, %d, %d, %d, %d, %d]" % (
                v, v + 1, v + nx + 1, v, v + nx + 1, v + nx))
            if uvs:  # the grid's own (i, j), per corner of both triangles
                corners = [(i, j), (i + 1, j), (i + 1, j + 1),
                           (i, j), (i + 1, j + 1), (i, j + 1)]
                lines.append("  corner_uvs: [%s]" % ", ".join(
                    "%g, %g" % (a / (nx - 1), b / (ny - 1)) for a, b in corners))
    if rest:
        for j in range(ny):
            for i in range(nx):
                lines.append("  rest_positions: [%g, %g, 0]" % (0.05 * i, 0.05 * j))
    lines.append("}")
    return "\n".join(lines) + "\n" + extra


def tube_text(around, rings, extra=""):
    """A Start of an open cylinder (radius 0.1 around +y), rest positions given."""
    lines = ["topology {", "  vertex_count: %d" % (around * rings)]
    for r in range(rings - 1):
        for k in range(around):
            a, b = r * around + k, r * around + (k + 1) % around
            lines.append("  triangles: [%d, %d, %d, %d, %d, %d]" % (
                a, a + around, b, b, a + around, b + around))
    for r in range(rings):
        for k in range(around):
            t = 2 * math.pi * k / around
            lines.append("  rest_positions: [%g, %g, %g]" % (
                0.1 * math.cos(t), 0.05 * r, -0.1 * math.sin(t)))
    lines.append("}")
    return "\n".join(lines) + "\n" + extra


def start_seeds():
    write("start_fuzz", "grid", encode_start(start_text(5, 4)))
    write("start_fuzz", "grid_no_rest", encode_start(start_text(4, 4, rest=False)))
    write("start_fuzz", "grid_uvs", encode_start(start_text(5, 3, uvs=True)))
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
    write("start_fuzz", "grid_amplitude_maps", encode_start(start_text(
        5, 4, uvs=True, extra="""
parameters { model: WRINKLE_MODEL_AMPLITUDE_MAPS
  amplitude_maps { scale: 0.5 wavelength: 0.125 rest_lengths: AMPLITUDE_REST_LENGTHS_ADAPTIVE_REFERENCES } }
outputs { vertex_amplitudes: true }
""")))
    write("start_fuzz", "tube_buckling", encode_start(tube_text(12, 6, extra="""
parameters { model: WRINKLE_MODEL_BUCKLING
  buckling { calibration_diamonds: 3 elastic_compression: 0.02 twist_gain: 2 } }
outputs { wrinkled_mesh { level: 1 } }
""")))
    write("start_fuzz", "tube_buckling_described", encode_start(tube_text(8, 4, extra="""
parameters { model: WRINKLE_MODEL_BUCKLING
  buckling { tubes { triangles: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
                     axis_origin: [0, 0, 0] axis_direction: [0, 1, 0] }
             lattice_spline: true compression_gain: true no_centre_ridges: true } }
""")))
    pattern = "".join("\\%03o" % b for b in tiny_png(4, 4))
    write("start_fuzz", "grid_amplitude_pattern", encode_start(start_text(
        4, 4, uvs=True, extra="""
parameters { model: WRINKLE_MODEL_AMPLITUDE_MAPS
  amplitude_maps { pattern_png: "%s" pattern_channels: 2 } }
""" % pattern)))


def tiny_png(width, height):
    """An 8-bit RGBA PNG with a gradient, for the pattern seeds."""
    rows = b"".join(
        b"\x00" + b"".join(bytes((60 * x % 256, 40 * y % 256, 200, 255))
                           for x in range(width))
        for y in range(height))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


class Gltf:
    """A tiny glTF 2.0 file: one buffer, a view per accessor."""

    def __init__(self):
        self.bin = b""
        self.views = []
        self.accessors = []

    def view(self, data):
        self.bin += b"\0" * (-len(self.bin) % 4)
        self.views.append({"buffer": 0, "byteOffset": len(self.bin), "byteLength": len(data)})
        self.bin += data
        return len(self.views) - 1

    def floats(self, values, kind):
        view = self.view(struct.pack("<%df" % len(values), *values))
        n = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[kind]
        self.accessors.append({"bufferView": view, "componentType": 5126,
                               "count": len(values) // n, "type": kind})
        return len(self.accessors) - 1

    def shorts(self, values, kind):
        view = self.view(struct.pack("<%dH" % len(values), *values))
        n = 1 if kind == "SCALAR" else 4
        self.accessors.append({"bufferView": view, "componentType": 5123,
                               "count": len(values) // n, "type": kind})
        return len(self.accessors) - 1

    def document(self, rest, embed=True):
        buffer = {"byteLength": len(self.bin)}
        if embed:
            buffer["uri"] = ("data:application/octet-stream;base64," +
                             base64.b64encode(self.bin).decode())
        doc = {"asset": {"version": "2.0"}, "buffers": [buffer],
               "bufferViews": self.views, "accessors": self.accessors}
        doc.update(rest)
        return doc

    def gltf(self, rest):
        return json.dumps(self.document(rest))

    def glb(self, rest):
        text = json.dumps(self.document(rest, embed=False)).encode()
        text += b" " * (-len(text) % 4)
        binary = self.bin + b"\0" * (-len(self.bin) % 4)
        chunks = (struct.pack("<II", len(text), 0x4E4F534A) + text +
                  struct.pack("<II", len(binary), 0x004E4942) + binary)
        return b"glTF" + struct.pack("<II", 2, 12 + len(chunks)) + chunks


def skinned_triangle():
    """One joint turning 90 degrees about z (LINEAR), a second still one, a
    morph target, under a root translated and a matrix node (as Cesium Man's)."""
    g = Gltf()
    pos = g.floats([1, 0, 0, 0, 1, 0, 1, 1, 0], "VEC3")
    joints = g.shorts([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0], "VEC4")
    weights = g.floats([1, 0, 0, 0, 1, 0, 0, 0, 0.5, 0.5, 0, 0], "VEC4")
    bind = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, -2, 1]
    ibm = g.floats(bind + bind, "MAT4")
    times = g.floats([0, 1], "SCALAR")
    h = math.sqrt(0.5)
    rotations = g.floats([0, 0, 0, 1, 0, 0, h, h], "VEC4")
    offsets = g.floats([1, 0, 0, 1, 0, 0, 1, 0, 0], "VEC3")
    return g, {
        "scene": 0, "scenes": [{"nodes": [4]}],
        "meshes": [{"name": "tri", "weights": [0.5], "primitives": [{
            "attributes": {"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights},
            "targets": [{"POSITION": offsets}]}]}],
        "nodes": [{"name": "root", "translation": [0, 0, 2], "children": [1, 3]},
                  {"name": "turning"},
                  {"name": "skinned", "mesh": 0, "skin": 0, "translation": [10, 0, 0]},
                  {"name": "still"},
                  {"name": "z_up", "matrix": [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1],
                   "children": [0, 2]}],
        "skins": [{"joints": [1, 3], "inverseBindMatrices": ibm}],
        "animations": [{"name": "turn", "samplers": [{"input": times, "output": rotations}],
                        "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}]}


def morphed_primitives():
    """Two primitives (one indexed, with UVs), a sparse morph target, weights
    animated by CUBICSPLINE, a STEP translation."""
    g = Gltf()
    a = g.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], "VEC3")
    b = g.floats([0, 0, 1, 1, 0, 1, 0, 1, 1], "VEC3")
    uv = g.floats([0.25, 0.1, 0.5, 0.2, 0.75, 1.0], "VEC2")
    indices = g.shorts([0, 2, 1], "SCALAR")
    lift = g.floats([0, 0, 1, 0, 0, 1, 0, 0, 1], "VEC3")
    moved = g.view(struct.pack("<HH", 2, 0))
    value = g.view(struct.pack("<3f", 0, 0, 1))
    g.accessors.append({"componentType": 5126, "count": 3, "type": "VEC3", "sparse": {
        "count": 1, "indices": {"bufferView": moved, "componentType": 5123},
        "values": {"bufferView": value}}})
    sparse = len(g.accessors) - 1
    times = g.floats([0, 0.5, 1], "SCALAR")
    cubic = g.floats([0, 0, 1, 0, 1, 0, 0, 0.5, 0], "SCALAR")
    steps = g.floats([0, 0, 0, 4, 0, 0, 4, 1, 0], "VEC3")
    return g, {
        "meshes": [{"primitives": [
            {"attributes": {"POSITION": a, "TEXCOORD_0": uv}, "targets": [{"POSITION": lift}]},
            {"attributes": {"POSITION": b, "TEXCOORD_0": uv}, "indices": indices,
             "targets": [{"POSITION": sparse}]}]}],
        "nodes": [{"mesh": 0, "translation": [1, 2, 3]}],
        "animations": [{"samplers": [
            {"input": times, "output": cubic, "interpolation": "CUBICSPLINE"},
            {"input": times, "output": steps, "interpolation": "STEP"}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "weights"}},
                         {"sampler": 1, "target": {"node": 0, "path": "translation"}}]}]}


def gltf_seeds():
    g, rest = skinned_triangle()
    write("gltf_fuzz", "skinned.gltf", g.gltf(rest))
    write("gltf_fuzz", "skinned.glb", g.glb(rest))
    g, rest = morphed_primitives()
    write("gltf_fuzz", "morphed.gltf", g.gltf(rest))
    write("gltf_fuzz", "morphed.glb", g.glb(rest))
    # data/Fox.glb and data/CesiumMan.glb are replayed too (REPLAY in
    # CMakeLists.txt); they are too big to be good seeds for mutation.


if __name__ == "__main__":
    obj_seeds()
    pc2_seeds()
    session_seeds()
    start_seeds()
    gltf_seeds()
