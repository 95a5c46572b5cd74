"""The discord.py bot: loads the cogs and syncs the command tree."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

log = logging.getLogger("darwin")

EXTENSIONS: list[str] = []  # game cogs register here as they land


class DarwinBot(commands.Bot):
    def __init__(self, config: dict) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.config = config

    async def setup_hook(self) -> None:
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        guild_id = int(self.config["discord"].get("dev_guild") or 0)
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("commands synced to development guild %s", guild_id)

    async def on_ready(self) -> None:
        log.info("ready as %s", self.user)
