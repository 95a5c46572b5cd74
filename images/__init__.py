"""Pictures of the games: pure Pillow, no Discord.

``render(kind, view, lang)`` turns a game view into the PNG the bot posts:
``images.evo.render_evo`` for an EVO view (``engine.evo.EVO.view``),
``images.cubosaurs.render_cubosaurs`` for a Cubosaurs view, ``images.mutations.render_mutations``
for a Random Mutations view (``engine.mutations.MUTATIONS.view``), ``images.climate.render_climate``
for an Evolution: Climate view; ``render_hand(kind, view, lang)``: a player's private hand image
(Evolution: Climate only, ``HAND_KINDS``). Nothing here imports ``discord``
or ``cogs``: the cogs call these functions (in a worker thread) and attach the bytes.
Shared helpers (font, cached text, palette PNG encoding) live in ``images.common``.
"""

from images.evo import bench_render, draw_evo, encode_png, render_evo


def render(kind: str, view: dict, lang: str = "en") -> bytes:
    """The PNG of ``view`` for the game ``kind`` ("evo", "cubosaurs", "mutations" or
    "climate")."""
    if kind == "evo":
        return render_evo(view, lang)
    if kind == "cubosaurs":
        from images.cubosaurs import render_cubosaurs

        return render_cubosaurs(view, lang)
    if kind == "mutations":
        from images.mutations import render_mutations

        return render_mutations(view, lang)
    if kind == "climate":
        from images.climate import render_climate

        return render_climate(view, lang)
    raise ValueError(f"no renderer for game kind {kind!r}")


HAND_KINDS = frozenset({"climate"})  # the games with a private hand image


def render_hand(kind: str, view: dict, lang: str = "en") -> bytes:
    """The PNG of the viewer's own hand (``view`` seen by that player), to send to them
    alone; only for the games of ``HAND_KINDS`` ("climate")."""
    if kind == "climate":
        from images.climate import render_hand as climate_hand

        return climate_hand(view, lang)
    raise ValueError(f"no hand image for game kind {kind!r}")


__all__ = ["HAND_KINDS", "bench_render", "draw_evo", "encode_png", "render", "render_evo",
           "render_hand"]
