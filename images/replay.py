"""A replay as an animated GIF: the table's phase images, one frame each, with a band on top.

:func:`replay_gif_bytes` takes ``(phase, public view)`` pairs (``host.replay.replay_states``
gives them), draws each with the game's renderer (``images.render``: its own caption bar
names the turn or round and the phase, once), adds a band on top with the frame's place in
the game (a progress bar and ``3/40``), and writes a looping GIF. The result stays under a size bound (8 MB, Discord's attachment limit, by default):
frames are dropped evenly (the first and the last are kept) down to ``MIN_FRAMES``, then
the frames are scaled down (to ``MIN_SCALE`` at most), then frames are dropped again. Pure
Pillow, no discord; CPU-bound (about 25 ms a frame to draw): run it in a worker thread.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from images.common import text, text_width

MAX_GIF_BYTES = 8 * 1024 * 1024  # Discord's attachment limit without boosts
MAX_FRAMES = 300  # more phase images than any game has: a longer log is thinned first
MIN_FRAMES = 12  # frames are dropped down to this before the size is reduced
MIN_SCALE = 0.25
FRAME_MS = 1500
LAST_FRAME_MS = 5000  # the final position stays longer before the loop starts again
BAND = 40  # band height at full size (pixels)
BAND_INK = (245, 245, 245)
BAND_GROUND = (38, 38, 38)
BAND_TRACK = (100, 100, 100)  # the progress bar's part still to come
ATTEMPTS = 16


class GifTooLarge(ValueError):
    """Even one frame at the smallest size is above the bound."""


@dataclass(frozen=True)
class DrawnGif:
    gif: bytes
    frames: int
    width: int
    height: int
    scale: float


def spread(total: int, keep: int) -> list[int]:
    """``keep`` indices of ``range(total)`` spread evenly, the first and the last among them
    (only the last when ``keep`` is 1: the final position)."""
    if keep >= total:
        return list(range(total))
    if keep <= 1:
        return [total - 1]
    return sorted({round(i * (total - 1) / (keep - 1)) for i in range(keep)})


def _decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    if image.mode != "P":
        image = image.convert("RGB").quantize(256, dither=Image.Dither.NONE)
    return image


def _palette_of(image: Image.Image) -> Image.Image:
    pal = Image.new("P", (1, 1))
    pal.putpalette(image.getpalette())
    return pal


class _Frames:
    """The drawn phase images; composes a frame (band and image) at a scale (cached)."""

    def __init__(self, images: list[Image.Image]) -> None:
        self.images = images
        self.palette = _palette_of(images[0])
        flat = images[0].getpalette()
        for i, image in enumerate(images):  # one palette for the whole GIF
            if image.getpalette() != flat:
                images[i] = image.convert("RGB").quantize(palette=self.palette,
                                                          dither=Image.Dither.NONE)
        self._cache: dict[tuple[int, float], Image.Image] = {}

    def frame(self, i: int, scale: float) -> Image.Image:
        key = (i, scale)
        if key not in self._cache:
            self._cache[key] = self._compose(i, scale)
        return self._cache[key]

    def _compose(self, i: int, scale: float) -> Image.Image:
        base = self.images[i]
        w, h = base.size
        if scale < 1:
            w, h = max(1, round(w * scale)), max(1, round(h * scale))
            base = base.convert("RGB").resize((w, h), Image.Resampling.BOX).quantize(
                palette=self.palette, dither=Image.Dither.NONE)
        band = progress_band(i, len(self.images), w, max(14, round(BAND * scale)), scale)
        band_h = band.height
        out = Image.new("P", (w, h + band_h))
        out.putpalette(self.images[0].getpalette())
        out.paste(band.quantize(palette=self.palette, dither=Image.Dither.NONE), (0, 0))
        out.paste(base, (0, band_h))
        return out

    def encode(self, indices: list[int], scale: float) -> bytes:
        frames = [self.frame(i, scale) for i in indices]
        durations = [FRAME_MS] * len(frames)
        durations[-1] = LAST_FRAME_MS
        buf = io.BytesIO()
        frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:],
                       duration=durations if len(frames) > 1 else LAST_FRAME_MS, loop=0)
        return buf.getvalue()


def progress_band(i: int, total: int, width: int, height: int, scale: float = 1.0) -> Image.Image:
    """The band over frame ``i`` of ``total`` (RGB ``width`` x ``height``): a progress bar
    and ``i+1/total``. No title: the table's image under it names the turn and the phase
    (a second title said the same twice)."""
    band = Image.new("RGB", (width, height), BAND_GROUND)
    size = max(9, round(height * 0.5))
    counter = f"{i + 1}/{total}"
    pad = max(4, round(12 * scale))
    text(band, width - pad, height / 2, counter, size, fill=BAND_INK, anchor="rm")
    x0, x1 = pad, width - 2 * pad - text_width(counter, size)
    if x1 - x0 >= 8:
        bar = max(2, round(height * 0.2))
        y0 = round(height / 2 - bar / 2)
        draw = ImageDraw.Draw(band)
        draw.rectangle((x0, y0, x1, y0 + bar - 1), fill=BAND_TRACK)
        done = x0 + round((x1 - x0) * (i + 1) / max(1, total))
        draw.rectangle((x0, y0, done, y0 + bar - 1), fill=BAND_INK)
    return band


def replay_gif_bytes(kind: str, snapshots: list[tuple[str, dict]], lang: str = "en",
                     max_bytes: int = MAX_GIF_BYTES) -> DrawnGif:
    """The GIF of ``snapshots`` (``(phase, public view)``, in order) for the game ``kind``, at
    most ``max_bytes`` long: every frame when it fits, else fewer frames (spread evenly, the
    first and last kept) and then smaller ones. Raises ``GifTooLarge`` when even the final
    frame alone at ``MIN_SCALE`` does not fit, ValueError without snapshots."""
    from images import render

    if not snapshots:
        raise ValueError("a replay needs at least one image")
    if len(snapshots) > MAX_FRAMES:
        snapshots = [snapshots[i] for i in spread(len(snapshots), MAX_FRAMES)]
    images = [_decode(render(kind, view, lang)) for _, view in snapshots]
    frames = _Frames(images)
    total = len(images)
    indices, scale = list(range(total)), 1.0
    for _ in range(ATTEMPTS):
        gif = frames.encode(indices, scale)
        if len(gif) <= max_bytes:
            first = frames.frame(indices[0], scale)
            return DrawnGif(gif, len(indices), first.width, first.height, scale)
        ratio = max_bytes / len(gif) * 0.9
        if len(indices) > MIN_FRAMES:
            indices = spread(total, max(MIN_FRAMES, min(len(indices) - 1,
                                                        int(len(indices) * ratio))))
        elif scale > MIN_SCALE:
            scale = max(MIN_SCALE, round(scale * min(0.9, max(0.5, math.sqrt(ratio))), 3))
        elif len(indices) > 1:
            indices = spread(total, max(1, min(len(indices) - 1, int(len(indices) * ratio))))
        else:
            break
    raise GifTooLarge(f"a replay GIF of {max_bytes} bytes at most is not possible "
                      f"(one frame at scale {scale} takes {len(gif)})")
