"""Small helpers shared by the cogs: replies, refusals, permissions, images."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import logging
import math
import os

import discord

from engine import IllegalAction
from host import HostError
from messages import DEFAULT_LANG, catalogue_lang, explain, languages, t
from ops import interactions

log = logging.getLogger("darwin.cogs")

NO_MENTIONS = discord.AllowedMentions.none()
USER_MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)


def config_lang(bot) -> str:
    """The configured language: tables of servers whose language the catalogue lacks."""
    return bot.config["games"].get("language", DEFAULT_LANG)


def reader_lang(interaction: discord.Interaction) -> str:
    """The language of a private reply: the asking user's Discord language when the catalogue
    has it, else English."""
    return catalogue_lang(interaction.locale) or DEFAULT_LANG


def server_lang(bot, guild_id, guild_locale=None, *, setting: bool = True) -> str:
    """The language a server's new tables speak: the server's setting (/darwin settings),
    else its preferred locale when the catalogue has it, else the configured language.
    ``setting=False``: what it would be without the setting (its default)."""
    host = getattr(bot, "host", None)
    if setting and host is not None and guild_id is not None:
        chosen = host.cached_settings(guild_id).language
        if chosen in languages():
            return chosen
    if guild_locale is None and guild_id is not None:
        guild = bot.get_guild(int(guild_id))
        guild_locale = guild.preferred_locale if guild is not None else None
    return catalogue_lang(guild_locale) or config_lang(bot)


def table_lang(bot, game) -> str:
    """The language of a game's public messages and images, fixed when its lobby opened."""
    lang = game.lobby.get("lang")
    return lang if lang in languages() else config_lang(bot)


def clip(text, limit: int) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    text = str(text)
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def safe_name(name: str) -> str:
    """A player's name as public text may show it: no mention, no markdown, short."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(clip(name, 40)))


def _safe_value(value):
    """A value a user typed, as a reply may echo it: text cut and escaped, a number too long
    to print (str() refuses ints past 4,300 digits) shown as "…", other values as they are."""
    if isinstance(value, str):
        return discord.utils.escape_mentions(clip(value, 100))
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 18:
        return "…"
    return value


def _safe_params(params: dict) -> dict:
    """Values a user typed, cut and escaped before they are echoed in a reply."""
    return {k: _safe_value(v) for k, v in params.items()}


def refusal(exc: Exception, lang: str = "en", game=None) -> str:
    """The sentence for a refused action: by the rules of ``game`` (a LiveGame) or the host.
    The interaction being handled counts as refused (or failed, for an unexpected error).
    A game's refusal with no game to word it (the game left the channel meanwhile) is the
    generic sentence: only a game's own catalogue knows its refusal codes."""
    interactions.mark(interactions.REFUSED if isinstance(exc, (IllegalAction, HostError))
                      else interactions.FAILED)
    if isinstance(exc, IllegalAction):
        if game is None:
            log.warning("refusal %r worded without its game", exc.code)
            return t("bot.error_generic", lang)
        names = [safe_name(n) for n in game.names()]
        safe = IllegalAction(exc.code, **_safe_params(exc.params))
        return clip(explain(game.kind, safe, names, lang), 2000)
    if isinstance(exc, HostError):
        return clip(t(f"bot.error.{exc.code}", lang, **_safe_params(exc.params)), 2000)
    return t("bot.error_generic", lang)


def unkept(view: discord.ui.View) -> discord.ui.View:
    """A view of DynamicItems, stopped before it is sent: discord.py then does not keep it.
    Its items are found again by their custom id (also after a restart); kept, a private
    message's view would listen, with its timer, for 15 minutes."""
    view.stop()
    return view


def spent(view: discord.ui.View | None) -> None:
    """A view of DynamicItems once sent (:func:`unkept`: its items are found again by their
    custom ids): emptied, so that it and its items, which refer to each other, are freed by
    refcounting at once instead of by the garbage collector's passes (issue 25: GC pauses;
    the private answers' views were most of the cyclic garbage left). A view discord.py
    keeps (not stopped) keeps its items."""
    if isinstance(view, discord.ui.View) and view.is_finished():
        view.clear_items()


async def send_ephemeral(interaction: discord.Interaction, content: str | None = None,
                         **kwargs) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)
    spent(kwargs.get("view"))


def can_manage(interaction: discord.Interaction) -> bool:
    """May start, cancel and remove players in any game here: Manage Channels, or a member of
    the server's game managers' role (/darwin settings)."""
    perms = getattr(interaction, "permissions", None)
    if perms and (perms.manage_channels or perms.administrator):
        return True
    host = getattr(interaction.client, "host", None)
    role = host.cached_settings(interaction.guild_id).manager_role \
        if host is not None and interaction.guild_id is not None else None
    return role is not None and any(str(r.id) == role
                                    for r in getattr(interaction.user, "roles", []))


def let_go(interaction: discord.Interaction) -> None:
    """Its handler has ended: nothing answers through ``interaction.response`` any more (a
    table edits later through a slim copy: cogs/table.py ``slim``). The interaction and its
    InteractionResponse refer to each other; without that cycle, reference counting frees
    the interaction and all it holds (its message, member, data) when the last task that
    copied its handler's context ends, even if the collector froze them meanwhile
    (ops/memory.py: a frozen cycle is never freed)."""
    with contextlib.suppress(AttributeError):
        del interaction._cs_response


async def load_channel_game(interaction: discord.Interaction) -> bool:
    """Before any command, autocomplete or press: the channel's game and the server's
    settings in memory (both are read when first used). False (the user told why) if the
    store fails, or if the bot is stopping (nothing new is started then). The interaction
    is followed to the end of this handler (ops.interactions: metrics, the graceful stop)."""
    interactions.attach(interaction.response.is_done, functools.partial(let_go, interaction))
    if getattr(interaction.client, "stopping", False):
        if interaction.type != discord.InteractionType.autocomplete:
            await send_ephemeral(interaction, refusal(HostError("restarting"),
                                                      reader_lang(interaction)))
        interactions.mark(interactions.REJECTED)
        return False
    host = getattr(interaction.client, "host", None)
    if host is None or interaction.channel_id is None:
        return True
    try:
        await host.server_settings(interaction.guild_id)
        await host.ensure_loaded(interaction.channel_id)
    except HostError as exc:
        if interaction.type != discord.InteractionType.autocomplete:
            await send_ephemeral(interaction, refusal(exc, reader_lang(interaction)))
        return False
    return True


def quiet_autocomplete(func):
    """An autocomplete callback that never raises: a failure offers nothing (and is logged)."""

    @functools.wraps(func)
    async def wrapper(self, interaction: discord.Interaction, current: str):
        try:
            return await func(self, interaction, current)
        except Exception:
            log.exception("autocomplete %s failed", func.__name__)
            return []

    return wrapper


def encode_action(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number")


def decode_action(text: str) -> dict:
    """An action carried in a component or an autocomplete value (strict JSON: no NaN)."""
    try:
        action = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        raise HostError("bad_option", detail=clip(text, 40)) from None
    if not isinstance(action, dict) or any(isinstance(v, float) and not math.isfinite(v)
                                           for v in action.values()):
        raise HostError("bad_option", detail=clip(text, 40))
    return action


_render_pool = None
_render_where = "thread"  # a real bot process: "process" (draw_in_process)


def draw_in_process(bot) -> None:
    """A real bot process (bot.py, the load run's launcher) draws its boards in a worker
    process (:func:`render_pool`); tests and tools keep the thread, and so does a stand-in
    bot without listeners (tests of bot.py)."""
    global _render_where
    if hasattr(bot, "add_listener"):
        _render_where = "process"
        pool = render_pool()
        if pool is not None:  # the worker starts now (and warms up), not at the first board
            asyncio.get_running_loop().create_task(pool.start())


def _render_worker_start() -> None:
    """A render worker process (run below the bot's priority: ``nice`` 10): every game's first
    board drawn once (fonts, palettes and static layers: 0.2-1.2 s each, cold) before it
    serves."""
    from engine import Seat
    from engine.core import game_kinds, get_game
    from images import render

    for kind in game_kinds():
        try:
            rules = get_game(kind)
            state = rules.new_game([Seat(str(i), "-") for i in range(rules.min_players)], 1, {})
            render(kind, rules.view(state, None), "en")
        except Exception:  # noqa: BLE001 - a warm-up only: the real boards report failures
            log.warning("render worker: could not warm up %s", kind, exc_info=True)


def render_pool():
    """Where boards are drawn: None for a worker thread, or a pool of worker processes
    (``DARWIN_RENDER_WORKERS``, 1 by default) in a real bot process (:func:`draw_in_process`)
    or when ``DARWIN_RENDER_POOL=process`` (``thread`` forces the thread). A thread drawing in
    Python holds the interpreter's lock in turns with the event loop (asyncio's default pool
    ran six of them at once in an opening burst); a process does not, and it runs at a lower
    priority (nice 10) so that the event loop gets the CPU first. Measured (issue 25,
    bench/load.py --guilds 200 --games 600 --seconds 40, SQLite, the run's processes given
    priority on the shared 2 cores): whole-run p99 1,592 ms with the thread, 129 ms with one
    process; steady p99 139 and 26 ms."""
    global _render_pool
    if os.environ.get("DARWIN_RENDER_POOL", _render_where) != "process":
        return None
    if _render_pool is None:
        from host.workers import Pool

        # fresh interpreters that the event loop speaks to through their pipes
        _render_pool = Pool(int(os.environ.get("DARWIN_RENDER_WORKERS", "1")),
                            warm=_render_worker_start, nice=10)
    return _render_pool


async def draw(draw_png, *args) -> bytes:
    """``draw_png(*args)`` (a board or a hand, from images/) off the event loop: in the render
    worker process of a real bot, in a thread otherwise (and when the worker died)."""
    pool = render_pool()
    if pool is None:
        return await asyncio.to_thread(draw_png, *args)
    from host.workers import WorkerDied

    try:
        return await pool.call(draw_png, *args)
    except WorkerDied:  # the worker died (killed...): this one in a thread, a new one next time
        return await asyncio.to_thread(draw_png, *args)


class Picture(discord.File):
    """An image sent from memory. discord.py closes a file after its request by putting the
    buffer's own ``close`` back on the buffer: a cycle (buffer -> its ``__dict__`` -> bound
    method -> buffer) that reference counting never frees, and once the collector has frozen
    the buffer no collection frees it either (ops/memory.py), with the image in it. Closing a
    Picture removes that attribute again, so the buffer goes with its last reference."""

    __slots__ = ()

    def __init__(self, data: bytes, filename: str) -> None:
        super().__init__(io.BytesIO(data), filename=filename)

    def close(self) -> None:
        super().close()
        with contextlib.suppress(AttributeError):
            del self.fp.close


async def render_file(kind: str, view: dict, lang: str, filename: str) -> discord.File:
    """Draw a board off the event loop (a worker thread keeps the bot answering)."""
    from images import render

    return Picture(await draw(render, kind, view, lang), filename)


def close_render_pool() -> None:
    """The render worker stops (the bot's graceful stop, or a worker that died: a new pool at
    the next board)."""
    global _render_pool
    pool, _render_pool = _render_pool, None
    if pool is not None:
        pool.close()
