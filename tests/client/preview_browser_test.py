"""crease-preview in a real browser: a crease-server and crease-preview on
loopback ports stream the trouser knee; headless Chromium (Debian's) loads the
page through the DevTools protocol, waits for frames, checks that a screenshot
shows the plain and the wrinkled subject, that frames advance while playing,
that scrubbing pauses on the chosen frame, and that the overlays and HUD work.

Usage: preview_browser_test.py SERVER PREVIEW CHROMIUM DATA PYTHON_CLIENT_DIR OUT
"""

import base64
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import numpy as np
import websocket

server_bin, preview_bin, chromium, data, python_dir, out = sys.argv[1:7]
# The Python client's own PNG decoder, loaded alone (the package needs stubs).
_spec = importlib.util.spec_from_file_location(
    "crease_png", os.path.join(python_dir, "crease", "png.py"))
_png = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_png)
decode_png = _png.decode_png

BACKGROUND = np.array([0x20, 0x24, 0x28])
processes = []


def fail(message):
    print(f"FAIL: {message}")
    for p in processes:
        p.kill()
    sys.exit(1)


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    fail(f"timed out after {seconds} s waiting for {what}")


def start(args, **kwargs):
    p = subprocess.Popen(args, **kwargs)
    processes.append(p)
    return p


os.makedirs(out, exist_ok=True)
scratch = tempfile.mkdtemp()
port_file = os.path.join(scratch, "port")
start([server_bin, "--address", "127.0.0.1:0", "--port_file", port_file,
       "--log_sessions=false"], stdout=subprocess.DEVNULL)
wait_for(lambda: os.path.exists(port_file) and os.path.getsize(port_file) > 0,
         30, "crease-server's port")
grpc_port = open(port_file).read().strip()

preview = start([preview_bin, "--server", f"127.0.0.1:{grpc_port}",
                 "--obj", os.path.join(data, "cloth_pants_knee.obj"),
                 "--pc2", os.path.join(data, "cloth_pants_knee.pc2"),
                 "--port", "0", "--passes", "0", "--fps", "30"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
line = preview.stdout.readline()
match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
if not match:
    fail(f"crease-preview printed no address: {line!r}")
url = match.group(0)

profile = os.path.join(scratch, "chromium")
start([chromium, "--headless=new", "--no-sandbox", "--disable-gpu-sandbox",
       "--enable-unsafe-swiftshader", "--use-angle=swiftshader",
       "--window-size=800,450", "--remote-debugging-port=0",
       f"--user-data-dir={profile}", "about:blank"],
      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
active = os.path.join(profile, "DevToolsActivePort")
wait_for(lambda: os.path.exists(active) and os.path.getsize(active) > 0, 30,
         "Chromium's DevTools port")
devtools_port = open(active).read().split()[0]
targets = json.load(urllib.request.urlopen(
    f"http://127.0.0.1:{devtools_port}/json"))
page = next(t for t in targets if t["type"] == "page")
ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30)
next_id = 0


def call(method, **params):
    global next_id
    next_id += 1
    ws.send(json.dumps({"id": next_id, "method": method, "params": params}))
    while True:
        reply = json.loads(ws.recv())
        if reply.get("id") == next_id:
            if "error" in reply:
                fail(f"{method}: {reply['error']}")
            return reply["result"]


def evaluate(expression):
    result = call("Runtime.evaluate", expression=expression,
                  returnByValue=True)
    if "exceptionDetails" in result:
        fail(f"{expression}: {result['exceptionDetails']}")
    return result["result"].get("value")


def state():
    return evaluate("window.crease ? JSON.stringify(window.crease) : ''")


def screenshot(name):
    png = base64.b64decode(call("Page.captureScreenshot", format="png")["data"])
    with open(os.path.join(out, name), "wb") as f:
        f.write(png)
    image = decode_png(png)
    return image[..., :3].astype(int)


call("Page.navigate", url=url)
wait_for(lambda: state() and json.loads(state())["framesDrawn"] >= 5, 60,
         "five frames drawn")
first = json.loads(state())
if first["error"]:
    fail(f"page error: {first['error']}")
time.sleep(1.5)
later = json.loads(state())
print(f"frames received {later['framesReceived']}, drawn {first['framesDrawn']}"
      f" -> {later['framesDrawn']}")
if later["framesDrawn"] <= first["framesDrawn"] + 5:
    fail("frames do not advance while playing")

# The subject: the view (above the control bar) differs from the background
# in both halves, plain on the left and wrinkled on the right.
image = screenshot("preview_playing.png")
view = image[:400]
subject = np.abs(view - BACKGROUND).sum(axis=2) > 30
left, right = subject[:, :400].mean(), subject[:, 400:].mean()
print(f"subject covers {100 * left:.1f} % of the left half, "
      f"{100 * right:.1f} % of the right")
if left < 0.05 or right < 0.05:
    fail("the screenshot does not show the plain and the wrinkled subject")

hud = evaluate("document.getElementById('hud').textContent")
print("HUD:", hud.replace("\n", " | "))
if not re.search(r"latency [0-9.]+ ms", hud) or "fps" not in hud:
    fail(f"the HUD shows no latency or fps: {hud!r}")

# Scrubbing pauses on the chosen frame.
evaluate("{ const s = document.getElementById('scrub'); s.value = 3;"
         "s.dispatchEvent(new Event('input')); } 0")
time.sleep(0.5)
paused = json.loads(state())
time.sleep(0.5)
still = json.loads(state())
if paused["currentFrame"] != 3 or still["currentFrame"] != 3:
    fail(f"scrubbed to 3 but shows {paused['currentFrame']}, "
         f"then {still['currentFrame']}")

# The labels overlay colours the plain side where the knee bends: frame 36,
# the held bend, seen from behind, where its triangles compress.
evaluate("{ const s = document.getElementById('scrub'); s.value = 36;"
         "s.dispatchEvent(new Event('input'));"
         "document.getElementById('overlay').value = 'labels';"
         "window.crease.turn(180); } 0")
time.sleep(0.5)
shown = json.loads(state())
labelled = screenshot("preview_labels.png")[:400, :400]
blue = int(((labelled[..., 2] - labelled[..., 0]) > 60).sum())
print(f"frame 36: labels {shown['labels']}, {shown['wrinkles']} wrinkles; "
      f"{blue} compress-blue pixels on the plain side")
if shown["currentFrame"] != 36 or shown["labels"].get("compress", 0) == 0:
    fail(f"frame 36 should have compressed triangles: {shown}")
if blue < 20:
    fail("the labels overlay shows no compressed triangles at frame 36")

ws.close()
for p in processes:
    p.terminate()
for p in processes:
    try:
        p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
shutil.rmtree(scratch, ignore_errors=True)
print("preview_browser_test: 1 passed, 0 failed")
