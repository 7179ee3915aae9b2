"""Client and Session: the crease.v1 service from Python (docs/protocol.md)."""

import dataclasses
import queue

import grpc
import numpy as np

from crease.v1 import crease_pb2 as pb
from crease.v1 import crease_pb2_grpc as pb_grpc


class CreaseError(Exception):
    """A call or stream that ended with a gRPC status other than OK."""

    def __init__(self, code, details):
        super().__init__(f"{code.name}: {details}")
        self.code = code  # grpc.StatusCode
        self.details = details

    @classmethod
    def from_rpc(cls, error):
        return cls(error.code(), error.details())


class FrameError(Exception):
    """One frame the server refused (FrameResult.error); the session goes on."""

    def __init__(self, result):
        error = result.error
        super().__init__(f"frame {result.index}: {error.message}")
        self.index = result.index
        self.code = error.code  # a google.rpc code number
        self.message = error.message


_END = object()  # closes the request stream


class Session:
    """One animated mesh: a Start, then frames, each answered in order.

    Use as a context manager, or call close(). send() answers one frame at a
    time; stream() keeps up to `window` frames in flight.
    """

    def __init__(self, stub, start, metadata, timeout):
        self._requests = queue.Queue()
        self._next_index = 0
        self._closed = False
        self._requests.put(pb.SessionRequest(start=start))
        self._responses = stub.Session(self._request_iterator(), metadata=metadata,
                                       timeout=timeout)
        first = self._receive()
        if first is None or not first.HasField("started"):
            raise CreaseError(grpc.StatusCode.INTERNAL,
                              "the server answered the Start with no Started")
        self.started = first.started  # crease.v1.Started

    def _request_iterator(self):
        while True:
            item = self._requests.get()
            if item is _END:
                return
            yield item

    def _receive(self):
        try:
            return next(self._responses)
        except StopIteration:
            return None
        except grpc.RpcError as error:
            self._closed = True
            raise CreaseError.from_rpc(error) from None

    def _frame(self, positions, camera):
        positions = np.ascontiguousarray(positions, dtype=np.float32).reshape(-1)
        frame = pb.Frame(index=self._next_index)
        frame.positions.extend(positions.tolist())
        if camera is not None:
            frame.camera.CopyFrom(camera)
        self._next_index += 1
        return pb.SessionRequest(frame=frame)

    def _result(self):
        response = self._receive()
        if response is None:
            raise CreaseError(grpc.StatusCode.UNAVAILABLE,
                              "the stream ended before the frame was answered")
        result = response.frame_result
        if result.HasField("error"):
            raise FrameError(result)
        return result

    def send(self, positions, camera=None):
        """Sends one frame's positions ((vertices, 3) or flat xyz) and returns
        its crease.v1.FrameResult; FrameError if the server refused it."""
        if self._closed:
            raise CreaseError(grpc.StatusCode.FAILED_PRECONDITION, "the session is closed")
        self._requests.put(self._frame(positions, camera))
        return self._result()

    def stream(self, frames, window=4):
        """Yields the FrameResult of each of `frames` in order, with up to
        `window` frames sent ahead of their answers."""
        pending = 0
        for positions in frames:
            self._requests.put(self._frame(positions, None))
            pending += 1
            if pending >= max(1, window):
                pending -= 1
                yield self._result()
        while pending > 0:
            pending -= 1
            yield self._result()

    def close(self):
        """Half-closes the stream and waits for its status (CreaseError if not
        OK)."""
        if self._closed:
            return
        self._closed = True
        self._requests.put(_END)
        try:
            for _ in self._responses:
                pass
        except grpc.RpcError as error:
            raise CreaseError.from_rpc(error) from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if exc[0] is None:
            self.close()
        else:
            self._requests.put(_END)
            self._responses.cancel()
        return False


class Client:
    """A channel to a Crease server. `token`: a bearer token (--tokens_file);
    `root_certificates`: PEM bytes to trust for TLS (None: plaintext)."""

    def __init__(self, address, token=None, root_certificates=None, timeout=None):
        if root_certificates is not None:
            credentials = grpc.ssl_channel_credentials(root_certificates)
            self._channel = grpc.secure_channel(address, credentials)
        else:
            self._channel = grpc.insecure_channel(address)
        self._stub = pb_grpc.CreaseStub(self._channel)
        self._metadata = [("authorization", f"Bearer {token}")] if token else []
        self._timeout = timeout

    def server_info(self, timeout=10.0):
        """crease.v1.ServerInfo: version, renderer, limits, image formats."""
        try:
            return self._stub.GetServerInfo(pb.GetServerInfoRequest(),
                                            metadata=self._metadata, timeout=timeout)
        except grpc.RpcError as error:
            raise CreaseError.from_rpc(error) from None

    def health(self, service="", timeout=10.0):
        """The grpc.health.v1 status name, e.g. "SERVING"."""
        from crease_health import health_pb2, health_pb2_grpc  # generated beside crease
        stub = health_pb2_grpc.HealthStub(self._channel)
        try:
            reply = stub.Check(health_pb2.HealthCheckRequest(service=service),
                               metadata=self._metadata, timeout=timeout)
        except grpc.RpcError as error:
            raise CreaseError.from_rpc(error) from None
        return health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)

    def session(self, triangles, rest_positions=None, parameters=None, outputs=None,
                corner_uvs=None, vertex_count=None):
        """Opens a session on a mesh: `triangles` (triangles, 3) vertex ids;
        `rest_positions` (vertices, 3), used to weld coincident vertices and to
        count them; `parameters` a crease.v1.Parameters, `outputs` a
        crease.v1.Outputs (default: paths). CreaseError naming what the server
        refused."""
        triangles = np.asarray(triangles, dtype=np.uint32).reshape(-1)
        start = pb.Start()
        topology = start.topology
        if rest_positions is not None:
            rest = np.asarray(rest_positions, dtype=np.float32).reshape(-1)
            topology.rest_positions.extend(rest.tolist())
            vertex_count = vertex_count or rest.size // 3
        if vertex_count is None:
            raise ValueError("give rest_positions or vertex_count")
        topology.vertex_count = int(vertex_count)
        topology.triangles.extend(triangles.tolist())
        if corner_uvs is not None:
            topology.corner_uvs.extend(
                np.asarray(corner_uvs, dtype=np.float32).reshape(-1).tolist())
        if parameters is not None:
            start.parameters.CopyFrom(parameters)
        if outputs is not None:
            start.outputs.CopyFrom(outputs)
        else:
            start.outputs.paths = True
        return Session(self._stub, start, self._metadata, self._timeout)

    def close(self):
        self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


@dataclasses.dataclass
class Wrinkle:
    id: int
    age: int
    points: np.ndarray  # (n, 3) refined centre line
    widths: np.ndarray  # (n,)
    heights: np.ndarray  # (n,)


def wrinkles(result):
    """A FrameResult's wrinkle paths as arrays."""
    return [
        Wrinkle(w.id, w.age,
                np.asarray(w.points, dtype=np.float32).reshape(-1, 3),
                np.asarray(w.widths, dtype=np.float32),
                np.asarray(w.heights, dtype=np.float32)) for w in result.wrinkles
    ]


def labels(result):
    """Per-triangle crease.v1.TriangleLabel values (uint8; Outputs.labels)."""
    return np.frombuffer(result.labels, dtype=np.uint8)


def tensors(result):
    """Per-triangle (lambda_max, lambda_min, compression xyz, wrinkle xyz):
    (triangles, 8) float32 (Outputs.tensors)."""
    return np.asarray(result.tensors, dtype=np.float32).reshape(-1, 8)


@dataclasses.dataclass
class WrinkledMesh:
    positions: np.ndarray  # (vertices, 3)
    normals: np.ndarray  # (vertices, 3), unit
    triangles: np.ndarray  # (triangles, 3), fixed for the session


def wrinkled_mesh(started, result):
    """A frame's wrinkled mesh (Outputs.wrinkled_mesh) with the session's
    fixed triangles from its Started."""
    topology = started.wrinkled_mesh
    return WrinkledMesh(
        np.asarray(result.wrinkled_mesh.positions, dtype=np.float32).reshape(-1, 3),
        np.asarray(result.wrinkled_mesh.normals, dtype=np.float32).reshape(-1, 3),
        np.asarray(topology.triangles, dtype=np.uint32).reshape(-1, 3))


@dataclasses.dataclass
class UvMaps:
    normal: np.ndarray  # (size, size, 4) uint8: RGB = 0.5 n + 0.5, alpha covered
    height: np.ndarray  # (size, size) float32 model units above the surface


def uv_maps(result):
    """A FrameResult's UV-space maps (Outputs.uv_maps), PNG or raw, as arrays;
    rows top to bottom (the top row is v = 1)."""
    from crease.png import decode_png
    maps = result.uv_maps
    size = maps.size
    if maps.encoding == pb.UV_MAP_ENCODING_RAW:
        normal = np.frombuffer(maps.normal_map, dtype=np.uint8).reshape(size, size, 4)
        height = np.frombuffer(maps.height_map, dtype="<u2").reshape(size, size)
    else:
        normal = decode_png(maps.normal_map).reshape(size, size, -1)
        height = decode_png(maps.height_map).reshape(size, size)
    scale = maps.height_range / 65535.0
    return UvMaps(normal, (height.astype(np.float32) - maps.height_zero) * scale)


def image(result):
    """A FrameResult's image as a (height, width, channels) uint8 array: PNG by
    crease.png, JPEG by Pillow (Debian's python3-pil), imported only then."""
    if not result.HasField("image") or not result.image.data:
        raise ValueError("this result carries no image (ask for Outputs.image)")
    if result.image.format == pb.IMAGE_FORMAT_PNG:
        from crease.png import decode_png
        return decode_png(result.image.data)
    try:
        import io
        from PIL import Image
    except ImportError as e:
        raise ValueError("decoding JPEG needs Pillow (apt-get install python3-pil); "
                         "or ask for IMAGE_FORMAT_PNG") from e
    with Image.open(io.BytesIO(result.image.data)) as decoded:
        return np.asarray(decoded.convert("RGB"))
