"""Owner-only maintenance commands."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import reader_lang, send_ephemeral
from messages import t


async def _is_owner(interaction: discord.Interaction) -> bool:
    return await interaction.client.is_owner(interaction.user)


class Admin(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    darwin = app_commands.Group(name="darwin", description="Darwin bot administration")

    @darwin.command(name="sync", description="Sync the slash commands now (bot owner only)")
    @app_commands.check(_is_owner)
    async def sync(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        synced = await self.bot.tree.sync()
        await send_ephemeral(interaction, t("bot.synced", reader_lang(interaction),
                                                  count=len(synced)))


async def setup(bot) -> None:
    await bot.add_cog(Admin(bot))
