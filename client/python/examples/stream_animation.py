#!/usr/bin/env python3
"""Streams an OBJ + PC2 animation to a Crease server with the Python client and
prints one JSON summary line; exits 1 when a frame or the stream fails, or when
no wrinkle came back. The container integration test runs it
(deploy/compose.yaml, stream-test-python); so does
client/python/tests (test_the_example_streams_the_knee).

    stream_animation.py --server HOST:PORT --obj A.obj --pc2 A.pc2 [--frames N]
"""

import argparse
import json
import sys
import time

import crease


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="host:port")
    parser.add_argument("--obj", required=True)
    parser.add_argument("--pc2", required=True)
    parser.add_argument("--frames", type=int, default=0, help="0: all")
    parser.add_argument("--token", default=None, help="bearer token")
    args = parser.parse_args()
    mesh = crease.read_obj(args.obj)
    frames = crease.read_pc2(args.pc2)
    if args.frames > 0:
        frames = frames[:args.frames]
    outputs = crease.pb.Outputs(paths=True, labels=True)
    wrinkles_max = 0
    start = time.monotonic()
    try:
        with crease.Client(args.server, token=args.token) as client:
            health = client.health()
            with client.session(mesh.triangles, mesh.positions, outputs=outputs) as session:
                started = session.started
                answered = 0
                for result in session.stream(frames, window=8):
                    answered += 1
                    wrinkles_max = max(wrinkles_max, len(result.wrinkles))
    except (crease.CreaseError, crease.FrameError) as error:
        print(f"stream_animation: {error}", file=sys.stderr)
        return 1
    seconds = time.monotonic() - start
    print(json.dumps({
        "health": health, "session_id": started.session_id,
        "server_version": started.server_version,
        "parameters_hash": started.parameters_hash, "frames": answered,
        "wrinkles_max": wrinkles_max, "seconds": round(seconds, 3)
    }))
    return 0 if answered == len(frames) and wrinkles_max > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
