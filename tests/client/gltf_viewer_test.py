"""crease-client --export's .glb in a real viewer: three.js's GLTFLoader and its
stock MeshStandardMaterial (client/preview/web/gltf.html) in headless Chromium
draw frame 20 of the Fox's walk, normal-mapped, with Crease's camera and lights;
Crease draws the same frame of the same file (tests/renderer/glb_frame_render.cc,
renderer::MeshPreviewRenderer). What the normal map adds to the shading, mapped
minus unmapped, must agree between the two (correlation over the pixels the
relief touches), and reading the map green-down (the usual mistake) must not.
Twice: the coarse mesh with the maps, and the level-2 wrinkled mesh with the
maps laid on it, whose relief must also follow the coarse one's.

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


def check_export(processes, grpc, chromium, scratch, name, extra_flags):
    """Exports 21 frames with `extra_flags`, then compares frame 20."""
    folder = os.path.join(out, name)
    os.makedirs(folder, exist_ok=True)
    glb = os.path.join(folder, "fox.glb")
    subprocess.run(
        [client_bin, "--server", grpc, "--gltf", os.path.join(data, "Fox.glb"),
         "--animation", "Walk", "--frames", str(FRAME + 1),
         "--uv_maps_size", "1024", "--export", glb, "--out",
         os.path.join(scratch, name), "--quiet", *extra_flags], check=True)
    subprocess.run([frame_render_bin, glb, str(FRAME), str(WIDTH), str(HEIGHT),
                    folder, str(AZIMUTH)], check=True)
    site = os.path.join(scratch, f"site_{name}")
    os.makedirs(site)
    for file in ["gltf.html", "gltf.js", "vendor"]:
        os.symlink(os.path.join(web_root, file), os.path.join(site, file))
    for file in ["fox.glb", "camera.json"]:
        os.symlink(os.path.join(folder, file), os.path.join(site, file))
    httpd = serve(site)

    def draw(kind, **extra):
        query = urllib.parse.urlencode({"glb": "fox.glb", "frame": FRAME,
                                        "camera": "camera.json", **extra})
        chromium.navigate(
            f"http://127.0.0.1:{httpd.server_address[1]}/gltf.html?{query}")
        wait_for(lambda: chromium.evaluate(
            "window.gltfView && (window.gltfView.ready || "
            "window.gltfView.error) ? JSON.stringify(window.gltfView) : ''"),
                 60, f"the viewer to draw {name} {kind}")
        error = chromium.evaluate("window.gltfView.error")
        if error:
            raise TestFailure(f"viewer: {error}")
        png = chromium.screenshot_png()
        with open(os.path.join(folder, f"three_{kind}.png"), "wb") as f:
            f.write(png)
        return decode_png(png)

    three = {"mapped": draw("mapped"), "plain": draw("plain", map=0),
             "green_down": draw("green_down", flip_green=1)}
    httpd.shutdown()
    crease = {kind: decode_png(open(os.path.join(folder, f"crease_{kind}.png"),
                                    "rb").read())
              for kind in ["mapped", "plain"]}

    # The same camera: the two silhouettes overlap almost wholly.
    crease_subject = crease["plain"][..., 3] > 0
    three_subject = luminance(three["plain"]) > 0
    overlap = (crease_subject & three_subject).sum() / (
        crease_subject | three_subject).sum()
    print(f"{name}: silhouettes overlap {100 * overlap:.1f} %")
    if overlap < 0.95:
        raise TestFailure(f"{name}: three.js and Crease frame it differently")
    relief_crease = luminance(crease["mapped"]) - luminance(crease["plain"])
    inside = crease_subject & three_subject
    results = {}
    for kind in ["mapped", "green_down"]:
        relief_three = luminance(three[kind]) - luminance(three["plain"])
        touched = inside & ((np.abs(relief_crease) > 4) |
                            (np.abs(relief_three) > 4))
        r = np.corrcoef(relief_crease[touched], relief_three[touched])[0, 1]
        results[kind] = r
        print(f"{name}, {kind}: relief correlation {r:.3f} over "
              f"{touched.sum()} pixels")
    if results["mapped"] < MIN_CORRELATION:
        raise TestFailure(f"{name}: the browser's relief does not follow "
                          f"Crease's: r = {results['mapped']:.3f} < "
                          f"{MIN_CORRELATION}")
    if results["green_down"] > results["mapped"] - MIN_CONTROL_GAP:
        raise TestFailure(f"{name}: reading the map green-down changes too "
                          "little: a green-channel mistake would pass")
    return relief_crease, inside


def run(processes):
    os.makedirs(out, exist_ok=True)
    scratch = tempfile.mkdtemp()
    grpc = start_server(processes, server_bin, scratch)
    chromium = Chromium(processes, chromium_bin, WIDTH, HEIGHT)
    coarse, coarse_inside = check_export(processes, grpc, chromium, scratch,
                                         "coarse", [])
    # The wrinkled mesh with the maps laid on it shades the same folds.
    wrinkled, wrinkled_inside = check_export(
        processes, grpc, chromium, scratch, "wrinkled_level2",
        ["--wrinkled_mesh_level", "2"])
    chromium.close()
    both = coarse_inside & wrinkled_inside & (
        (np.abs(coarse) > 4) | (np.abs(wrinkled) > 4))
    r = np.corrcoef(coarse[both], wrinkled[both])[0, 1]
    print(f"wrinkled mesh with maps against the coarse mesh with maps: "
          f"relief correlation {r:.3f}")
    if r < MIN_CORRELATION:
        raise TestFailure("the maps on the wrinkled mesh shade other folds "
                          "than on the coarse mesh")


processes = Processes()
try:
    run(processes)
except (TestFailure, subprocess.CalledProcessError) as e:
    print(f"FAIL: {e}")
    sys.exit(1)
finally:
    processes.close()
print("gltf_viewer_test: 1 passed, 0 failed")
