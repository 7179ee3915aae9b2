"""A PNG decoder for the images and maps the server sends (8- and 16-bit gray,
RGB and RGBA, not interlaced): zlib and NumPy only, no imaging library."""

import struct
import zlib

import numpy as np

_CHANNELS = {0: 1, 2: 3, 6: 4}  # colour type -> channels


def _unfilter(raw, height, stride, bpp):
    out = np.zeros((height, stride), dtype=np.uint8)
    previous = np.zeros(stride, dtype=np.int32)
    pos = 0
    for y in range(height):
        kind = raw[pos]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=pos + 1).astype(np.int32)
        pos += stride + 1
        if kind == 0:
            row = line
        elif kind == 2:
            row = (line + previous) & 0xFF
        elif kind in (1, 3, 4):
            row = np.empty(stride, dtype=np.int32)
            for i in range(stride):  # byte by byte: each depends on the last
                a = row[i - bpp] if i >= bpp else 0
                b = previous[i]
                if kind == 1:
                    predictor = a
                elif kind == 3:
                    predictor = (a + b) >> 1
                else:
                    c = previous[i - bpp] if i >= bpp else 0
                    pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                    predictor = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                row[i] = (line[i] + predictor) & 0xFF
        else:
            raise ValueError(f"PNG: filter type {kind}")
        out[y] = row
        previous = row
    return out


def decode_png(data):
    """(height, width, channels) uint8 or uint16 (16-bit PNGs) array."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError("PNG: no IHDR")
    width, height, depth, colour, _, _, interlace = header
    if colour not in _CHANNELS or depth not in (8, 16) or interlace != 0:
        raise ValueError(f"PNG: colour type {colour}, depth {depth}, interlace "
                         f"{interlace} not supported")
    channels = _CHANNELS[colour]
    bpp = channels * depth // 8
    pixels = _unfilter(zlib.decompress(b"".join(idat)), height, width * bpp, bpp)
    if depth == 16:
        return pixels.view(">u2").astype(np.uint16).reshape(height, width, channels)
    return pixels.reshape(height, width, channels)
