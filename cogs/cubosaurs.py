"""The /cubosaurs command group: thin adapters from slash commands and buttons to host actions."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common import (
    decode_action,
    encode_action,
    quiet_autocomplete,
    reader_lang,
    send_ephemeral,
    unkept,
)
from cogs.components import Component
from cogs.game import MAX_CHOICES, THREAD, TIMER, GameCog, Timer, rules_command
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


def distinct_buys(legal: list[dict], tile: str, names: list[str],
                  lang: str) -> list[tuple[str, dict]]:
    """(label, action) for each way to buy ``tile`` that a player can tell apart."""
    out: dict[str, dict] = {}
    for a in legal:
        if a["type"] == "buy" and a["tile"] == tile:
            out.setdefault(buy_label(a, names, lang), a)
    return list(out.items())


class ChoiceButton(Component, prefix="c",
                   fields=r"(?P<game>\d+):(?:(?P<seq>\d+):)?(?P<seat>\d+):(?P<what>[a-z_]+)"):
    """**Pass…** or **Buy: a tile**: answers the presser privately with the choices (the card
    to add, the tile's target), or applies the action at once when there is only one. Bound
    to the position ``seq`` it was drawn for, like every table component."""

    bound = True

    def __init__(self, game_id: int, seq: int | None, seat: int, what: str, label: str,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label[:80], style=style,
                                           custom_id=self.make_id(game_id, seq, seat, what)))
        self.game_id = game_id
        self.seq = seq
        self.seat = seat
        self.what = what

    @classmethod
    def rebuild(cls, fields, item):
        return cls(fields["game"], fields["seq"], fields["seat"], fields["what"],
                   item.label or "?", item.style)

    async def run(self, interaction: discord.Interaction) -> None:
        game = self.live_game(interaction)
        await interaction.client.game_cog("cubosaurs").offer_choices(
            interaction, game, self.seq, self.seat, self.what)


class Cubosaurs(GameCog, group_name="cubosaurs", group_description="Play Cubosaurs"):
    kind = "cubosaurs"

    def action_label(self, game, seat, view, action, lang):
        """A pass by the card it adds, a purchase as the tile menu names it; the rest as the
        table's buttons name them."""
        if action["type"] == "pass" and "card" in action:
            return f"{t('cubosaurs.bot.select_pass', lang)} {card_label(action['card'], lang)}"
        if action["type"] == "buy":
            return buy_label(action, game.names(), lang)
        return None

    def table_items(self, game: LiveGame, lang: str) -> list[discord.ui.Item]:
        """Keep, Pass… and a button per tile that can be bought now (checked again on press)."""
        from engine.cubosaurs.data import tile

        items: list[discord.ui.Item] = []
        names = game.names()
        for seat in self.people_awaited(game):
            legal = game.rules.legal_actions(game.state, seat)
            kinds = {a["type"] for a in legal}
            for a in legal:
                if a["type"] == "take_token":
                    items.append(ActButton(game.id, game.seq, a, t("cubosaurs.bot.btn_take", lang,
                                                         player=names[a["from"]])))
            if "keep" in kinds:
                items.append(ActButton(game.id, game.seq, {"type": "keep"},
                                       t("cubosaurs.bot.btn_keep", lang),
                                       discord.ButtonStyle.success))
            if "pass" in kinds:
                items.append(ChoiceButton(game.id, game.seq, seat, "pass",
                                          t("cubosaurs.bot.btn_pass", lang),
                                          discord.ButtonStyle.primary))
            for tid in dict.fromkeys(a["tile"] for a in legal if a["type"] == "buy"):
                items.append(ChoiceButton(game.id, game.seq, seat, tid, t(
                    "cubosaurs.bot.btn_buy", lang, tile=tile_name(tid, lang), cost=tile(tid).cost)))
        return items

    async def offer_choices(self, interaction: discord.Interaction, game: LiveGame,
                            seq: int | None, seat: int, what: str) -> None:
        """The presser's private menu for a pass or a tile (or the action, if it is the only
        one). A refusal is raised for the button to answer."""
        lang = reader_lang(interaction)
        if game.status != "active":
            raise HostError("stale_game")
        mine = game.seat_of(interaction.user.id)
        if mine is None:
            raise HostError("not_a_player")
        self.host.check_position(game, mine, seq)
        if mine != seat or seat not in game.awaiting():
            raise IllegalAction("not_your_turn", player=mine, waiting=game.awaiting())
        legal = game.rules.legal_actions(game.state, seat)
        if what == "pass":
            choices = distinct_passes(legal, lang)
            placeholder = t("cubosaurs.bot.select_pass", lang)
        else:
            choices = distinct_buys(legal, what, game.names(), lang)
            placeholder = t("cubosaurs.bot.select_target", lang, tile=tile_name(what, lang))
        if not choices:  # the position changed since the message was posted
            raise HostError("stale_game")
        if what != "pass" and len(choices) == 1:
            await self.press(interaction, game.id, seq, choices[0][1], seat=seat)
            return
        view = discord.ui.View(timeout=None)
        options = [discord.SelectOption(label=label[:100], value=encode_action(a))
                   for label, a in choices[:MAX_CHOICES]]
        view.add_item(ActSelect(game.id, seq, seat, options, placeholder, tag=what))
        more = t("cubosaurs.bot.more_choices", lang, count=len(choices)) \
            if len(choices) > MAX_CHOICES else ""
        await send_ephemeral(interaction, (placeholder + "\n" + more).strip(),
                             view=unkept(view))

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
                           timer=TIMER, thread=THREAD)
    async def new(self, interaction: discord.Interaction, advanced: bool = False,
                  interactive: bool = True, timer: Timer | None = None,
                  thread: bool | None = None) -> None:
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
        """A card id from the autocomplete, or the name a player typed (``stego``, ``T-Rex``):
        a card of the caller's collection by that name (a legal one first), so that the
        engine explains why it cannot be added when it cannot."""
        from engine.cubosaurs.data import CARDS

        text = text.strip()
        if text in CARDS:
            return text
        game = self._game(interaction)
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise HostError("not_a_player")
        legal = {a["card"] for a in game.rules.legal_actions(game.state, seat)
                 if a["type"] == "pass"}
        mine = sorted(game.rules.view(game.state, seat)["players"][seat]["collection"],
                      key=lambda c: c not in legal)
        wanted = text.lower()
        for exact in (True, False):
            for cid in mine:
                label = card_label(cid, reader_lang(interaction)).lower()
                names = (label, label.replace(" 🧬", ""), label.split(" (")[0])
                if (wanted in names) if exact else label.startswith(wanted):
                    return cid
        raise IllegalAction("unknown_card", card=text[:40])

    @pass_.autocomplete("card")
    @quiet_autocomplete
    async def _pass_card(self, interaction: discord.Interaction, current: str):
        _, legal = self._legal(interaction)
        return self.matching(((label, a["card"]) for label, a
                              in distinct_passes(legal, reader_lang(interaction))), current)

    @app_commands.command(name="buy", description="Advanced rules: buy a DNA tile and use it now",
                          extras={"actions": ("buy",)})
    @app_commands.describe(tile="A tile on offer, with its target")
    @app_commands.autocomplete(tile=GameCog.action_autocomplete)
    async def buy(self, interaction: discord.Interaction, tile: str) -> None:
        async with self.refusing(interaction):
            self._game(interaction)
            if tile.startswith("{"):
                action = decode_action(tile)
                if action.get("type") != "buy":
                    raise HostError("bad_option", detail=tile[:40])
            else:
                from engine.cubosaurs.data import TILES

                wanted = tile.strip().lower()
                tid = next((x for x in TILES
                            if wanted in (x, tile_name(x, reader_lang(interaction)).lower())),
                           wanted)
                matches = [a for a in self._legal(interaction)[1]
                           if a["type"] == "buy" and a["tile"] == tid]
                if len(matches) > 1:
                    raise HostError("bad_option", detail=t("cubosaurs.bot.choose_from_list",
                                                           reader_lang(interaction)))
                # a tile that needs no choice, or the engine's reason why it cannot be bought
                action = matches[0] if matches else {"type": "buy", "tile": tid}
            await self._do(interaction, action)

    @app_commands.command(name="token", description="Reserve empty: take your DNA token from a player")
    @app_commands.rename(source="from")
    @app_commands.describe(source="A player who has DNA tokens (AI seats included)")
    async def token(self, interaction: discord.Interaction, source: str) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            text = source.strip()
            names = [n.lower() for n in game.names()]
            if text.isdigit() and int(text) < len(names):
                seat = int(text)
            elif text.lower() in names:
                seat = names.index(text.lower())
            else:
                raise HostError("not_a_player")
            await self._do(interaction, {"type": "take_token", "from": seat})

    @token.autocomplete("source")
    @quiet_autocomplete
    async def _token_source(self, interaction: discord.Interaction, current: str):
        game, legal = self._legal(interaction)
        if game is None:
            return []
        names = game.names()
        return [app_commands.Choice(name=names[a["from"]], value=str(a["from"])) for a in legal
                if a["type"] == "take_token" and current.lower() in names[a["from"]].lower()]

    # --- information ------------------------------------------------------------------------

    rules = rules_command("Read a rule: a turn, rounds, scoring, DNA tiles",
                          topic="turn, round, scoring, dna or a tile")

    def topics(self, lang: str) -> list[tuple[str, str]]:
        from engine.cubosaurs.data import TILES

        return ([(f"rule:{x}", t(f"cubosaurs.rules.{x}_title", lang)) for x in TOPICS]
                + [(f"tile:{x}", tile_name(x, lang)) for x in TILES])

    def typed_topic(self, text: str, lang: str) -> tuple[str, str]:
        """"turn", "steal", "Swap 1 card": a rule, or a tile by its id or its reader's name."""
        from engine.cubosaurs.data import TILES

        wanted = text.lower()
        name = next((x for x in TILES if wanted in (x, tile_name(x, lang).lower())), wanted)
        return "rule" if name in TOPICS else "tile", name

    def topic_text(self, kind: str, name: str, lang: str) -> tuple[str, str] | None:
        from engine.cubosaurs.data import TILES, rules_data, tile

        if kind == "rule" and name in TOPICS:
            tables = "; ".join(f"{t(f'cubosaurs.type.{s}', lang)} {v}"
                               for s, v in rules_data()["species"].items())
            text = t(f"cubosaurs.rules.{name}", lang, tables=tables)
            if name == "dna":
                text += "\n" + "\n".join(t("cubosaurs.rules.tile_line", lang,
                                           tile=tile_name(x, lang), cost=tile(x).cost)
                                         for x in TILES)
            return t(f"cubosaurs.rules.{name}_title", lang), text
        if kind == "tile" and name in TILES:
            return (f"{tile_name(name, lang)} — {tile(name).cost} DNA",
                    t(f"cubosaurs.tile_text.{name}", lang))
        return None

async def setup(bot) -> None:
    await bot.add_cog(Cubosaurs(bot))
