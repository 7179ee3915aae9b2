"""crease-client --export's .glb in a real viewer: three.js's GLTFLoader and its
stock MeshStandardMaterial (client/preview/web/gltf.html) in headless Chromium
draw frame 20 of the Fox's walk, normal-mapped, with Crease's camera and lights;
Crease draws the same frame of the same file (tests/renderer/glb_frame_render.cc,
renderer::MeshPreviewRenderer). What the normal map adds to the shading, mapped
minus unmapped, must agree between the two (correlation over the pixels the
relief touches), and reading the map green-down (the usual mistake) must not.

Usage: gltf_viewer_test.py SERVER CLIENT GLB_FRAME_RENDER CHROMIUM WEB_ROOT DATA
                           PYTHON_CLIENT_DIR OUT
"""

import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading
import urllib.parse

import numpy as np

from browser import (Chromium, Processes, TestFailure, load_png_decoder,
                     start_server, wait_for)

(server_bin, client_bin, frame_render_bin, chromium_bin, web_root, data,
 python_dir, out) = sys.argv[1:9]
decode_png = load_png_decoder(python_dir)
FRAME, AZIMUTH, WIDTH, HEIGHT = 20, 90, 640, 480
# Agreement asked of the relief (Pearson r over the pixels it changes), and
# how far below that the green-down control must fall.
MIN_CORRELATION = 0.6
MIN_CONTROL_GAP = 0.5


def luminance(rgb):
    return rgb[..., :3].astype(float) @ np.array([0.299, 0.587, 0.114])


def serve(folder):
    """A static HTTP server for `folder` on a free loopback port."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=folder)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def run(processes):
    os.makedirs(out, exist_ok=True)
    scratch = tempfile.mkdtemp()
    grpc = start_server(processes, server_bin, scratch)
    glb = os.path.join(out, "fox.glb")
    subprocess.run(
        [client_bin, "--server", grpc, "--gltf", os.path.join(data, "Fox.glb"),
         "--animation", "Walk", "--frames", str(FRAME + 1),
         "--uv_maps_size", "1024", "--export", glb, "--out",
         os.path.join(scratch, "client"), "--quiet"], check=True)
    subprocess.run([frame_render_bin, glb, str(FRAME), str(WIDTH), str(HEIGHT),
                    out, str(AZIMUTH)], check=True)
    site = os.path.join(scratch, "site")
    os.makedirs(site)
    for name in ["gltf.html", "gltf.js", "vendor"]:
        os.symlink(os.path.join(web_root, name), os.path.join(site, name))
    for name in ["fox.glb", "camera.json"]:
        os.symlink(os.path.join(out, name), os.path.join(site, name))
    httpd = serve(site)
    browser = Chromium(processes, chromium_bin, WIDTH, HEIGHT)

    def draw(name, **extra):
        query = urllib.parse.urlencode({"glb": "fox.glb", "frame": FRAME,
                                        "camera": "camera.json", **extra})
        browser.navigate(
            f"http://127.0.0.1:{httpd.server_address[1]}/gltf.html?{query}")
        wait_for(lambda: browser.evaluate(
            "window.gltfView && (window.gltfView.ready || "
            "window.gltfView.error) ? JSON.stringify(window.gltfView) : ''"),
                 60, f"the viewer to draw {name}")
        error = browser.evaluate("window.gltfView.error")
        if error:
            raise TestFailure(f"viewer: {error}")
        png = browser.screenshot_png()
        with open(os.path.join(out, f"three_{name}.png"), "wb") as f:
            f.write(png)
        return decode_png(png)

    three = {"mapped": draw("mapped"), "plain": draw("plain", map=0),
             "green_down": draw("green_down", flip_green=1)}
    crease = {name: decode_png(open(os.path.join(out, f"crease_{name}.png"),
                                    "rb").read())
              for name in ["mapped", "plain"]}
    browser.close()
    httpd.shutdown()

    # The same camera: the two silhouettes overlap almost wholly.
    crease_subject = crease["plain"][..., 3] > 0
    three_subject = luminance(three["plain"]) > 0
    overlap = (crease_subject & three_subject).sum() / (
        crease_subject | three_subject).sum()
    print(f"silhouettes: {100 * overlap:.1f} % overlap")
    if overlap < 0.95:
        raise TestFailure("three.js and Crease frame the frame differently")

    relief_crease = luminance(crease["mapped"]) - luminance(crease["plain"])
    inside = crease_subject & three_subject
    results = {}
    for name in ["mapped", "green_down"]:
        relief_three = luminance(three[name]) - luminance(three["plain"])
        touched = inside & ((np.abs(relief_crease) > 4) |
                            (np.abs(relief_three) > 4))
        r = np.corrcoef(relief_crease[touched], relief_three[touched])[0, 1]
        results[name] = r
        print(f"{name}: relief correlation {r:.3f} over {touched.sum()} pixels")
    if results["mapped"] < MIN_CORRELATION:
        raise TestFailure(f"the browser's relief does not follow Crease's: "
                          f"r = {results['mapped']:.3f} < {MIN_CORRELATION}")
    if results["green_down"] > results["mapped"] - MIN_CONTROL_GAP:
        raise TestFailure("reading the map green-down changes too little: the "
                          "comparison would not catch a green-channel mistake")


processes = Processes()
try:
    run(processes)
except (TestFailure, subprocess.CalledProcessError) as e:
    print(f"FAIL: {e}")
    sys.exit(1)
finally:
    processes.close()
print("gltf_viewer_test: 1 passed, 0 failed")
