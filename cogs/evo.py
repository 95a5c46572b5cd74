"""The /evo command group: thin adapters from slash commands and buttons to host actions."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    NO_MENTIONS,
    can_manage,
    decode_action,
    encode_action,
    lang_of,
    refusal,
    send_ephemeral,
)
from cogs.table import ActButton, play_label
from engine import IllegalAction
from engine.evo.data import GENE_KINDS
from host import HostError, LiveGame
from images.evo import render_evo
from messages import t
from messages.evo import card_name, gene_name

MAX_CHOICES = 25
PHASES = ("initiative", "climate", "movement", "births", "survival", "evolution")


def _topics(lang: str) -> list[tuple[str, str]]:
    """(value, label) of every /evo rules topic: phases, genes, cards."""
    from engine.evo.data import rules_data

    out = [(f"phase:{p}", f"{i + 1}. {t(f'evo.phase.{p}', lang)}") for i, p in enumerate(PHASES)]
    out += [(f"gene:{g}", f"{t('evo.rules.gene_word', lang)}: {gene_name(g, lang)}")
            for g in ("card",) + GENE_KINDS]
    out += [(f"card:{c}", card_name(c, lang)) for c in rules_data()["cards"]["deck"]]
    return out


class Evo(commands.GroupCog, group_name="evo", group_description="Play EVO"):
    def __init__(self, bot) -> None:
        self.bot = bot
        self._boards: dict[int, tuple[int, bytes]] = {}  # game id -> (seq, PNG)
        super().__init__()

    @property
    def host(self):
        return self.bot.host

    @property
    def lang(self) -> str:
        return lang_of(self.bot)

    # --- plumbing ---------------------------------------------------------------------------

    def _game(self, interaction: discord.Interaction) -> LiveGame:
        game = self.host.game_in(interaction.channel_id)
        if game is None:
            raise HostError("no_game")
        if game.kind != "evo":
            raise HostError("wrong_game", game="EVO")
        return game

    def _seat(self, game: LiveGame, interaction: discord.Interaction) -> int | None:
        return game.seat_of(interaction.user.id)

    def _legal(self, interaction: discord.Interaction) -> tuple[LiveGame | None, list[dict]]:
        """The caller's legal actions now ([] if not their turn): for autocomplete."""
        game = self.host.game_in(interaction.channel_id)
        if game is None or game.status != "active":
            return game, []
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            return game, []
        return game, game.rules.legal_actions(game.state, seat)

    async def _do(self, interaction: discord.Interaction, action: dict) -> None:
        """Slash-command path: acknowledge at once, apply, then confirm or explain."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        game = self.host.game_in(interaction.channel_id)
        try:
            game = self._game(interaction)
            await self.host.act(interaction.channel_id, interaction.user.id, action)
        except (HostError, IllegalAction) as exc:
            await interaction.followup.send(refusal(exc, game.names() if game else None,
                                                    self.lang), ephemeral=True)
            return
        await interaction.followup.send(t("bot.ok", self.lang), ephemeral=True)

    async def press(self, interaction: discord.Interaction, game_id: int, action: dict,
                    seat: int | None = None) -> None:
        """Button/menu path: the press is checked against the current state."""
        await interaction.response.defer()
        game = self.host.game_in(interaction.channel_id)
        try:
            if game is None or game.id != game_id:
                raise HostError("stale_game")
            if seat is not None and game.seat_of(interaction.user.id) not in (seat, None):
                raise IllegalAction("not_your_turn", player=game.seat_of(interaction.user.id),
                                    waiting=[seat])
            await self.host.act(interaction.channel_id, interaction.user.id, action,
                                game_id=game_id)
        except (HostError, IllegalAction) as exc:
            await interaction.followup.send(refusal(exc, game.names() if game else None,
                                                    self.lang), ephemeral=True)

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, (HostError, IllegalAction)):
            await send_ephemeral(interaction, refusal(original, None, self.lang))
            return
        if isinstance(error, app_commands.TransformerError):
            await send_ephemeral(interaction, t("bot.error.bad_option", self.lang,
                                                detail=str(error.value)[:50]))
            return
        raise error

    # --- lobby ------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open an EVO lobby in this channel")
    @app_commands.describe(variant="Variant auction (one gene fewer than players)",
                           timer="Turn timer in seconds (0 = off)",
                           thread="Open the table in a new thread")
    async def new(self, interaction: discord.Interaction, variant: bool = False,
                  timer: app_commands.Range[int, 0, 86400] | None = None,
                  thread: bool = False) -> None:
        try:
            await self.bot.get_cog("Lobby").open(interaction, "evo", {"variant": variant},
                                                 timer, thread)
        except HostError as exc:
            await send_ephemeral(interaction, refusal(exc, None, self.lang))

    @app_commands.command(name="remove", description="Remove a player from the lobby")
    async def remove(self, interaction: discord.Interaction, player: discord.Member) -> None:
        game = self._game(interaction)
        seat = game.seat_of(player.id)
        if seat is None:
            raise HostError("not_in_lobby")
        await self.host.remove_seat(interaction.channel_id, interaction.user.id, seat,
                                    can_manage(interaction))
        await send_ephemeral(interaction, t("bot.ok", self.lang))

    @app_commands.command(name="cancel", description="Cancel this channel's game")
    async def cancel(self, interaction: discord.Interaction) -> None:
        self._game(interaction)
        await self.host.cancel(interaction.channel_id, interaction.user.id, can_manage(interaction))
        await interaction.response.send_message(t("bot.lobby_cancelled", self.lang))

    @app_commands.command(name="leave", description="Leave the game (an AI takes your seat)")
    async def leave(self, interaction: discord.Interaction) -> None:
        game = self._game(interaction)
        name = interaction.user.display_name
        await self.host.leave_game(interaction.channel_id, interaction.user.id)
        if game.status == "active":
            await interaction.response.send_message(t("bot.ai_took_over", self.lang, player=name),
                                                    allowed_mentions=NO_MENTIONS)
        else:
            await send_ephemeral(interaction, t("bot.ok", self.lang))

    # --- actions ----------------------------------------------------------------------------

    @app_commands.command(name="move", description="Move one dino one region (phase 3)")
    @app_commands.rename(origin="from", dest="to")
    @app_commands.describe(origin="Region of your dino, e.g. C4", dest="Adjacent region")
    async def move(self, interaction: discord.Interaction, origin: str, dest: str) -> None:
        await self._do(interaction, {"type": "move", "from": origin.strip().upper(),
                                     "to": dest.strip().upper()})

    @move.autocomplete("origin")
    async def _move_from(self, interaction: discord.Interaction, current: str):
        _, legal = self._legal(interaction)
        seen = sorted({a["from"] for a in legal if a["type"] == "move"})
        return [app_commands.Choice(name=r, value=r) for r in seen
                if r.startswith(current.upper())][:MAX_CHOICES]

    @move.autocomplete("dest")
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
        game = self._game(interaction)
        slot = self._gene_slot(game, gene)
        await self._do(interaction, {"type": "bid", "gene": slot, "amount": amount})

    def _gene_slot(self, game: LiveGame, text: str) -> int:
        auction = getattr(game.state, "auction", None) if game.state is not None else None
        if not auction:
            raise IllegalAction("wrong_action", expected="—", got="bid")
        text = text.strip().lower()
        if text.isdigit() and int(text) < len(auction["genes"]):
            return int(text)
        names = {g: gene_name(g, self.lang).lower() for g in auction["genes"]}
        free = [i for i, g in enumerate(auction["genes"])
                if text in (g, names[g]) and auction["bids"][i] is None]
        any_ = [i for i, g in enumerate(auction["genes"]) if text in (g, names[g])]
        if free or any_:
            return (free or any_)[0]
        raise IllegalAction("unknown_gene", gene=text)

    @bid.autocomplete("gene")
    async def _bid_gene(self, interaction: discord.Interaction, current: str):
        game = self.host.game_in(interaction.channel_id)
        if game is None or game.status != "active" or not game.state.auction:
            return []
        auction = game.state.auction
        names = game.names()
        out = []
        for slot, gene in enumerate(auction["genes"]):
            held = auction["bids"][slot]
            label = f"{slot}: {gene_name(gene, self.lang)}"
            label += f" — {names[held[0]]} {held[1]}" if held else " — 0"
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=label, value=str(slot)))
        return out[:MAX_CHOICES]

    @app_commands.command(name="pass", description="Pass: play no card now, or drop out of the auction")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, {"type": "pass"})

    @app_commands.command(name="play", description="Play an event card now")
    @app_commands.describe(card="A card of yours that is playable now (with its target)")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        if card.startswith("{"):
            action = decode_action(card)
        else:
            action = {"type": "play", "card": card.strip().lower()}
        if action.get("type") != "play":
            raise HostError("bad_option", detail=card[:40])
        await self._do(interaction, action)

    @play.autocomplete("card")
    async def _play_card(self, interaction: discord.Interaction, current: str):
        game, legal = self._legal(interaction)
        if game is None:
            return []
        names = game.names()
        out = []
        for a in legal:
            if a["type"] == "play":
                label = play_label(a, names, self.lang)
                if current.lower() in label.lower():
                    out.append(app_commands.Choice(name=label[:100], value=encode_action(a)))
        return out[:MAX_CHOICES]

    # --- information ------------------------------------------------------------------------

    @app_commands.command(name="hand", description="See your event cards (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        game = self._game(interaction)
        await self.show_hand(interaction, game.id)

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        lang = self.lang
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
            await send_ephemeral(interaction, refusal(exc, None, lang))
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
            buttons.add_item(ActButton(game.id, a, play_label(a, names, lang),
                                       discord.ButtonStyle.primary))
        if hand:
            embed.set_footer(text=t("bot.hand_playable" if plays else "bot.hand_none_playable",
                                    lang))
        await send_ephemeral(interaction, embed=embed, view=buttons if plays else discord.utils.MISSING)

    @app_commands.command(name="board", description="Show the current board (only you)")
    async def board(self, interaction: discord.Interaction) -> None:
        game = self._game(interaction)
        if game.status != "active":
            raise HostError("not_started")
        await interaction.response.defer(ephemeral=True, thinking=True)
        cached = self._boards.get(game.id)
        if cached is None or cached[0] != game.seq:
            # one drawing per game position, however many players ask for it
            png = await asyncio.to_thread(render_evo, game.rules.view(game.state, None),
                                          self.lang)
            cached = self._boards[game.id] = (game.seq, png)
        await interaction.followup.send(file=discord.File(io.BytesIO(cached[1]), "board.png"),
                                        ephemeral=True)

    @app_commands.command(name="status", description="Turn, phase, whose input is awaited, scores")
    async def status(self, interaction: discord.Interaction) -> None:
        game = self._game(interaction)
        if game.status != "active":
            raise HostError("not_started")
        lang = self.lang
        v = game.rules.view(game.state, None)
        lines = [t("bot.status_title", lang, game="EVO", turn=v["turn"],
                   phase=t(f"evo.phase.{v['phase']}", lang))]
        for i, p in enumerate(v["order"]):
            pl = v["players"][p]
            lines.append(t("bot.status_player", lang, order=i + 1, name=pl["name"], mp=pl["mp"],
                           dinos=pl["dinos"], cards=pl["cards"]))
        awaiting = [v["players"][p]["name"] for p in v["awaiting"]]
        lines.append(t("bot.status_awaiting", lang,
                       players=", ".join(awaiting) or t("bot.status_nobody", lang)))
        await send_ephemeral(interaction, "\n".join(lines))

    @app_commands.command(name="log", description="Recent events of this game (only you)")
    async def log(self, interaction: discord.Interaction) -> None:
        from messages.evo import describe

        game = self._game(interaction)
        lines = [x for x in (describe(e, game.names(), self.lang)
                             for e in game.lobby.get("log", [])) if x]
        text = "\n".join(lines[-25:]) or t("bot.log_empty", self.lang)
        await send_ephemeral(interaction, f"**{t('bot.log_title', self.lang)}**\n{text}"[:2000])

    @app_commands.command(name="rules", description="Read a rule: a phase, a gene or a card")
    @app_commands.describe(topic="phase, gene or card")
    async def rules(self, interaction: discord.Interaction, topic: str) -> None:
        lang = self.lang
        kind, _, name = topic.partition(":")
        if kind == "phase" and name in PHASES:
            title, text = t(f"evo.phase.{name}", lang), t(f"evo.rules.phase.{name}", lang)
        elif kind == "gene" and name in ("card",) + GENE_KINDS:
            title, text = gene_name(name, lang), t(f"evo.rules.gene.{name}", lang)
        elif kind == "card" and t(f"evo.card.{name}.name", lang) != f"evo.card.{name}.name":
            title = card_name(name, lang)
            text = f"*{t(f'evo.card.{name}.when', lang)}*\n{t(f'evo.card.{name}.text', lang)}"
        else:
            await send_ephemeral(interaction, t("bot.no_rules_topic", lang, topic=topic[:50]))
            return
        await send_ephemeral(interaction, embed=discord.Embed(title=title, description=text))

    @rules.autocomplete("topic")
    async def _rules_topic(self, interaction: discord.Interaction, current: str):
        return [app_commands.Choice(name=label, value=value)
                for value, label in _topics(self.lang)
                if current.lower() in label.lower()][:MAX_CHOICES]


async def setup(bot) -> None:
    await bot.add_cog(Evo(bot))
