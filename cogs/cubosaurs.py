"""The /cubosaurs command group: thin adapters from slash commands and buttons to host actions."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common import decode_action, encode_action, send_ephemeral
from cogs.game import MAX_CHOICES, GameCog
from cogs.table import ActButton, ActSelect
from engine import IllegalAction
from host import HostError, LiveGame
from messages import t
from messages.cubosaurs import card_label, cards_label, direction_word, tile_name

TOPICS = ("turn", "round", "scoring", "dna")


def buy_label(action: dict, names: list[str], lang: str) -> str:
    """``Steal 1 card (4 DNA): Bob's Stegosaurus``: a buy action as a player reads it."""
    from engine.cubosaurs.data import tile

    detail = []
    if "target" in action:
        detail.append(names[action["target"]] if 0 <= action["target"] < len(names) else "?")
    for field in ("card", "take"):
        if field in action:
            detail.append(card_label(action[field], lang))
    return t("cubosaurs.bot.option_buy", lang, tile=tile_name(action["tile"], lang),
             cost=tile(action["tile"]).cost, detail=(": " + " · ".join(detail)) if detail else "")


def distinct_passes(legal: list[dict], lang: str) -> list[tuple[str, dict]]:
    """(label, action) for each pass that a player can tell apart (identical cards once)."""
    out: dict[str, dict] = {}
    for a in legal:
        if a["type"] == "pass":
            out.setdefault(card_label(a["card"], lang), a)
    return list(out.items())


class Cubosaurs(GameCog, group_name="cubosaurs", group_description="Play Cubosaurs"):
    kind = "cubosaurs"

    def table_items(self, game: LiveGame, lang: str) -> list[discord.ui.Item]:
        items: list[discord.ui.Item] = []
        names = game.names()
        for seat in game.awaiting():
            legal = game.rules.legal_actions(game.state, seat)
            for a in legal:
                if a["type"] == "take_token":
                    items.append(ActButton(game.id, a, t("cubosaurs.bot.btn_take", lang,
                                                         player=names[a["from"]])))
            if any(a["type"] == "keep" for a in legal):
                items.append(ActButton(game.id, {"type": "keep"},
                                       t("cubosaurs.bot.btn_keep", lang),
                                       discord.ButtonStyle.success))
            passes = distinct_passes(legal, lang)
            if passes:
                options = [discord.SelectOption(label=label[:100], value=encode_action(a))
                           for label, a in passes[:MAX_CHOICES]]
                items.append(ActSelect(game.id, seat, options,
                                       t("cubosaurs.bot.select_pass", lang), tag="pass"))
            buys = [a for a in legal if a["type"] == "buy"]
            if buys:
                options = [discord.SelectOption(label=buy_label(a, names, lang)[:100],
                                                value=encode_action(a))
                           for a in buys[:MAX_CHOICES]]
                items.append(ActSelect(game.id, seat, options,
                                       t("cubosaurs.bot.select_buy", lang), tag="buy"))
        return items

    def status_lines(self, game: LiveGame, v: dict, lang: str) -> list[str]:
        lines = [t("cubosaurs.bot.status_title", lang, round=v["round"], rounds=v["rounds"],
                   turn=v["turn"], direction=direction_word(v["direction"], lang),
                   deck=v["deck"])]
        for p in v["players"]:
            tokens = t("cubosaurs.bot.status_tokens", lang, tokens=p["tokens"]) \
                if v["advanced"] else ""
            lines.append(t("cubosaurs.bot.status_player", lang, name=p["name"],
                           cards=len(p["collection"]), score=p["score"]["total"],
                           total=p["total"], tokens=tokens))
        if v["hand"]:
            source = (v["players"][v["hand_from"]]["name"] if v["hand_from"] is not None
                      else t("cubosaurs.drawn", lang))
            lines.append(t("cubosaurs.bot.status_hand", lang, cards=cards_label(v["hand"], lang),
                           source=source))
        else:
            lines.append(t("cubosaurs.bot.no_hand", lang))
        return lines

    # --- lobby ------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a Cubosaurs lobby in this channel")
    @app_commands.describe(advanced="Advanced rules: DNA tokens and DNA Evolution tiles",
                           interactive="With the advanced rules, keep the tiles that act on "
                                       "opponents (destroy, steal, give, swap)",
                           timer="Turn timer in seconds (0 = off)",
                           thread="Open the table in a new thread")
    async def new(self, interaction: discord.Interaction, advanced: bool = False,
                  interactive: bool = True,
                  timer: app_commands.Range[int, 0, 86400] | None = None,
                  thread: bool = False) -> None:
        await self.open_lobby(interaction, {"advanced": advanced, "interactive": interactive},
                              timer, thread)

    # --- actions ----------------------------------------------------------------------------

    @app_commands.command(name="keep", description="Keep the whole hand: it joins your collection")
    async def keep(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, {"type": "keep"})

    @app_commands.command(name="pass", description="Pass the hand on, adding one card of your collection")
    @app_commands.describe(card="A card of your collection of a type not in the hand")
    async def pass_(self, interaction: discord.Interaction, card: str) -> None:
        async with self.refusing(interaction):
            self._game(interaction)
            await self._do(interaction, {"type": "pass", "card": self._card_id(interaction, card)})

    def _card_id(self, interaction: discord.Interaction, text: str) -> str:
        """A card id from the autocomplete, or the name a player typed (``stego``, ``T-Rex``)."""
        from engine.cubosaurs.data import CARDS

        text = text.strip()
        if text in CARDS:
            return text
        wanted = text.lower()
        passes = distinct_passes(self._legal(interaction)[1], self.lang)
        for label, action in passes:
            if wanted in (label.lower(), label.lower().replace(" 🧬", "")):
                return action["card"]
        for label, action in passes:
            if label.lower().startswith(wanted):
                return action["card"]
        raise IllegalAction("unknown_card", card=text[:40])

    @pass_.autocomplete("card")
    async def _pass_card(self, interaction: discord.Interaction, current: str):
        _, legal = self._legal(interaction)
        return [app_commands.Choice(name=label[:100], value=a["card"])
                for label, a in distinct_passes(legal, self.lang)
                if current.lower() in label.lower()][:MAX_CHOICES]

    @app_commands.command(name="buy", description="Advanced rules: buy a DNA tile and use it now")
    @app_commands.describe(tile="A tile on offer, with its target")
    async def buy(self, interaction: discord.Interaction, tile: str) -> None:
        async with self.refusing(interaction):
            self._game(interaction)
            if tile.startswith("{"):
                action = decode_action(tile)
                if action.get("type") != "buy":
                    raise HostError("bad_option", detail=tile[:40])
            else:
                wanted = tile.strip().lower()
                matches = [a for a in self._legal(interaction)[1] if a["type"] == "buy"
                           and wanted in (a["tile"], tile_name(a["tile"], self.lang).lower())]
                if len(matches) > 1:
                    raise HostError("bad_option", detail=t("cubosaurs.bot.choose_from_list",
                                                           self.lang))
                action = matches[0] if matches else {"type": "buy", "tile": wanted}
            await self._do(interaction, action)

    @buy.autocomplete("tile")
    async def _buy_tile(self, interaction: discord.Interaction, current: str):
        return self.action_choices(interaction, "buy", buy_label, current)

    @app_commands.command(name="token", description="Reserve empty: take your DNA token from a player")
    @app_commands.rename(source="from")
    @app_commands.describe(source="An opponent who has DNA tokens")
    async def token(self, interaction: discord.Interaction, source: discord.Member) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            seat = game.seat_of(source.id)
            if seat is None:
                raise HostError("not_a_player")
            await self._do(interaction, {"type": "take_token", "from": seat})

    # --- information ------------------------------------------------------------------------

    @app_commands.command(name="rules", description="Read a rule: a turn, rounds, scoring, DNA tiles")
    @app_commands.describe(topic="turn, round, scoring, dna or a tile")
    async def rules(self, interaction: discord.Interaction, topic: str) -> None:
        from engine.cubosaurs.data import TILES, rules_data, tile

        lang = self.lang
        kind, _, name = topic.partition(":")
        if kind == "rule" and name in TOPICS:
            title = t(f"cubosaurs.rules.{name}_title", lang)
            tables = "; ".join(f"{t(f'cubosaurs.type.{s}', lang)} {v}"
                               for s, v in rules_data()["species"].items())
            text = t(f"cubosaurs.rules.{name}", lang, tables=tables)
            if name == "dna":
                text += "\n" + "\n".join(t("cubosaurs.rules.tile_line", lang,
                                           tile=tile_name(x, lang), cost=tile(x).cost)
                                         for x in TILES)
        elif kind == "tile" and name in TILES:
            title = f"{tile_name(name, lang)} — {tile(name).cost} DNA"
            text = t(f"cubosaurs.tile_text.{name}", lang)
        else:
            await send_ephemeral(interaction, t("cubosaurs.bot.no_rules_topic", lang,
                                                topic=topic[:50]))
            return
        await send_ephemeral(interaction, embed=discord.Embed(title=title, description=text))

    @rules.autocomplete("topic")
    async def _rules_topic(self, interaction: discord.Interaction, current: str):
        from engine.cubosaurs.data import TILES

        lang = self.lang
        topics = [(f"rule:{x}", t(f"cubosaurs.rules.{x}_title", lang)) for x in TOPICS]
        topics += [(f"tile:{x}", tile_name(x, lang)) for x in TILES]
        return [app_commands.Choice(name=label, value=value) for value, label in topics
                if current.lower() in label.lower()][:MAX_CHOICES]


async def setup(bot) -> None:
    await bot.add_cog(Cubosaurs(bot))
