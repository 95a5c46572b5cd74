"""Pictures of the games: pure Pillow, no Discord.

``render(kind, view, lang)`` turns a game view into the PNG the bot posts, with the renderer
the game's description names (``engine.core.GameDescription.renderer``, ``"module:function"``,
e.g. ``images.evo:render_evo``; imported on first use); ``render_hand(kind, view, lang)``: a
player's private hand image, for the games whose description has a ``hand_renderer``
(``HAND_KINDS``). Nothing here imports ``discord`` or ``cogs``: the cogs call these functions
(in a worker thread) and attach the bytes. Shared helpers (font, cached text, palette PNG
encoding) live in ``images.common``.
"""

import importlib

from engine.core import description, descriptions


def _function(path: str):
    """The function that ``"module:function"`` names (its module imported on first use)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _renderer(kind: str, field: str):
    try:
        path = getattr(description(kind), field)
    except KeyError:
        path = None
    return None if path is None else _function(path)


def render(kind: str, view: dict, lang: str = "en") -> bytes:
    """The PNG of ``view`` for the game ``kind`` (its description's renderer)."""
    draw = _renderer(kind, "renderer")
    if draw is None:
        raise ValueError(f"no renderer for game kind {kind!r}")
    return draw(view, lang)


def render_hand(kind: str, view: dict, lang: str = "en") -> bytes:
    """The PNG of the viewer's own hand (``view`` seen by that player), to send to them
    alone; only for the games of ``HAND_KINDS``."""
    draw = _renderer(kind, "hand_renderer")
    if draw is None:
        raise ValueError(f"no hand image for game kind {kind!r}")
    return draw(view, lang)


def __getattr__(name: str):
    if name == "HAND_KINDS":  # the games with a private hand image, as registered now
        return frozenset(d.kind for d in descriptions() if d.hand_renderer)
    raise AttributeError(f"module 'images' has no attribute {name!r}")


__all__ = ["HAND_KINDS", "render", "render_hand"]
