"""Reading the animations the examples and tests stream: Wavefront OBJ (the
mesh: vertices and triangles, polygons fanned) and PC2 (per-frame vertex
positions, as Crease's C++ reader takes them)."""

import dataclasses
import struct

import numpy as np


@dataclasses.dataclass
class Mesh:
    positions: np.ndarray  # (vertices, 3) float32
    triangles: np.ndarray  # (triangles, 3) uint32


def read_obj(path):
    """The vertices and faces of an OBJ (faces fanned into triangles)."""
    positions, triangles = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for number, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v":
                positions.append([float(x) for x in parts[1:4]])
            elif parts[0] == "f":
                ids = []
                for p in parts[1:]:
                    i = int(p.split("/")[0])
                    ids.append(i - 1 if i > 0 else len(positions) + i)
                if len(ids) < 3:
                    raise ValueError(f"{path}:{number}: a face of {len(ids)} vertices")
                for k in range(1, len(ids) - 1):
                    triangles.append([ids[0], ids[k], ids[k + 1]])
    mesh = Mesh(np.asarray(positions, dtype=np.float32).reshape(-1, 3),
                np.asarray(triangles, dtype=np.uint32).reshape(-1, 3))
    if mesh.triangles.size and mesh.triangles.max() >= len(mesh.positions):
        raise ValueError(f"{path}: a face names a vertex past the {len(mesh.positions)} given")
    return mesh


def read_pc2(path):
    """(frames, vertices, 3) float32 positions of a PC2 point cache."""
    with open(path, "rb") as f:
        header = f.read(32)
        if len(header) != 32 or header[:12] != b"POINTCACHE2\0":
            raise ValueError(f"{path}: not a PC2 file")
        _, vertices, _, _, frames = struct.unpack("<iiffi", header[12:32])
        data = np.fromfile(f, dtype="<f4", count=frames * vertices * 3)
    if vertices < 0 or frames < 0 or data.size != frames * vertices * 3:
        raise ValueError(f"{path}: {frames} frames of {vertices} vertices announced, "
                         f"{data.size // 3} points stored")
    return data.reshape(frames, vertices, 3)
