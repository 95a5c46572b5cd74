"""Small helpers shared by the cogs: replies, refusals, permissions, images."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import discord

from engine import IllegalAction
from host import HostError
from messages import explain, t

log = logging.getLogger("darwin.cogs")

NO_MENTIONS = discord.AllowedMentions.none()
USER_MENTIONS = discord.AllowedMentions(users=True, roles=False, everyone=False)


def lang_of(bot) -> str:
    return bot.config["games"].get("language", "en")


def refusal(exc: Exception, lang: str = "en", game=None) -> str:
    """The sentence for a refused action: by the rules of ``game`` (a LiveGame) or the host."""
    if isinstance(exc, IllegalAction):
        kind = game.kind if game is not None else "evo"
        return explain(kind, exc, game.names() if game is not None else None, lang)
    if isinstance(exc, HostError):
        return t(f"bot.error.{exc.code}", lang, **exc.params)
    return t("bot.error_generic", lang)


async def send_ephemeral(interaction: discord.Interaction, content: str | None = None,
                         **kwargs) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    kwargs.setdefault("allowed_mentions", NO_MENTIONS)
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_channels or perms.administrator))


def encode_action(action: dict) -> str:
    return json.dumps(action, separators=(",", ":"), sort_keys=True)


def decode_action(text: str) -> dict:
    try:
        action = json.loads(text)
    except ValueError:
        raise HostError("bad_option", detail=text[:40]) from None
    if not isinstance(action, dict):
        raise HostError("bad_option", detail=text[:40])
    return action


async def render_file(kind: str, view: dict, lang: str, filename: str) -> discord.File:
    """Draw a board off the event loop (a worker thread keeps the bot answering)."""
    from images import render

    png = await asyncio.to_thread(render, kind, view, lang)
    return discord.File(io.BytesIO(png), filename=filename)
