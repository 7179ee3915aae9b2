"""Shared by the browser tests: a crease-server on a loopback port, headless
Chromium (Debian's) driven through the DevTools protocol with Debian's
python3-websocket, and the Python client's own PNG decoder."""

import base64
import importlib.util
import json
import os
import subprocess
import tempfile
import time
import urllib.request

import websocket


class TestFailure(Exception):
    pass


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise TestFailure(f"timed out after {seconds} s waiting for {what}")


def load_png_decoder(python_client_dir):
    """crease/png.py alone (the package itself needs generated stubs)."""
    spec = importlib.util.spec_from_file_location(
        "crease_png", os.path.join(python_client_dir, "crease", "png.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.decode_png


class Processes:
    """Started processes, ended (terminate, then kill) on close."""

    def __init__(self):
        self.running = []

    def start(self, args, **kwargs):
        process = subprocess.Popen(args, **kwargs)
        self.running.append(process)
        return process

    def close(self):
        for p in self.running:
            if p.poll() is None:
                p.terminate()
        for p in self.running:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


def start_server(processes, binary, scratch):
    """crease-server on 127.0.0.1:0; returns host:port."""
    port_file = os.path.join(scratch, "grpc_port")
    processes.start([binary, "--address", "127.0.0.1:0", "--port_file",
                     port_file, "--log_sessions=false"],
                    stdout=subprocess.DEVNULL)
    wait_for(lambda: os.path.exists(port_file) and os.path.getsize(port_file) > 0,
             30, "crease-server's port")
    return "127.0.0.1:" + open(port_file).read().strip()


class Chromium:
    """One headless Chromium page, WebGL through SwiftShader."""

    def __init__(self, processes, binary, width, height):
        self.profile = tempfile.mkdtemp()
        processes.start(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu-sandbox",
             "--enable-unsafe-swiftshader", "--use-angle=swiftshader",
             "--force-device-scale-factor=1", "--hide-scrollbars",
             f"--window-size={width},{height}", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        active = os.path.join(self.profile, "DevToolsActivePort")
        wait_for(lambda: os.path.exists(active) and os.path.getsize(active) > 0,
                 30, "Chromium's DevTools port")
        port = open(active).read().split()[0]
        targets = json.load(urllib.request.urlopen(
            f"http://127.0.0.1:{port}/json"))
        page = next(t for t in targets if t["type"] == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"],
                                              timeout=60)
        self.next_id = 0
        # The viewport exactly width x height (the window's own size leaves
        # room for what headless Chromium counts as its frame).
        self.call("Emulation.setDeviceMetricsOverride", width=width,
                  height=height, deviceScaleFactor=1, mobile=False)

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method,
                                 "params": params}))
        while True:
            reply = json.loads(self.ws.recv())
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise TestFailure(f"{method}: {reply['error']}")
                return reply["result"]

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression,
                           returnByValue=True)
        if "exceptionDetails" in result:
            raise TestFailure(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def navigate(self, url):
        self.call("Page.navigate", url=url)

    def screenshot_png(self):
        return base64.b64decode(
            self.call("Page.captureScreenshot", format="png")["data"])

    def close(self):
        self.ws.close()
