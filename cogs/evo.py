"""The /evo command group: thin adapters from slash commands and buttons to host actions."""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common import (
    decode_action,
    encode_action,
    quiet_autocomplete,
    reader_lang,
    refusal,
    send_ephemeral,
    unkept,
)
from cogs.game import MAX_CHOICES, THREAD, TIMER, GameCog, Timer, rules_command
from cogs.table import ActButton, ActSelect, HandButton
from engine import IllegalAction
from engine.evo.data import BAG_KINDS
from host import AUTOPASS_MODES, HostError, LiveGame
from messages import resolve, t
from messages.evo import card_name, gene_name

MAX_SELECT = 25
PHASES = ("initiative", "climate", "movement", "births", "survival", "evolution")


def play_label(action: dict, names: list[str], lang: str) -> str:
    card = card_name(action["card"], lang)
    if "target" in action and "region" in action:
        return t("bot.btn_play_target", lang, card=card,
                 target=f"{names[action['target']]} {action['region']}")
    if "target" in action:
        return t("bot.btn_play_target", lang, card=card, target=names[action["target"]])
    if "region" in action:
        return t("bot.btn_play_target", lang, card=card, target=action["region"])
    if "die" in action:
        return t("bot.btn_play_target", lang, card=card, target=f"⚀ {action['die']}")
    return t("bot.btn_play", lang, card=card)


class Evo(GameCog, group_name="evo", group_description="Play EVO"):
    kind = "evo"

    def action_label(self, game, seat, view, action, lang):
        """A card play (made from the private hand) by its card; the rest as the table's
        buttons name them."""
        return play_label(action, game.names(), lang) if action["type"] == "play" else None

    def table_items(self, game: LiveGame, lang: str) -> list[discord.ui.Item]:
        """EVO's buttons and menus valid now (every press is checked again when it arrives)."""
        rules, state = game.rules, game.state
        items: list[discord.ui.Item] = []
        if state.window is not None:
            # a card window asks its players at once, each answering secretly: one Pass for
            # all, bound to the public step (``press``), and the cards in **My cards**
            items.append(ActButton(game.id, game.step, {"type": "pass"},
                                   t("bot.btn_pass", lang)))
            items.append(HandButton(game.id, lang))
            return items
        names = game.names()
        buttons = 0
        for seat in self.people_awaited(game):
            legal = rules.legal_actions(state, seat)
            kinds = {a["type"] for a in legal}
            key = game.key_for(seat)  # another player's loss choice leaves it as it is
            if "end" in kinds:
                items.append(ActButton(game.id, key, {"type": "end"}, t("bot.btn_end", lang),
                                        discord.ButtonStyle.success))
                buttons += 1
            hatch = [a for a in legal if a["type"] == "hatch"]
            if hatch and len(hatch) <= MAX_SELECT:
                options = [discord.SelectOption(label=a["region"], value=encode_action(a))
                           for a in hatch]
                items.append(ActSelect(game.id, key, seat, options,
                                       t("bot.select_hatch", lang)))
            lose = [a for a in legal if a["type"] == "lose"]
            if lose and len(lose) <= MAX_SELECT:
                options = [discord.SelectOption(
                    label=t("bot.select_option_lose", lang, regions=", ".join(a["regions"])),
                    value=encode_action(a)) for a in lose]
                items.append(ActSelect(game.id, key, seat, options,
                                       t("bot.select_lose", lang, player=names[seat]),
                                       tag="lose"))
            if "bid" in kinds:
                auction = state.auction
                for slot, gene in enumerate(auction["genes"]):
                    held = auction["bids"][slot]
                    bids = [a for a in legal if a["type"] == "bid" and a["gene"] == slot]
                    if not bids:
                        continue
                    low = min(a["amount"] for a in bids)
                    if held is None:
                        label = t("bot.btn_bid_free", lang, gene=gene_name(gene, lang))
                        items.append(ActButton(game.id, key,
                                               {"type": "bid", "gene": slot, "amount": low},
                                               label))
                        continue
                    for extra in (1, 2):
                        amount = held[1] + extra
                        if any(a["amount"] == amount for a in bids):
                            label = t("bot.btn_bid_raise", lang, gene=gene_name(gene, lang),
                                      step=extra, amount=amount)
                            items.append(ActButton(game.id, key,
                                                   {"type": "bid", "gene": slot,
                                                    "amount": amount}, label))
            if "first" in kinds:  # MOI D'ABORD, played face up: play first in this phase?
                items.append(ActButton(game.id, key, {"type": "first", "go": True},
                                       t("bot.btn_first_go", lang), discord.ButtonStyle.success))
                items.append(ActButton(game.id, key, {"type": "first", "go": False},
                                       t("bot.btn_first_keep", lang)))
            if "pass" in kinds:
                items.append(ActButton(game.id, key, {"type": "pass"},
                                       t("bot.btn_pass", lang)))
        items.append(HandButton(game.id, lang))
        return items

    async def press(self, interaction: discord.Interaction, game_id: int, seq: int | None,
                    action: dict, seat: int | None = None) -> None:
        """The card window's public Pass is bound to the public step, which a secret answer
        does not move: pressed by a player asked in that window, it is their own answer now
        (bound to their key); every other press goes the shared way."""
        game = self.host.game_in(interaction.channel_id)
        if (action == {"type": "pass"} and game is not None and game.id == game_id
                and game.status == "active" and game.state.window is not None
                and seq == game.step):
            me = game.seat_of(interaction.user.id)
            if me is not None and me in game.state.window["asked"]:
                seq = game.key_for(me)
        await super().press(interaction, game_id, seq, action, seat)

    def status_lines(self, game: LiveGame, v: dict, lang: str) -> list[str]:
        lines = [t("bot.status_title", lang, game="EVO", turn=v["turn"],
                   phase=t(f"evo.phase.{v['phase']}", lang))]
        for i, p in enumerate(v["order"]):
            pl = v["players"][p]
            lines.append(t("bot.status_player", lang, order=i + 1, name=pl["name"], mp=pl["mp"],
                           dinos=pl["dinos"], cards=pl["cards"]))
        return lines

    # --- lobby ------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open an EVO lobby in this channel")
    @app_commands.describe(variant="Variant auction (one gene fewer than players)",
                           timer=TIMER, thread=THREAD)
    async def new(self, interaction: discord.Interaction, variant: bool = False,
                  timer: Timer | None = None, thread: bool | None = None) -> None:
        await self.open_lobby(interaction, {"variant": variant}, timer, thread)

    # --- actions ----------------------------------------------------------------------------

    @app_commands.command(name="move", description="Move one dino one region (phase 3)")
    @app_commands.rename(origin="from", dest="to")
    @app_commands.describe(origin="Region of your dino, e.g. C4", dest="Adjacent region")
    async def move(self, interaction: discord.Interaction, origin: str, dest: str) -> None:
        await self._do(interaction, {"type": "move", "from": origin.strip().upper(),
                                     "to": dest.strip().upper()})

    @move.autocomplete("origin")
    @quiet_autocomplete
    async def _move_from(self, interaction: discord.Interaction, current: str):
        _, legal = self._legal(interaction)
        seen = sorted({a["from"] for a in legal if a["type"] == "move"})
        return [app_commands.Choice(name=r, value=r) for r in seen
                if r.startswith(current.upper())][:MAX_CHOICES]

    @move.autocomplete("dest")
    @quiet_autocomplete
    async def _move_to(self, interaction: discord.Interaction, current: str):
        _, legal = self._legal(interaction)
        origin = str(getattr(interaction.namespace, "from", "") or "").upper()
        out = []
        for a in legal:
            if (a["type"] == "move" and (not origin or a["from"] == origin)
                    and a["to"] not in out and a["to"].startswith(current.upper())):
                out.append(a["to"])
        return [app_commands.Choice(name=r, value=r) for r in sorted(out)][:MAX_CHOICES]

    @app_commands.command(name="end", description="End your movement (phase 3)")
    async def end(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, {"type": "end"})

    @app_commands.command(name="hatch", description="Place a newborn (phase 4)")
    @app_commands.describe(region="An empty region next to one of your adults")
    async def hatch(self, interaction: discord.Interaction, region: str) -> None:
        await self._do(interaction, {"type": "hatch", "region": region.strip().upper()})

    @hatch.autocomplete("region")
    @quiet_autocomplete
    async def _hatch_region(self, interaction: discord.Interaction, current: str):
        _, legal = self._legal(interaction)
        return [app_commands.Choice(name=a["region"], value=a["region"]) for a in legal
                if a["type"] == "hatch" and a["region"].startswith(current.upper())][:MAX_CHOICES]

    @app_commands.command(name="lose", description="Choose which dinos die (phase 5)")
    @app_commands.describe(regions="Regions of the dinos you give up, e.g. B2 C3")
    async def lose(self, interaction: discord.Interaction, regions: str) -> None:
        names = [r.strip().upper() for r in regions.replace(",", " ").split() if r.strip()]
        await self._do(interaction, {"type": "lose", "regions": names})

    @app_commands.command(name="bid", description="Bid on a gene of the auction (phase 6)")
    @app_commands.describe(gene="Gene on the auction table", amount="Mutation points (0 or more)")
    async def bid(self, interaction: discord.Interaction, gene: str,
                  amount: app_commands.Range[int, 0, 999]) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            slot = self._gene_slot(game, gene)
            await self._do(interaction, {"type": "bid", "gene": slot, "amount": amount})

    def _gene_slot(self, game: LiveGame, text: str) -> int:
        """The auction slot a /evo bid option names: its number, or a gene's name in any
        catalogue language (a slot nobody holds first)."""
        auction = getattr(game.state, "auction", None) if game.state is not None else None
        if not auction:
            raise IllegalAction("wrong_action", expected="—", got="bid")
        text = text.strip()
        if text.isdigit() and int(text) < len(auction["genes"]):
            return int(text)
        gene = resolve(text, BAG_KINDS, "evo.gene.{id}")
        slots = [i for i, g in enumerate(auction["genes"]) if g == gene]
        if not slots:
            raise IllegalAction("unknown_gene", gene=text)
        free = [i for i in slots if auction["bids"][i] is None]
        return (free or slots)[0]

    @bid.autocomplete("gene")
    @quiet_autocomplete
    async def _bid_gene(self, interaction: discord.Interaction, current: str):
        game = self.host.game_in(interaction.channel_id)
        if (game is None or game.kind != self.kind or game.status != "active"
                or not game.state.auction):
            return []
        auction = game.state.auction
        names = game.names()
        lang = reader_lang(interaction)
        out = []
        for slot, gene in enumerate(auction["genes"]):
            held = auction["bids"][slot]
            label = f"{slot}: {gene_name(gene, lang)}"
            label += f" — {names[held[0]]} {held[1]}" if held else " — 0"
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label, value=str(slot)))
        return out[:MAX_CHOICES]

    @app_commands.command(name="pass", description="Pass: play no card now, or drop out of the auction")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, {"type": "pass"})

    @app_commands.command(name="play", description="Play an event card now",
                          extras={"actions": ("play",)})
    @app_commands.describe(card="A card of yours that is playable now (with its target)")
    @app_commands.autocomplete(card=GameCog.action_autocomplete)
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            await self._do(interaction, self._play_action(interaction, game, card))

    def _play_action(self, interaction: discord.Interaction, game: LiveGame, text: str) -> dict:
        """The action a /evo play option names: the autocomplete's action, or a card's name
        as any catalogue shows it (case and accents ignored); with one legal way to play it,
        that way, else the bare card so that the rules say why (or which target is missing)."""
        from engine.evo.data import rules_data

        if text.startswith("{"):
            action = decode_action(text)
            if action.get("type") != "play":
                raise HostError("bad_option", detail=text)
            return action
        card = resolve(text, rules_data()["cards"]["deck"], "evo.card.{id}.name")
        if card is None:
            raise IllegalAction("unknown_card", card=text.strip())
        seat = game.seat_of(interaction.user.id)
        ways = [a for a in (game.rules.legal_actions(game.state, seat)
                            if seat is not None and game.status == "active" else [])
                if a["type"] == "play" and a["card"] == card]
        if len(ways) > 1:
            raise HostError("choose_target", card=card_name(card, reader_lang(interaction)))
        return ways[0] if ways else {"type": "play", "card": card}

    @app_commands.command(name="autopass",
                          description="Card windows: when the bot passes for you")
    @app_commands.describe(mode="always, playable (only when you hold nothing playable: others "
                                "may notice) or off")
    @app_commands.choices(mode=[app_commands.Choice(name=x, value=x) for x in AUTOPASS_MODES])
    async def autopass(self, interaction: discord.Interaction, mode: str) -> None:
        async with self.refusing(interaction):
            self._game(interaction)
            await self.host.set_autopass(interaction.channel_id, interaction.user.id, mode)
            lang = reader_lang(interaction)
            await send_ephemeral(interaction, t("bot.autopass_set", lang,
                                                mode=t(f"bot.autopass.{mode}", lang)))

    # --- information ------------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your event cards (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            game = self._game(interaction)
            await self.show_hand(interaction, game.id)

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
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
        hand = view["players"][seat]["hand"]
        locked = view["state"]["locked"][seat]
        embed = discord.Embed(title=t("bot.hand_title", lang), colour=discord.Colour.gold())
        if not hand:
            embed.description = t("bot.hand_empty", lang)
        for card in hand:
            extra = t("bot.hand_locked", lang) if card in locked else ""
            embed.add_field(name=card_name(card, lang) + extra,
                            value=f"*{t(f'evo.card.{card}.when', lang)}*\n"
                                  f"{t(f'evo.card.{card}.text', lang)}", inline=False)
        buttons = discord.ui.View(timeout=None)
        plays = [a for a in game.rules.legal_actions(game.state, seat) if a["type"] == "play"]
        names = game.names()
        for a in plays[:MAX_CHOICES]:
            buttons.add_item(ActButton(game.id, game.key_for(seat), a, play_label(a, names, lang),
                                       discord.ButtonStyle.primary))
        footer = []
        answer = view["state"]["answers"][seat]
        if answer is not None:  # their secret answer in the card window's round
            chosen = (t("evo.answer.pass", lang) if answer["type"] == "pass"
                      else play_label(answer, names, lang))
            footer.append(t("evo.answer.given", lang, answer=chosen))
        elif hand:
            footer.append(t("bot.hand_playable" if plays else "bot.hand_none_playable", lang))
        if footer:
            embed.set_footer(text="\n".join(footer))
        await send_ephemeral(interaction, embed=embed,
                             view=unkept(buttons) if plays else discord.utils.MISSING)

    rules = rules_command("Read a rule: a phase, a gene or a card",
                          topic="phase, gene or card")

    no_topic_key = "bot.no_rules_topic"

    def topics(self, lang: str) -> list[tuple[str, str]]:
        """Phases, genes, cards."""
        from engine.evo.data import rules_data

        return ([(f"phase:{p}", f"{i + 1}. {t(f'evo.phase.{p}', lang)}")
                 for i, p in enumerate(PHASES)]
                + [(f"gene:{g}", f"{t('evo.rules.gene_word', lang)}: {gene_name(g, lang)}")
                   for g in BAG_KINDS]
                + [(f"card:{c}", card_name(c, lang)) for c in rules_data()["cards"]["deck"]])

    def topic_of(self, topic: str, lang: str) -> tuple[str, str]:
        kind, _, name = topic.partition(":")  # the autocomplete's values only, as they are
        return kind, name

    def topic_text(self, kind: str, name: str, lang: str) -> tuple[str, str] | None:
        if kind == "phase" and name in PHASES:
            return t(f"evo.phase.{name}", lang), t(f"evo.rules.phase.{name}", lang)
        if kind == "gene" and name in BAG_KINDS:
            return gene_name(name, lang), t(f"evo.rules.gene.{name}", lang)
        if kind == "card" and t(f"evo.card.{name}.name", lang) != f"evo.card.{name}.name":
            return (card_name(name, lang),
                    f"*{t(f'evo.card.{name}.when', lang)}*\n{t(f'evo.card.{name}.text', lang)}")
        return None

async def setup(bot) -> None:
    await bot.add_cog(Evo(bot))
