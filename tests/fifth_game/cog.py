"""The /fifth command group: the fifth game's thin adapter (``cogs.game.GameCog``).

The table shows one **My cards** button (the same for everyone, whoever has played: a secret
step shows nobody's progress in its buttons); it answers privately with the presser's hand
(its picture and a menu of the cards to put face down, bound to that seat's decision).
``/fifth play card:`` does the same from the keyboard."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from cogs.common import decode_action, encode_action, reader_lang, refusal, send_ephemeral
from cogs.game import GameCog
from cogs.table import ActSelect, HandButton
from host import HostError, LiveGame
from messages import t
from tests.fifth_game.messages import card_label


class Fifth(GameCog, group_name="fifth", group_description="Play Fifth"):
    kind = "fifth"

    def table_items(self, game: LiveGame, lang: str) -> list[discord.ui.Item]:
        return [HandButton(game.id, lang)] if game.awaiting() else []

    def status_lines(self, game: LiveGame, view: dict, lang: str) -> list[str]:
        return [t("fifth.bot.status", lang, round=view["round"])]

    def hand_menu(self, game: LiveGame, seat: int, lang: str) -> ActSelect | None:
        plays = game.rules.legal_actions(game.state, seat)
        if not plays:
            return None
        options = [discord.SelectOption(label=card_label(a["card"], lang), value=encode_action(a))
                   for a in plays]
        return ActSelect(game.id, game.key_for(seat), seat, options,
                         t("fifth.bot.select_play", lang))

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """The presser's hand, privately: its picture and the menu of cards to play."""
        from images import render_hand

        lang = reader_lang(interaction)
        game = self.host.game_in(interaction.channel_id)
        try:
            if game is None or game.id != game_id:
                raise HostError("stale_game")
            if game.status != "active":
                raise HostError("not_started")
            seat = game.seat_of(interaction.user.id)
            if seat is None:
                raise HostError("not_a_player")
        except HostError as exc:
            await send_ephemeral(interaction, refusal(exc, lang))
            return
        view = game.rules.view(game.state, seat)
        me = view["players"][seat]
        content = t("fifth.bot.hand", lang,
                    cards=", ".join(card_label(c, lang) for c in me["hand"]) or "—")
        if me["card"]:
            content += "\n" + t("fifth.bot.played", lang, card=card_label(me["card"], lang))
        kwargs: dict = {"file": discord.File(io.BytesIO(render_hand(self.kind, view, lang)),
                                             "hand.png")}
        menu = self.hand_menu(game, seat, lang)
        if menu is not None:
            buttons = discord.ui.View(timeout=None)
            buttons.add_item(menu)
            buttons.stop()
            kwargs["view"] = buttons
        await send_ephemeral(interaction, content, **kwargs)

    @app_commands.command(name="new", description="Open a Fifth lobby in this channel")
    @app_commands.describe(double_last="The last round's points count double",
                           timer="Turn timer in seconds (0 = off; default: the server's setting)",
                           thread="Open the table in a new thread (default: the server's setting)")
    async def new(self, interaction: discord.Interaction, double_last: bool = False,
                  timer: app_commands.Range[int, 0, 86400] | None = None,
                  thread: bool | None = None) -> None:
        await self.open_lobby(interaction, {"double_last": double_last}, timer, thread)

    @app_commands.command(name="play", description="Put a card of your hand face down")
    @app_commands.describe(card="A card of your hand")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        async with self.refusing(interaction):
            action = decode_action(card) if card.startswith("{") else {
                "type": "play", "card": card}
            await self._do(interaction, action)

    @play.autocomplete("card")
    async def _play_card(self, interaction: discord.Interaction, current: str):
        return self.action_choices(interaction, "play",
                                   lambda a, _names, lang: card_label(a["card"], lang), current)

    @app_commands.command(name="hand", description="See your cards (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            await self.show_hand(interaction, game.id)


async def setup(bot) -> None:
    await bot.add_cog(Fifth(bot))
