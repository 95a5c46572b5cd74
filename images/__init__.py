"""Pictures of the games: pure Pillow, no Discord.

``images.evo.render_evo(view, lang)`` turns an EVO view (``engine.evo.EVO.view``) into the PNG
the bot posts. Nothing here imports ``discord`` or ``cogs``: the cogs call these functions
(in a worker thread) and attach the bytes.
"""

from images.evo import bench_render, draw_evo, encode_png, render_evo

__all__ = ["bench_render", "draw_evo", "encode_png", "render_evo"]
