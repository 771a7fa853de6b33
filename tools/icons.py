"""The app icons as PNG, drawn from static/icon.svg by the site build (no binary blobs in the repo).

icon.svg is kept to what this reads: <path> elements with `d` made of M, L, H, V (and their
relative forms) and z,
either filled (a polygon) or stroked with round caps (straight horizontal or vertical strokes).
Shapes are rasterised by scanlines with SUBSAMPLES rows per pixel and exact horizontal coverage,
then painted in document order; a maskable icon puts the drawing in the inner 80 % on a solid
background, as the maskable-icon safe zone asks.
"""
from __future__ import annotations

import math
import re
import struct
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass
from pathlib import Path

SUBSAMPLES = 4  # sample rows per pixel row: enough for smooth edges at icon sizes
MASKABLE_SAFE_ZONE = 0.8  # the share of a maskable icon every platform's mask keeps
SVG = "{http://www.w3.org/2000/svg}"


@dataclass(frozen=True)
class Shape:
    colour: tuple[int, int, int]
    polygon: tuple[tuple[float, float], ...] = ()   # filled
    stroke: tuple[tuple[float, float], tuple[float, float]] | None = None   # one straight stroke
    half_width: float = 0.0


def _colour(text: str) -> tuple[int, int, int]:
    text = text.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _subpaths(d: str) -> list[list[tuple[float, float]]]:
    """The points of each subpath of a path made of M/L/H/V (absolute or relative) and z commands."""
    tokens = re.findall(r"[MLHVlhvzZ]|-?\d*\.?\d+", d)
    paths: list[list[tuple[float, float]]] = []
    x = y = 0.0
    index = 0
    command = ""
    while index < len(tokens):
        token = tokens[index]
        if token.isalpha():
            command = token
            index += 1
            if command in "zZ":
                continue
        if command == "M":
            x, y = float(tokens[index]), float(tokens[index + 1])
            index += 2
            paths.append([(x, y)])
            command = "L_after_M"
            continue
        if command == "L_after_M":   # implicit line-to pairs after M are not used by icon.svg
            raise ValueError("icon.svg: only M, L, H, V, l, h, v and z are supported")
        if command in "Ll":
            dx, dy = float(tokens[index]), float(tokens[index + 1])
            index += 2
            x, y = (dx, dy) if command == "L" else (x + dx, y + dy)
            paths[-1].append((x, y))
            continue
        value = float(tokens[index])
        index += 1
        if command == "H":
            x = value
        elif command == "h":
            x += value
        elif command == "V":
            y = value
        elif command == "v":
            y += value
        else:
            raise ValueError(f"icon.svg: unsupported path command {command!r}")
        paths[-1].append((x, y))
    return paths


def read_shapes(svg_path: Path) -> tuple[float, list[Shape]]:
    """The viewBox size (square) and the shapes of icon.svg in painting order."""
    root = ET.parse(svg_path).getroot()
    _, _, width, height = (float(v) for v in root.get("viewBox").split())
    if width != height:
        raise ValueError("icon.svg: the viewBox must be square")
    shapes = []
    for path in root.iter(f"{SVG}path"):
        subpaths = _subpaths(path.get("d", ""))
        stroke = path.get("stroke")
        if stroke and stroke != "none":
            half = float(path.get("stroke-width", "1")) / 2
            for points in subpaths:
                for start, end in zip(points, points[1:]):
                    if start[0] != end[0] and start[1] != end[1]:
                        raise ValueError("icon.svg: strokes must be horizontal or vertical")
                    shapes.append(Shape(_colour(stroke), stroke=(start, end), half_width=half))
        fill = path.get("fill", "#000")
        if fill != "none" and not (stroke and path.get("fill") is None):
            for points in subpaths:
                shapes.append(Shape(_colour(fill), polygon=tuple(points)))
    return width, shapes


def _spans(shape: Shape, y: float) -> list[tuple[float, float]]:
    """The x-intervals of `shape` on the horizontal line at `y` (drawing units)."""
    if shape.stroke is not None:
        (x0, y0), (x1, y1) = shape.stroke
        r = shape.half_width
        if y0 == y1:   # horizontal: a capsule
            dy = abs(y - y0)
            if dy > r:
                return []
            w = math.sqrt(r * r - dy * dy)
            return [(min(x0, x1) - w, max(x0, x1) + w)]
        low, high = min(y0, y1), max(y0, y1)   # vertical: a box with round ends
        if low <= y <= high:
            return [(x0 - r, x0 + r)]
        dy = low - y if y < low else y - high
        if dy > r:
            return []
        w = math.sqrt(r * r - dy * dy)
        return [(x0 - w, x0 + w)]
    points = shape.polygon
    crossings = []
    for (ax, ay), (bx, by) in zip(points, points[1:] + points[:1]):
        if (ay <= y < by) or (by <= y < ay):
            crossings.append(ax + (y - ay) * (bx - ax) / (by - ay))
    crossings.sort()
    return list(zip(crossings[0::2], crossings[1::2]))


def render(svg_path: Path, size: int, background: tuple[int, int, int] | None = None) -> bytes:
    """A size×size RGBA PNG of icon.svg; with `background`, a maskable icon (drawing in the safe zone)."""
    view, shapes = read_shapes(svg_path)
    inset = 0.0 if background is None else size * (1 - MASKABLE_SAFE_ZONE) / 2
    scale = (size - 2 * inset) / view
    rgba = [[0.0, 0.0, 0.0, 0.0] for _ in range(size * size)]
    if background is not None:
        rgba = [[c / 255 for c in background] + [1.0] for _ in range(size * size)]
    for shape in shapes:
        colour = [c / 255 for c in shape.colour]
        for row in range(size):
            coverage: dict[int, float] = {}
            for sub in range(SUBSAMPLES):
                y = (row + (sub + 0.5) / SUBSAMPLES - inset) / scale
                for a, b in _spans(shape, y):
                    left, right = a * scale + inset, b * scale + inset
                    for px in range(max(0, math.floor(left)), min(size, math.ceil(right))):
                        share = min(right, px + 1) - max(left, px)
                        if share > 0:
                            coverage[px] = coverage.get(px, 0.0) + share / SUBSAMPLES
            for px, alpha in coverage.items():
                alpha = min(1.0, alpha)
                pixel = rgba[row * size + px]
                out_alpha = alpha + pixel[3] * (1 - alpha)
                for channel in range(3):   # "over", on premultiplied values
                    pixel[channel] = (colour[channel] * alpha + pixel[channel] * pixel[3] * (1 - alpha)) / out_alpha
                pixel[3] = out_alpha
    raw = bytearray()
    for row in range(size):
        raw.append(0)   # PNG filter: none
        for pixel in rgba[row * size:(row + 1) * size]:
            raw.extend(round(max(0.0, min(1.0, value)) * 255) for value in pixel)
    return _png(size, size, bytes(raw))


def _png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)   # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
