"""crease-preview in a real browser: a crease-server and crease-preview on
loopback ports stream the trouser knee; headless Chromium (Debian's) loads the
page through the DevTools protocol, waits for frames, checks that a screenshot
shows the plain and the wrinkled subject, that frames advance while playing,
that scrubbing pauses on the chosen frame, and that the overlays and HUD work.

Usage: preview_browser_test.py SERVER PREVIEW CHROMIUM DATA PYTHON_CLIENT_DIR OUT
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

from browser import (Chromium, Processes, TestFailure, load_png_decoder,
                     start_server, wait_for)

server_bin, preview_bin, chromium_bin, data, python_dir, out = sys.argv[1:7]
decode_png = load_png_decoder(python_dir)
BACKGROUND = np.array([0x20, 0x24, 0x28])


def fail(message):
    raise TestFailure(message)


def run(processes):
    os.makedirs(out, exist_ok=True)
    scratch = tempfile.mkdtemp()
    grpc = start_server(processes, server_bin, scratch)
    preview = processes.start(
        [preview_bin, "--server", grpc,
         "--obj", os.path.join(data, "cloth_pants_knee.obj"),
         "--pc2", os.path.join(data, "cloth_pants_knee.pc2"),
         "--port", "0", "--passes", "0", "--fps", "30"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = preview.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        fail(f"crease-preview printed no address: {line!r}")
    browser = Chromium(processes, chromium_bin, 800, 450)
    evaluate = browser.evaluate

    def state():
        return evaluate("window.crease ? JSON.stringify(window.crease) : ''")

    def screenshot(name):
        png = browser.screenshot_png()
        with open(os.path.join(out, name), "wb") as f:
            f.write(png)
        return decode_png(png)[..., :3].astype(int)

    browser.navigate(match.group(0))
    wait_for(lambda: state() and json.loads(state())["framesDrawn"] >= 5, 60,
             "five frames drawn")
    first = json.loads(state())
    if first["error"]:
        fail(f"page error: {first['error']}")
    # While playing, the frame shown changes (at 30 fps, 10 changes take a
    # third of a second; a loaded machine gets 20 s).
    began = time.monotonic()
    wait_for(lambda: json.loads(state())["framesDrawn"] >=
             first["framesDrawn"] + 10, 20, "frames to advance while playing")
    later = json.loads(state())
    print(f"frames received {later['framesReceived']}, drawn "
          f"{first['framesDrawn']} -> {later['framesDrawn']} in "
          f"{time.monotonic() - began:.1f} s")

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
    wait_for(lambda: json.loads(state())["currentFrame"] == 3, 20,
             "frame 3 shown after scrubbing to it")
    time.sleep(1)
    still = json.loads(state())
    if still["currentFrame"] != 3:
        fail(f"scrubbed to 3 (paused) but a second later shows "
             f"{still['currentFrame']}")

    # The labels overlay colours the plain side where the knee bends: frame 36,
    # the held bend, seen from behind, where its triangles compress.
    wait_for(lambda: json.loads(state())["framesReceived"] > 36, 60,
             "frame 36 to arrive")
    evaluate("{ const s = document.getElementById('scrub'); s.value = 36;"
             "s.dispatchEvent(new Event('input'));"
             "document.getElementById('overlay').value = 'labels';"
             "window.crease.turn(180); } 0")
    wait_for(lambda: json.loads(state())["currentFrame"] == 36, 20,
             "frame 36 shown")
    # Two more pictures: one surely drawn with the overlay and the turn.
    renders = json.loads(state())["renders"]
    wait_for(lambda: json.loads(state())["renders"] >= renders + 2, 20,
             "the page to draw")
    shown = json.loads(state())
    labelled = screenshot("preview_labels.png")[:400, :400]
    blue = int(((labelled[..., 2] - labelled[..., 0]) > 60).sum())
    print(f"frame 36: labels {shown['labels']}, {shown['wrinkles']} wrinkles; "
          f"{blue} compress-blue pixels on the plain side")
    if shown["currentFrame"] != 36 or shown["labels"].get("compress", 0) == 0:
        fail(f"frame 36 should have compressed triangles: {shown}")
    if blue < 20:
        fail("the labels overlay shows no compressed triangles at frame 36")

    browser.close()


processes = Processes()
try:
    run(processes)
except TestFailure as e:
    print(f"FAIL: {e}")
    sys.exit(1)
finally:
    processes.close()
print("preview_browser_test: 1 passed, 0 failed")
