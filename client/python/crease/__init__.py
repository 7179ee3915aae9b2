"""Python client for the Crease wrinkle service (crease.v1 over gRPC).

    import crease
    with crease.Client("127.0.0.1:50051") as client:
        mesh = crease.read_obj("data/cloth_pants_knee.obj")
        frames = crease.read_pc2("data/cloth_pants_knee.pc2")
        with client.session(mesh.triangles, mesh.positions) as session:
            for positions in frames:
                result = session.send(positions)
                for w in crease.wrinkles(result):
                    print(w.id, w.points.shape)

The stubs (crease.v1.crease_pb2, crease_pb2_grpc) are generated at build time
from proto/crease/v1/crease.proto; see client/python/README.md.
"""

from crease.client import (Client, CreaseError, FrameError, Session, UvMaps,
                           Wrinkle, WrinkledMesh, image, labels, tensors, uv_maps,
                           wrinkled_mesh, wrinkles)
from crease.png import decode_png
from crease.meshes import Mesh, read_obj, read_pc2
from crease.v1 import crease_pb2 as pb

__all__ = [
    "Client", "CreaseError", "FrameError", "Mesh", "Session", "UvMaps", "Wrinkle",
    "WrinkledMesh", "decode_png", "image", "labels", "pb", "read_obj", "read_pc2",
    "tensors", "uv_maps", "wrinkled_mesh", "wrinkles"
]
