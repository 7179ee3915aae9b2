"""The Python client against a real crease-server on loopback."""

import json
import os
import subprocess
import sys
import tempfile

import grpc
import numpy as np
import pytest

import crease
from conftest import start_server


def stream_knee(server, knee, outputs, frames, **session_args):
    """Streams frames [0, frames) of the knee with `outputs`; (Started, results)."""
    mesh, positions = knee
    with crease.Client(server) as client:
        with client.session(mesh.triangles, mesh.positions, outputs=outputs,
                            **session_args) as session:
            return session.started, list(session.stream(positions[:frames], window=8))


def test_reads_the_bundled_knee(knee):
    mesh, frames = knee
    assert mesh.positions.shape == (len(mesh.positions), 3)
    assert mesh.triangles.shape == (792, 3)
    assert frames.shape == (120, len(mesh.positions), 3)
    # The PC2's first frame is the OBJ's mesh.
    np.testing.assert_allclose(frames[0], mesh.positions, atol=1e-4)


def test_server_info_and_health(server):
    with crease.Client(server) as client:
        info = client.server_info()
        assert info.version
        assert info.limits.max_sessions > 0
        assert client.health() == "SERVING"


def test_streams_the_knee_and_gets_wrinkles_labels_and_tensors(server, knee):
    mesh, frames = knee
    outputs = crease.pb.Outputs(paths=True, labels=True, tensors=True)
    with crease.Client(server) as client:
        with client.session(mesh.triangles, mesh.positions, outputs=outputs) as session:
            assert session.started.session_id
            assert len(session.started.parameters_hash) == 16
            results = list(session.stream(frames[:60], window=8))
    assert [r.index for r in results] == list(range(60))
    # The knee bends from frame 10: wrinkles by frame 59, as arrays.
    last = crease.wrinkles(results[-1])
    assert len(last) > 0
    for w in last:
        assert w.points.ndim == 2 and w.points.shape[1] == 3
        assert len(w.widths) == len(w.points) == len(w.heights)
        assert np.all(w.widths > 0)
    labels = crease.labels(results[-1])
    assert labels.shape == (792,)
    assert set(np.unique(labels)) <= {1, 2, 3}
    # The labels follow the motion between frames: some frame while the knee
    # bends labels triangles compressing (1).
    assert any(np.any(crease.labels(r) == 1) for r in results)
    assert crease.tensors(results[-1]).shape == (792, 8)


def test_same_answers_one_frame_at_a_time_as_streamed(server, knee):
    mesh, frames = knee
    with crease.Client(server) as client:
        with client.session(mesh.triangles, mesh.positions) as a:
            one_by_one = [a.send(p) for p in frames[:30]]
        with client.session(mesh.triangles, mesh.positions) as b:
            streamed = list(b.stream(frames[:30], window=16))
    for x, y in zip(one_by_one, streamed):
        assert [w.points for w in x.wrinkles] == [w.points for w in y.wrinkles]


def test_an_image_on_request(server, knee):
    outputs = crease.pb.Outputs(
        image=crease.pb.ImageRequest(format=crease.pb.IMAGE_FORMAT_JPEG, width=160,
                                     height=120))
    _, results = stream_knee(server, knee, outputs, 41)
    assert results[40].image.data[:2] == b"\xff\xd8"  # a JPEG


def test_a_jpeg_image_decodes_like_the_png(server, knee):
    pytest.importorskip("PIL", reason="python3-pil decodes JPEG")
    decoded = {}
    for name in ["JPEG", "PNG"]:
        outputs = crease.pb.Outputs(image=crease.pb.ImageRequest(
            format=getattr(crease.pb, f"IMAGE_FORMAT_{name}"), width=96, height=72,
            jpeg_quality=95))
        _, results = stream_knee(server, knee, outputs, 1)
        decoded[name] = crease.image(results[0])[..., :3].astype(int)
    assert decoded["JPEG"].shape == (72, 96, 3)
    # The same picture, up to JPEG's loss.
    assert np.abs(decoded["JPEG"] - decoded["PNG"]).mean() < 4


def test_a_wrinkled_mesh_of_fixed_topology(server, knee):
    outputs = crease.pb.Outputs(wrinkled_mesh=crease.pb.WrinkledMeshRequest(level=2))
    started, results = stream_knee(server, knee, outputs, 50)
    first = crease.wrinkled_mesh(started, results[0])
    last = crease.wrinkled_mesh(started, results[-1])
    # Level 2: four triangles a coarse one; the coarse vertices come first.
    assert first.triangles.shape == (4 * 792, 3)
    assert last.positions.shape == first.positions.shape
    assert first.triangles.max() < len(first.positions)
    np.testing.assert_allclose(np.linalg.norm(last.normals, axis=1), 1, atol=1e-3)
    assert not np.allclose(first.positions, last.positions)  # it moves


def test_a_png_image_decodes_to_the_subject(server, knee):
    outputs = crease.pb.Outputs(
        image=crease.pb.ImageRequest(format=crease.pb.IMAGE_FORMAT_PNG, width=96,
                                     height=72))
    _, results = stream_knee(server, knee, outputs, 1)
    pixels = crease.image(results[0])
    assert pixels.shape[:2] == (72, 96) and pixels.dtype == np.uint8
    # A white background around a bluish cloth: both present.
    rgb = pixels[..., :3].astype(int)
    white = np.all(rgb > 250, axis=-1)
    assert 0.05 < white.mean() < 0.95


def test_uv_maps_raw_and_png_are_the_same_arrays(server, knee):
    mesh, _ = knee
    # Planar UVs from x and y, per triangle corner.
    xy = mesh.positions[:, :2]
    uv = (xy - xy.min(axis=0)) / (xy.max(axis=0) - xy.min(axis=0)).max()
    corner_uvs = uv[mesh.triangles.reshape(-1)]
    maps = {}
    for encoding in (crease.pb.UV_MAP_ENCODING_RAW, crease.pb.UV_MAP_ENCODING_PNG):
        outputs = crease.pb.Outputs(
            uv_maps=crease.pb.UvMapRequest(size=64, encoding=encoding))
        _, results = stream_knee(server, knee, outputs, 45, corner_uvs=corner_uvs)
        maps[encoding] = crease.uv_maps(results[-1])
    raw, png = maps[crease.pb.UV_MAP_ENCODING_RAW], maps[crease.pb.UV_MAP_ENCODING_PNG]
    assert raw.normal.shape == (64, 64, 4)
    np.testing.assert_array_equal(raw.normal, png.normal)
    np.testing.assert_array_equal(raw.height, png.height)
    assert np.any(raw.normal[..., 3] == 255)  # covered texels
    assert raw.height.max() > 0  # the bent knee's wrinkles
    # The surface reads 0 (the map is signed about UvMaps.height_zero): most
    # covered texels have no wrinkle.
    assert np.median(raw.height[raw.normal[..., 3] == 255]) == 0


def test_a_bad_start_raises_with_the_status(server, knee):
    mesh, _ = knee
    bad = mesh.triangles.copy()
    bad[0, 0] = 100000  # past the vertices
    with crease.Client(server) as client:
        with pytest.raises(crease.CreaseError) as raised:
            client.session(bad, mesh.positions)
    assert raised.value.code == grpc.StatusCode.INVALID_ARGUMENT
    assert "100000" in raised.value.details


def test_a_bad_frame_raises_and_the_session_goes_on(server, knee):
    mesh, frames = knee
    with crease.Client(server) as client:
        with client.session(mesh.triangles, mesh.positions) as session:
            session.send(frames[0])
            with pytest.raises(crease.FrameError) as raised:
                session.send(frames[1][:10])  # too few vertices
            assert "positions" in raised.value.message
            assert session.send(frames[2]).index == 2


def test_tokens_are_sent_and_checked(knee):
    folder = tempfile.mkdtemp()
    tokens = os.path.join(folder, "tokens")
    with open(tokens, "w") as f:
        f.write("secret-token\n")
    process, address = start_server("--tokens_file", tokens)
    try:
        with crease.Client(address) as anonymous:
            with pytest.raises(crease.CreaseError) as raised:
                anonymous.server_info()
            assert raised.value.code == grpc.StatusCode.UNAUTHENTICATED
        with crease.Client(address, token="secret-token") as client:
            assert client.server_info().version
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_example_streams_the_knee(server):
    data = os.environ["CREASE_DATA"]
    script = os.path.join(os.path.dirname(__file__), "..", "examples",
                          "stream_animation.py")
    done = subprocess.run(
        [sys.executable, script, "--server", server, "--obj",
         os.path.join(data, "cloth_pants_knee.obj"), "--pc2",
         os.path.join(data, "cloth_pants_knee.pc2"), "--frames", "40"],
        capture_output=True, text=True, timeout=120, env=os.environ)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["health"] == "SERVING"
    assert summary["frames"] == 40
    assert summary["wrinkles_max"] > 0
    assert len(summary["parameters_hash"]) == 16


def test_image_of_a_result_without_one_says_so():
    with pytest.raises(ValueError, match="carries no image"):
        crease.image(crease.pb.FrameResult())
