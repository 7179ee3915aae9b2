"""A real crease-server on a loopback port for the Python client's tests:
CREASE_SERVER names the binary, CREASE_DATA the bundled animations."""

import os
import subprocess
import tempfile
import time

import pytest


def start_server(*extra):
    binary = os.environ["CREASE_SERVER"]
    folder = tempfile.mkdtemp()
    port_file = os.path.join(folder, "port")
    process = subprocess.Popen(
        [binary, "--address", "127.0.0.1:0", "--port_file", port_file,
         "--log_sessions=false", *extra],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if os.path.exists(port_file) and os.path.getsize(port_file) > 0:
            with open(port_file) as f:
                return process, f"127.0.0.1:{int(f.read().strip())}"
        if process.poll() is not None:
            raise RuntimeError(f"crease-server exited: {process.stderr.read().decode()}")
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("crease-server did not write its port in 30 s")


@pytest.fixture(scope="session")
def server():
    process, address = start_server()
    yield address
    process.terminate()
    process.wait(timeout=30)


@pytest.fixture(scope="session")
def knee():
    import crease
    data = os.environ["CREASE_DATA"]
    mesh = crease.read_obj(os.path.join(data, "cloth_pants_knee.obj"))
    frames = crease.read_pc2(os.path.join(data, "cloth_pants_knee.pc2"))
    return mesh, frames
